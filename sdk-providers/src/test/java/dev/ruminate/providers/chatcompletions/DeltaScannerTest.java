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
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.scan(bytes, 0, bytes.length, chunk)).as(json).isTrue();
        return chunk;
    }

    private boolean recognised(byte[] json) {
        return scanner.scan(json, 0, json.length, new Chunk());
    }

    private boolean recognised(String json) {
        return recognised(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The chunk's data as a lent frame would hold them: a range inside a larger array, with other bytes around it. */
    @Test
    void readsOnlyTheRangeItIsGiven() {
        byte[] json = (HEAD + "{\"content\":\"in range\"}" + TAIL).getBytes(StandardCharsets.UTF_8);
        // around the range: what would make the chunk unrecognised, or differ, were it read
        byte[] before = "{\"choices\":[{\"delta\":{\"content\":\"".getBytes(StandardCharsets.UTF_8);
        byte[] after = "x\"}}]}".getBytes(StandardCharsets.UTF_8);
        byte[] array = new byte[before.length + json.length + after.length];
        System.arraycopy(before, 0, array, 0, before.length);
        System.arraycopy(json, 0, array, before.length, json.length);
        System.arraycopy(after, 0, array, before.length + json.length, after.length);

        Chunk chunk = new Chunk();
        assertThat(scanner.scan(array, before.length, json.length, chunk)).isTrue();
        assertThat(chunk.segments).containsExactly(new Chunk.Segment(false, "in range", "content"));
        // a range that cuts the object short is not a chunk, whatever follows it in the array
        assertThat(scanner.scan(array, before.length, json.length - 1, new Chunk())).isFalse();
    }

    @Test
    void readsToolCallArgumentFragments() {
        Chunk next = scan(HEAD + "{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"{\\\"q\\\":\\\"é\\n\"}}]}" + TAIL);
        assertThat(next.tools).containsExactly(new Chunk.ToolFragment(1, 0, null, null, "{\"q\":\"é\n", null));
        assertThat(next.segments).isEmpty();
        assertThat(next.reasoningText).isNull();

        Chunk first = scan(HEAD + "{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}" + TAIL);
        assertThat(first.tools).containsExactly(new Chunk.ToolFragment(0, 0, "call_1", "get_weather", "", null));
    }

    @Test
    void readsToolCallsAsTheFullParserDoes() {
        // several calls, a null element taking a position, members in any order, a role and content beside them
        Chunk chunk = scan(HEAD + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[null, {\"function\":"
                + "{\"arguments\":null,\"name\":\"f\"},\"index\":123456789,\"extra_content\":null},{\"id\":null,"
                + "\"function\":{}}, {}]}" + TAIL);
        assertThat(chunk.tools).containsExactly(
                new Chunk.ToolFragment(123456789, 1, null, "f", null, null),
                new Chunk.ToolFragment(-1, 2, null, null, null, null),
                // no function, index or id: the legacy rule gives index 0
                new Chunk.ToolFragment(0, 3, null, null, null, null));

        assertThat(scan(HEAD + "{\"tool_calls\":[]}" + TAIL).tools).isEmpty();
        assertThat(scan(HEAD + "{\"tool_calls\":null,\"content\":\"a\"}" + TAIL).tools).isEmpty();
        assertThat(scan(HEAD + "{\"tool_calls\":[{\"id\":\"c\"}]}" + TAIL).tools)
                .containsExactly(new Chunk.ToolFragment(-1, 0, "c", null, null, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "[{\"index\":0,\"function\":{\"arguments\":{\"a\":1}}}]",
            "[{\"index\":0,\"function\":{\"arguments\":\"a\",\"arguments\":\"b\"}}]",
            "[{\"index\":0,\"function\":{\"name\":\"a\",\"name\":\"b\"}}]",
            "[{\"index\":0,\"function\":{\"name\":1}}]",
            "[{\"index\":0,\"function\":{\"arguments\":\"a\"},\"function\":{}}]",
            "[{\"index\":0,\"function\":null}]",
            "[{\"index\":0,\"function\":\"f\"}]",
            "[{\"index\":0,\"function\":{\"x\":[]}}]",
            "[{\"index\":0,\"name\":\"f\",\"function\":{}}]",
            "[{\"index\":0,\"arguments\":\"{}\"}]",
            "[{\"index\":0,\"index\":1,\"function\":{}}]",
            "[{\"index\":0,\"id\":\"a\",\"id\":\"b\"}]",
            "[{\"index\":0,\"id\":7}]",
            "[{\"index\":0,\"extra_content\":{\"google\":{\"thought_signature\":\"s\"}}}]",
            "[{\"index\":0,\"type\":{}}]",
            "[{\"index\":-1}]",
            "[{\"index\":01}]",
            "[{\"index\":1.0}]",
            "[{\"index\":1e0}]",
            "[{\"index\":\"0\"}]",
            "[{\"index\":null}]",
            "[{\"index\":2147483648}]",
            "[{\"index\":0}],\"tool_calls\":[{\"index\":1}]",
            "[{\"index\":0},]",
            "[1]",
            "[[]]",
            "{}",
            "\"x\"",
    })
    void leavesOtherToolCallsToJackson(String toolCalls) {
        String json = "{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":" + toolCalls + "}}]}";
        assertThat(recognised(json)).as(json).isFalse();
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
            "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":{}}}]}}]}",
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
        // the same after a chunk with this head was read, so that the head is compared, not scanned
        assertThat(scan("{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"primed\"}}]}").segments)
                .containsExactly(new Chunk.Segment(false, "primed", "content"));
        assertThat(recognised(json.getBytes(StandardCharsets.UTF_8))).as("after the head was read: " + json).isFalse();
    }

    /**
     * A head read once is compared in later chunks, not scanned again: the same head reads the same,
     * and a head that differs anywhere, or a chunk cut inside it, is scanned (or declined) as before.
     */
    @Test
    void aRepeatedHeadReadsAsTheFirstAndAChangedOneIsScanned() {
        String head = "{\"id\":\"a\",\"created\":1,\"model\":\"m\",\"choices\":";
        assertThat(scan(head + "[{\"delta\":{\"content\":\"one\"}}]}").segments)
                .containsExactly(new Chunk.Segment(false, "one", "content"));
        assertThat(scan(head + " [ {\"delta\":{\"reasoning_content\":\"two\"}} ] , \"usage\":null}").reasoningText)
                .isEqualTo("two");
        // a later member named choices is still a second choices
        assertThat(recognised(head + "[{\"delta\":{}}],\"choices\":[{\"delta\":{}}]}")).isFalse();
        // one byte changed inside the head: scanned, and a malformed one declined
        assertThat(scan(head.replace("\"a\"", "\"b\"") + "[{\"delta\":{\"content\":\"three\"}}]}").segments)
                .containsExactly(new Chunk.Segment(false, "three", "content"));
        assertThat(recognised(head.replace("1,", "01,") + "[{\"delta\":{}}]}")).isFalse();
        assertThat(recognised(head.substring(0, head.length() - 3))).isFalse();
        assertThat(recognised(head)).isFalse();
        // a head holding a name the full parser reads is not remembered: usage before choices stays checked
        String usageFirst = "{\"usage\":null,\"choices\":";
        assertThat(scan(usageFirst + "[{\"delta\":{\"content\":\"four\"}}]}").segments)
                .containsExactly(new Chunk.Segment(false, "four", "content"));
        assertThat(recognised("{\"usage\":{},\"choices\":[{\"delta\":{}}]}")).isFalse();
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
