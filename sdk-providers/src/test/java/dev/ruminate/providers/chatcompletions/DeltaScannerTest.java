package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * What the fast path recognises and how it reads it: the dominant chunk shape with its text decoded
 * as Jackson would; everything outside that shape left to Jackson.
 */
class DeltaScannerTest {

    private static final String HEAD = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1732000000,"
            + "\"model\":\"m\",\"system_fingerprint\":null,\"choices\":[{\"index\":0,\"delta\":";
    private static final String TAIL = ",\"logprobs\":null,\"finish_reason\":null}],\"obfuscation\":\"x1\"}";

    private final DeltaScanner scanner = new DeltaScanner(Profiles.DEEPSEEK);

    private Chunk scan(String json) {
        Chunk chunk = new Chunk();
        assertThat(scanner.scan(json.getBytes(StandardCharsets.UTF_8), chunk)).as(json).isTrue();
        return chunk;
    }

    private boolean recognised(byte[] json) {
        return scanner.scan(json, new Chunk());
    }

    @Test
    void readsReasoningAndContentDecoded() {
        Chunk reasoning = scan(HEAD + "{\"reasoning_content\":\"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00 é中😀\"}" + TAIL);
        assertThat(reasoning.reasoningText).isEqualTo("a\"b\\c/d\né😀 é中😀");
        assertThat(reasoning.reasoningSource).isEqualTo("reasoning_content");
        assertThat(reasoning.segments).isEmpty();

        Chunk content = scan(HEAD + "{\"role\":\"assistant\",\"content\":\"plain\",\"reasoning_content\":null}" + TAIL);
        assertThat(content.segments).containsExactly(new Chunk.Segment(false, "plain", "content"));
        assertThat(content.reasoningText).isNull();
    }

    @Test
    void keepsLoneSurrogatesAsJacksonDoes() {
        assertThat(scan(HEAD + "{\"content\":\"x\\ud83dy\\ude00\"}" + TAIL).segments.get(0).text())
                .isEqualTo("x\ud83dy\ude00");
    }

    @Test
    void readsKeysInAnyOrderWithWhitespace() {
        Chunk chunk = scan(" {\n\"choices\" : [ { \"delta\" : { \"content\" : \"t\" } , \"index\" : 0 } ] ,\t\"id\":\"x\" }\r\n");
        assertThat(chunk.segments).containsExactly(new Chunk.Segment(false, "t", "content"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}",
            "{\"tool_calls\":[{\"index\":0}]}}]}",
            "{\"content\":\"a\",\"content\":\"b\"}}]}",
            "{\"con\\u0074ent\":\"a\"}}]}",
            "{\"content\":12}}]}",
            "{\"content\":\"a\\x\"}}]}",
            "{\"content\":\"a\u0001\"}}]}",
            "{\"content\":\"a\"}},{\"index\":1,\"delta\":{}}]}",
            "{\"content\":\"a\"}}],\"usage\":{\"prompt_tokens\":1}}",
            "{\"content\":\"a\"}}]}\n[DONE]",
            "{\"content\":\"a\"}}]}{}",
            "{\"content\":\"a\"}}]",
            "{\"content\":\"a\"},\"message\":{\"content\":\"a\"}}]}",
            "{\"content\":\"a\",\"x\":{}}}]}",
    })
    void leavesEverythingElseToJackson(String rest) {
        String json = "{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":" + rest;
        assertThat(recognised(json.getBytes(StandardCharsets.UTF_8))).as(json).isFalse();
    }

    /** Only choice 0 becomes events, and Jackson reads the index: anything but 0 or null is its to judge. */
    @ParameterizedTest
    @ValueSource(strings = {"1", "-0", "0.0", "\"0\"", "00", "{}"})
    void leavesOtherIndicesToJackson(String index) {
        String json = "{\"choices\":[{\"index\":" + index + ",\"delta\":{\"content\":\"a\"}}]}";
        assertThat(recognised(json.getBytes(StandardCharsets.UTF_8))).as(json).isFalse();
    }

    @Test
    void leavesMalformedUtf8ToJackson() {
        byte[][] malformed = {{(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                {(byte) 0x80}, {(byte) 0xe2, (byte) 0x82}};
        for (byte[] bad : malformed) {
            byte[] before = "{\"choices\":[{\"delta\":{\"content\":\"a".getBytes(StandardCharsets.UTF_8);
            byte[] after = "b\"}}]}".getBytes(StandardCharsets.UTF_8);
            byte[] json = new byte[before.length + bad.length + after.length];
            System.arraycopy(before, 0, json, 0, before.length);
            System.arraycopy(bad, 0, json, before.length, bad.length);
            System.arraycopy(after, 0, json, before.length + bad.length, after.length);
            assertThat(recognised(json)).isFalse();
        }
    }
}
