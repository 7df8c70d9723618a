package dev.ruminate.providers.ollama;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the fast path recognises and how it reads it: the dominant delta line of {@code /api/chat}
 * and {@code /api/generate} with its text decoded as Jackson would; everything outside that shape
 * left to Jackson.
 */
class OllamaDeltaScannerTest {

    private static final String HEAD = "{\"model\":\"qwen3:8b\",\"created_at\":\"2025-08-23T11:02:35.981511874Z\",";

    private final OllamaDeltaScanner scanner = new OllamaDeltaScanner();

    private OllamaLine scan(String json) {
        OllamaLine line = new OllamaLine();
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.scan(bytes, 0, bytes.length, line)).as(json).isTrue();
        return line;
    }

    private boolean recognised(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return scanner.scan(bytes, 0, bytes.length, new OllamaLine());
    }

    @Test
    void readsTheChatDeltaDecoded() {
        OllamaLine line = scan(HEAD + "\"message\":{\"role\":\"assistant\",\"content\":\"\","
                + "\"thinking\":\"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00 é中😀\"},\"done\":false}");
        assertThat(line.thinking).isEqualTo("a\"b\\c/d\né😀 é中😀");
        assertThat(line.content).isEmpty();
        assertThat(line.done).isFalse();
        assertThat(line.model).isNull();
        assertThat(line.toolCalls).isEmpty();

        OllamaLine content = scan(HEAD + "\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"done\":false}");
        assertThat(content.content).isEqualTo("Hi");
        assertThat(content.thinking).isNull();
    }

    @Test
    void readsTheGenerateDelta() {
        OllamaLine line = scan(HEAD + "\"response\":\"\\u003cthink\\u003e\",\"thinking\":null,\"done\":false}");
        assertThat(line.content).isEqualTo("<think>");
        assertThat(line.thinking).isNull();
    }

    @Test
    void readsAnOffsetRangeOfALargerArray() {
        byte[] bytes = ("xx" + HEAD + "\"response\":\"ab\",\"done\":false}yy").getBytes(StandardCharsets.UTF_8);
        OllamaLine line = new OllamaLine();
        assertThat(scanner.scan(bytes, 2, bytes.length - 4, line)).isTrue();
        assertThat(line.content).isEqualTo("ab");
        assertThat(scanner.scan(bytes, 2, bytes.length - 3, line)).isFalse();
    }

    @Test
    void readsKeysInAnyOrderWithWhitespaceAndResetsTheLine() {
        OllamaLine line = new OllamaLine();
        line.evalCount = 3L;
        line.done = true;
        byte[] bytes = " {\t\"done\" : false ,\"message\" : { \"thinking\" : \"t\" , \"tool_calls\" : [ ] } , \"x\":1.5e3 }\r"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.scan(bytes, 0, bytes.length, line)).isTrue();
        assertThat(line.thinking).isEqualTo("t");
        assertThat(line.evalCount).isNull();
        assertThat(line.done).isFalse();
    }

    @Test
    void keepsLoneSurrogatesAsJacksonDoes() {
        assertThat(scan("{\"response\":\"x\\ud83dy\\ude00\"}").content).isEqualTo("x\ud83dy\ude00");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "\"response\":\"a\",\"done\":true}",
            "\"response\":\"a\",\"done\":\"false\"}",
            "\"response\":\"a\",\"done\":falsey}",
            "\"response\":\"a\",\"done\":{}}",
            "\"response\":12,\"done\":false}",
            "\"response\":\"a\",\"response\":\"b\"}",
            "\"response\":\"a\",\"message\":{\"content\":\"b\"}}",
            "\"thinking\":\"a\",\"message\":{\"thinking\":null}}",
            "\"message\":{\"content\":\"a\",\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":{}}}]}}",
            "\"message\":{\"content\":\"a\",\"images\":[]}}",
            "\"message\":\"a\"}",
            "\"message\":null{}}",
            "\"message\":{\"content\":\"a\",\"tool_calls\":null[]}}",
            "\"message\":{\"con\\u0074ent\":\"a\"}}",
            "\"message\":{\"content\":\"a\\x\"}}",
            "\"message\":{\"content\":\"a\u0001\"}}",
            "\"message\":{\"content\":\"a\"}",
            "\"response\":\"a\",\"eval_count\":5}",
            "\"response\":\"a\",\"prompt_eval_count\":5}",
            "\"response\":\"a\",\"error\":\"boom\"}",
            "\"response\":\"a\",\"context\":[1,2]}",
            "\"response\":\"a\"}{}",
            "\"response\":\"a\"} x",
            "\"response\":\"a\",}",
    })
    void leavesEverythingElseToJackson(String rest) {
        assertThat(recognised(HEAD + rest)).as(rest).isFalse();
    }

    @Test
    void leavesMalformedUtf8ToJackson() {
        byte[][] malformed = {{(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0x80}, {(byte) 0xe2, (byte) 0x82}};
        for (byte[] bad : malformed) {
            byte[] before = (HEAD + "\"message\":{\"content\":\"a").getBytes(StandardCharsets.UTF_8);
            byte[] after = "b\"},\"done\":false}".getBytes(StandardCharsets.UTF_8);
            byte[] json = new byte[before.length + bad.length + after.length];
            System.arraycopy(before, 0, json, 0, before.length);
            System.arraycopy(bad, 0, json, before.length, bad.length);
            System.arraycopy(after, 0, json, before.length + bad.length, after.length);
            assertThat(scanner.scan(json, 0, json.length, new OllamaLine())).isFalse();
        }
    }
}
