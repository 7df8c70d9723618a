package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the fast path recognises and how it reads it: a {@code content_block_delta} of the four text
 * kinds, its index and its string decoded as Jackson would, also from a range of a larger array;
 * everything outside that shape left to Jackson.
 */
class ContentBlockDeltaScannerTest {

    private final ContentBlockDeltaScanner scanner = new ContentBlockDeltaScanner();

    private ContentBlockDeltaScanner scan(String json) {
        byte[] data = json.getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.scan(data, 0, data.length)).as(json).isTrue();
        return scanner;
    }

    private boolean recognised(byte[] json) {
        return scanner.scan(json, 0, json.length);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "text_delta|text", "thinking_delta|thinking", "input_json_delta|partial_json", "signature_delta|signature"})
    void readsEachKindDecoded(String type, String field) {
        ContentBlockDeltaScanner read = scan("{\"type\":\"content_block_delta\",\"index\":12,\"delta\":{\"type\":\"" + type
                + "\",\"" + field + "\":\"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00 é中😀\"}}");
        assertThat(read.index()).isEqualTo(12);
        assertThat(read.deltaType()).isEqualTo(type);
        assertThat(read.text()).isEqualTo("a\"b\\c/d\né😀 é中😀");
    }

    @Test
    void keepsLoneSurrogatesAndNullAsJacksonDoes() {
        assertThat(scan("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\","
                + "\"text\":\"x\\ud83dy\\ude00\"}}").text()).isEqualTo("x\ud83dy\ude00");
        ContentBlockDeltaScanner nullText = scan("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                + "\"thinking_delta\",\"thinking\":null}}");
        assertThat(nullText.text()).isNull();
        assertThat(nullText.deltaType()).isEqualTo("thinking_delta");
    }

    @Test
    void readsKeysInAnyOrderWithWhitespaceAndUnknownScalars() {
        ContentBlockDeltaScanner read = scan(" {\n\"delta\" : { \"partial_json\" : \"{\\\"a\\\":\" ,\t\"type\":\"input_json_delta\","
                + "\"x\":true } , \"index\" : 2147483647 ,\"id\":null,\"n\":-1.5e3, \"type\" :\"content_block_delta\" }\r\n");
        assertThat(read.index()).isEqualTo(Integer.MAX_VALUE);
        assertThat(read.deltaType()).isEqualTo("input_json_delta");
        assertThat(read.text()).isEqualTo("{\"a\":");
    }

    /** The lent path hands the scanner a range of a network buffer: it reads that range and no byte around it. */
    @Test
    void readsOnlyItsRangeOfALargerArray() {
        byte[] json = "{\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}"
                .getBytes(StandardCharsets.UTF_8);
        byte[] buffer = new byte[json.length + 20];
        Arrays.fill(buffer, (byte) '#');
        System.arraycopy(json, 0, buffer, 9, json.length);
        assertThat(scanner.scan(buffer, 9, json.length)).isTrue();
        assertThat(scanner.index()).isEqualTo(3);
        assertThat(scanner.text()).isEqualTo("hi");
        // one byte short of the object, or one byte into the garbage: not a document the scanner may read
        assertThat(scanner.scan(buffer, 9, json.length - 1)).isFalse();
        assertThat(scanner.scan(buffer, 9, json.length + 1)).isFalse();
        assertThat(scanner.scan(buffer, 8, json.length + 1)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // the event: another type, an escaped or missing one, a repeated or missing field
            "{\"type\":\"content_block_start\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block\\u005fdelta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":null,\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0}",
            "{\"type\":\"content_block_delta\",\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"},\"delta\":{}}",
            // names the full parser reads, nested values, an escaped name
            "{\"type\":\"content_block_delta\",\"index\":0,\"usage\":null,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"message\":{},\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"content_block\":{},\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"x\":{},\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\",\"x\":[]}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\",\"content\":\"b\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\",\"stop_reason\":null}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"te\\u0078t\":\"a\"}}",
            // the delta: other types, a type that does not match its field, a missing or repeated field
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"citations_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"compaction_delta\",\"content\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text\\u005fdelta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"text\":\"a\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\",\"text\":\"b\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"type\":\"text_delta\",\"text\":\"a\"}}",
            // values where a string belongs, malformed strings, malformed or trailing JSON
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":12}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\\x\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\u0001\"}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}{}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}} x",
            "{\"type\":\"content_block_delta\"x,\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}",
            "[]", "", "{}",
    })
    void leavesEverythingElseToJackson(String json) {
        assertThat(recognised(json.getBytes(StandardCharsets.UTF_8))).as(json).isFalse();
    }

    /** Jackson reads {@code -0} as 0 and fails the others each its own way: all of them are its to judge. */
    @ParameterizedTest
    @ValueSource(strings = {"-0", "-1", "1.0", "1e0", "\"1\"", "01", "00", "null", "2147483648", "99999999999", "{}", "true"})
    void leavesOtherIndicesToJackson(String index) {
        String json = "{\"type\":\"content_block_delta\",\"index\":" + index + ",\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}";
        assertThat(recognised(json.getBytes(StandardCharsets.UTF_8))).as(json).isFalse();
    }

    @Test
    void leavesMalformedUtf8ToJackson() {
        byte[][] malformed = {{(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                {(byte) 0x80}, {(byte) 0xe2, (byte) 0x82}};
        byte[] before = "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a"
                .getBytes(StandardCharsets.UTF_8);
        byte[] after = "b\"}}".getBytes(StandardCharsets.UTF_8);
        for (byte[] bad : malformed) {
            byte[] json = new byte[before.length + bad.length + after.length];
            System.arraycopy(before, 0, json, 0, before.length);
            System.arraycopy(bad, 0, json, before.length, bad.length);
            System.arraycopy(after, 0, json, before.length + bad.length, after.length);
            assertThat(recognised(json)).isFalse();
        }
    }
}
