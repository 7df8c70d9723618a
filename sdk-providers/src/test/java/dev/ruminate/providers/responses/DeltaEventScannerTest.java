package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the Responses fast path recognises and how it reads it: the four text deltas with their
 * item id, indices and text decoded as Jackson would; everything else left to Jackson.
 */
class DeltaEventScannerTest {

    private static final String TEXT = "{\"type\":\"response.output_text.delta\",\"content_index\":0,\"delta\":\"Deep\","
            + "\"item_id\":\"msg_1\",\"logprobs\":[],\"obfuscation\":\"aunfrTMKPSG6\",\"output_index\":3,\"sequence_number\":4}";

    private final DeltaEventScanner scanner = new DeltaEventScanner();

    private WireEvent scan(String sseType, String json) {
        WireEvent e = new WireEvent();
        assertThat(scanner.scan(sseType, bytes(json), 0, bytes(json).length, e)).as(json).isTrue();
        return e;
    }

    private boolean recognised(String sseType, String json) {
        byte[] b = bytes(json);
        return scanner.scan(sseType, b, 0, b.length, new WireEvent());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsAnOutputTextDelta() {
        WireEvent e = scan("response.output_text.delta", TEXT);
        assertThat(e.type).isEqualTo("response.output_text.delta");
        assertThat(e.delta).isEqualTo("Deep");
        assertThat(e.itemId).isEqualTo("msg_1");
        assertThat(e.outputIndex).isEqualTo(3);
        assertThat(e.contentIndex).isZero();
        assertThat(e.summaryIndex).isEqualTo(-1);
        assertThat(e.item).isNull();
        assertThat(e.response).isNull();
    }

    @Test
    void readsTheOtherThreeDeltasInAnyOrderWithWhitespace() {
        WireEvent summary = scan("message", " {\n\"delta\" : \"**Count\" ,\t\"item_id\":\"rs_1\",\"output_index\":0,"
                + "\"sequence_number\":4,\"summary_index\":12,\"type\":\"response.reasoning_summary_text.delta\"}\r\n");
        assertThat(summary.type).isEqualTo("response.reasoning_summary_text.delta");
        assertThat(summary.delta).isEqualTo("**Count");
        assertThat(summary.summaryIndex).isEqualTo(12);
        assertThat(summary.contentIndex).isEqualTo(-1);

        WireEvent raw = scan("message", "{\"type\":\"response.reasoning_text.delta\",\"item_id\":\"rs_3\",\"output_index\":0,"
                + "\"content_index\":0,\"delta\":\"The\",\"sequence_number\":4}");
        assertThat(raw.type).isEqualTo("response.reasoning_text.delta");
        assertThat(raw.delta).isEqualTo("The");

        WireEvent args = scan("message", "{\"type\":\"response.function_call_arguments.delta\",\"sequence_number\":9,"
                + "\"item_id\":\"fc_1\",\"output_index\":1,\"delta\":\"{\\\"a\\\":\",\"obfuscation\":\"x\"}");
        assertThat(args.type).isEqualTo("response.function_call_arguments.delta");
        assertThat(args.delta).isEqualTo("{\"a\":");
        assertThat(args.outputIndex).isEqualTo(1);
    }

    @Test
    void decodesTheDeltaAsJacksonDoes() {
        WireEvent e = scan("message", "{\"type\":\"response.output_text.delta\",\"delta\":"
                + "\"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00 é中😀 x\\ud83dy\"}");
        assertThat(e.delta).isEqualTo("a\"b\\c/d\né😀 é中😀 x\ud83dy");
        assertThat(e.itemId).isNull();
        assertThat(e.outputIndex).isEqualTo(-1);
    }

    @Test
    void goesByTheSseNameWhenTheJsonHasNoType() {
        String json = "{\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"t\"}";
        assertThat(scan("response.output_text.delta", json).type).isEqualTo("response.output_text.delta");
        assertThat(scan("response.reasoning_text.delta", json.replace("{", "{\"type\":null,")).type)
                .isEqualTo("response.reasoning_text.delta");
        assertThat(recognised("message", json)).isFalse();
        assertThat(recognised("response.completed", json)).isFalse();
        // the JSON's type wins over the SSE name
        assertThat(scan("response.completed", json.replace("{", "{\"type\":\"response.reasoning_text.delta\",")).type)
                .isEqualTo("response.reasoning_text.delta");
    }

    @Test
    void aRepeatedPropertyCountsWithItsLastValueAsWithJackson() {
        WireEvent e = scan("message", "{\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"delta\":null,"
                + "\"output_index\":1,\"output_index\":null,\"item_id\":null,\"item_id\":\"m\"}");
        assertThat(e.delta).isNull();
        assertThat(e.outputIndex).isEqualTo(-1);
        assertThat(e.itemId).isEqualTo("m");
    }

    @Test
    void handsOutTheSameItemIdForTheDeltasOfOneItem() {
        String first = scan("message", TEXT).itemId;
        assertThat(first).isEqualTo("msg_1");
        assertThat(scan("message", TEXT).itemId).isSameAs(first);
        assertThat(scan("message", TEXT.replace("msg_1", "msg_12")).itemId).isEqualTo("msg_12");
        // an escape spells the same id: decoded, not compared by bytes
        assertThat(scan("message", TEXT.replace("msg_1", "msg\\u005f12")).itemId).isEqualTo("msg_12");
    }

    @Test
    void readsARangeOfALargerArray() {
        byte[] json = bytes(TEXT);
        byte[] array = new byte[json.length + 20];
        java.util.Arrays.fill(array, (byte) '}');
        System.arraycopy(json, 0, array, 7, json.length);
        WireEvent e = new WireEvent();
        assertThat(scanner.scan("message", array, 7, json.length, e)).isTrue();
        assertThat(e.delta).isEqualTo("Deep");
        assertThat(scanner.scan("message", array, 7, json.length + 1, e)).isFalse();
        assertThat(scanner.scan("message", array, 7, json.length - 1, e)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "\"type\":\"response.output_text.done\",\"text\":\"a\"",
            "\"type\":\"response.refusal.delta\",\"delta\":\"a\"",
            "\"type\":\"response.custom_tool_call_input.delta\",\"delta\":\"a\"",
            "\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"text\":\"b\"",
            "\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"part\":null",
            "\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"item\":null",
            "\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"response\":null",
            "\"type\":\"response.output_text.delta\",\"delta\":12",
            "\"type\":\"response.output_text.delta\",\"delta\":[]",
            "\"type\":\"response.output_text.delta\",\"item_id\":7,\"delta\":\"a\"",
            "\"type\":\"response.output_text.delta\",\"delta\":\"a\\x\"",
            "\"type\":\"response.output_text.delta\",\"delta\":\"a\u0001\"",
            "\"type\":\"response.output_text.delta\",\"de\\u006cta\":\"a\"",
            "\"type\":\"response.output_text\\u002edelta\",\"delta\":\"a\"",
            "\"type\":12,\"delta\":\"a\"",
            "\"type\":\"response.output_text.delta\",\"logprobs\":[1,]",
            "\"type\":\"response.output_text.delta\",\"logprobs\":[{\"a\":1,}]",
            "\"type\":\"response.output_text.delta\",\"logprobs\":[{\"a\"}]",
            "\"type\":\"response.output_text.delta\",\"logprobs\":[{\"\\u0061\":1}]",
            "\"type\":\"response.output_text.delta\",\"logprobs\":[[1]",
            "\"type\":\"response.output_text.delta\",\"logprobs\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
            "\"type\":\"response.output_text.delta\",\"logprobs\":{\"a\":{\"b\":nul}}",
            "\"type\":\"response.output_text.delta\",\"delta\":nullx",
            "\"type\":\"response.output_text.delta\",\"delta\":\"a\",",
            "\"type\":\"response.output_text.delta\" \"delta\":\"a\"",
    })
    void leavesEverythingElseToJackson(String fields) {
        assertThat(recognised("message", "{" + fields + "}")).as(fields).isFalse();
    }

    @Test
    void skipsNestedValuesTheFullParserSkips() {
        WireEvent e = scan("message", "{\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"logprobs\":[{\"token\":"
                + "\"'ll\",\"logprob\":-0.25,\"bytes\":[39, 108],\"top_logprobs\":[]} , {}],\"x\":{\"y\":[[[[[[[1]]]]]]],\"z\":null}}");
        assertThat(e.delta).isEqualTo("a");
    }

    /** Anything but a plain small integer or null is Jackson's to judge (or fail). */
    @ParameterizedTest
    @ValueSource(strings = {"-1", "-0", "01", "0.0", "1e2", "\"0\"", "2147483648", "99999999999", "{}", "true", "1null", "nul"})
    void leavesOtherIndicesToJackson(String index) {
        assertThat(recognised("message", "{\"type\":\"response.output_text.delta\",\"output_index\":" + index + ",\"delta\":\"a\"}"))
                .as(index).isFalse();
        assertThat(recognised("message", "{\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"content_index\":" + index + "}"))
                .as(index).isFalse();
    }

    @Test
    void readsIndicesUpToNineDigits() {
        assertThat(scan("message", "{\"type\":\"response.output_text.delta\",\"output_index\":123456789}").outputIndex)
                .isEqualTo(123_456_789);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{}", "[]", "null", "{\"type\":\"response.output_text.delta\"}{}",
            "{\"type\":\"response.output_text.delta\"} x", "{\"type\":\"response.output_text.delta\""})
    void leavesMalformedOrOtherDocumentsToJackson(String json) {
        assertThat(recognised("response.output_text.delta", json)).as(json).isFalse();
    }

    @Test
    void leavesMalformedUtf8ToJackson() {
        for (byte[] bad : new byte[][] {{(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xff},
                {(byte) 0xe2, (byte) 0x82}}) {
            byte[] head = bytes("{\"type\":\"response.output_text.delta\",\"delta\":\"a");
            byte[] tail = bytes("\"}");
            byte[] json = new byte[head.length + bad.length + tail.length];
            System.arraycopy(head, 0, json, 0, head.length);
            System.arraycopy(bad, 0, json, head.length, bad.length);
            System.arraycopy(tail, 0, json, head.length + bad.length, tail.length);
            assertThat(scanner.scan("message", json, 0, json.length, new WireEvent())).isFalse();
        }
    }
}
