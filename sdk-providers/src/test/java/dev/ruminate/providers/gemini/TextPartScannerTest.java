package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the Gemini fast path recognises and how it reads it: the dominant text chunk, read into the
 * same {@link GeminiChunk} {@link GeminiParser} gives; everything outside that shape left to Jackson.
 */
class TextPartScannerTest {

    private static final String USAGE = "\"usageMetadata\":{\"promptTokenCount\":9,\"candidatesTokenCount\":10,"
            + "\"totalTokenCount\":275,\"promptTokensDetails\":[{\"modality\":\"TEXT\",\"tokenCount\":9}],\"thoughtsTokenCount\":256}";
    private static final String HEAD = "\"modelVersion\":\"gemini-3-pro-preview\",\"responseId\":\"dX6LadKVC7SZ28oPr9yJoQs\"";

    private final TextPartScanner scanner = new TextPartScanner();

    private static String chunk(String parts) {
        return "{\"candidates\":[{\"content\":{\"parts\":" + parts + ",\"role\":\"model\"},\"index\":0}]," + USAGE + "," + HEAD + "}";
    }

    /** Scans a recognised chunk and checks it against the full parser's reading. */
    private GeminiChunk scan(String json) {
        GeminiChunk chunk = new GeminiChunk();
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.scan(bytes, 0, bytes.length, true, chunk)).as(json).isTrue();
        GeminiChunk jackson = new GeminiChunk();
        GeminiParser.parse(bytes, jackson);
        assertThat(describe(chunk)).as(json).isEqualTo(describe(jackson));
        return chunk;
    }

    private boolean recognised(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return scanner.scan(bytes, 0, bytes.length, true, new GeminiChunk());
    }

    /** Everything a chunk holds that the assembler reads, as text to compare. */
    private static List<Object> describe(GeminiChunk c) {
        List<Object> all = new ArrayList<>(java.util.Arrays.asList(c.finishReason, c.blockReason, c.modelVersion, c.responseId,
                c.hasUsage, c.promptTokens, c.candidatesTokens, c.thoughtsTokens, c.cachedTokens, c.error, c.eventType,
                c.index, c.step, c.delta, c.interaction));
        for (GeminiPart p : c.parts) {
            all.add(java.util.Arrays.asList(p.text, p.thought, p.signature, p.functionCall, p.callName, p.callId, p.callArgs,
                    p.callWillContinue, p.partialArgs, p.serverType, p.serverJson));
        }
        return all;
    }

    @Test
    void readsThoughtAndAnswerTextDecodedWithUsageAndHead() {
        GeminiChunk thought = scan(chunk("[{\"text\":\"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00 é中😀\",\"thought\":true}]"));
        assertThat(thought.parts).hasSize(1);
        assertThat(thought.parts.get(0).text).isEqualTo("a\"b\\c/d\né😀 é中😀");
        assertThat(thought.parts.get(0).thought).isTrue();
        assertThat(thought.hasUsage).isTrue();
        assertThat(thought.promptTokens).isEqualTo(9L);
        assertThat(thought.candidatesTokens).isEqualTo(10L);
        assertThat(thought.thoughtsTokens).isEqualTo(256L);
        assertThat(thought.cachedTokens).isNull();
        assertThat(thought.modelVersion).isEqualTo("gemini-3-pro-preview");
        assertThat(thought.responseId).isEqualTo("dX6LadKVC7SZ28oPr9yJoQs");

        GeminiChunk answer = scan(chunk("[{\"text\":\"plain\",\"thought\":false}]"));
        assertThat(answer.parts.get(0).text).isEqualTo("plain");
        assertThat(answer.parts.get(0).thought).isFalse();
    }

    @Test
    void keepsLoneSurrogatesAsJacksonDoes() {
        assertThat(scan(chunk("[{\"text\":\"x\\ud83dy\\ude00\"}]")).parts.get(0).text).isEqualTo("x\ud83dy\ude00");
    }

    @Test
    void readsSignaturesSeveralPartsAndEmptyOnes() {
        GeminiChunk chunk = scan(chunk("[{\"text\":\"a\",\"thought\":true},{\"text\":\"\",\"thoughtSignature\":\"Eo0H+/=\"},{},"
                + "{\"text\":null,\"inlineData\":{\"mimeType\":\"image/png\",\"data\":\"AAAA\"}}]"));
        assertThat(chunk.parts).hasSize(4);
        assertThat(chunk.parts.get(1).signature).isEqualTo("Eo0H+/=");
        assertThat(scan(chunk("[]")).parts).isEmpty();
    }

    @Test
    void readsKeysInAnyOrderWithWhitespaceAndSkipsWhatTheParserSkips() {
        scan(" {\r\n \"responseId\" : null ,\"usageMetadata\" : { \"trafficType\" : \"ON_DEMAND\" } ,\n\"candidates\" : [ { \"index\" : 0 ,"
                + " \"safetyRatings\" : [ {\"category\":\"HARM_CATEGORY_HATE_SPEECH\",\"probability\":\"NEGLIGIBLE\"} ] ,"
                + " \"finishReason\" : null , \"content\" : { \"role\" : \"model\" , \"parts\" : [ { \"thought\" : true , \"text\" : \"t\" } ] } } ] ,"
                + " \"createTime\" : \"2026-05-04T20:01:02.264968Z\", \"x\": {\"ab\":[1,2.5e3,-0,true,false,null,{}]} }\r\n");
    }

    @Test
    void readsUsageAsTheParserDoes() {
        // every integer counts as usage, the last of a repeated count wins, strings and nested values are skipped
        GeminiChunk chunk = scan("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{\"totalTokenCount\":0,"
                + "\"cachedContentTokenCount\":123456789012345678,\"promptTokenCount\":1,\"promptTokenCount\":2,\"x\":\"1\"}}");
        assertThat(chunk.hasUsage).isTrue();
        assertThat(chunk.promptTokens).isEqualTo(2L);
        assertThat(chunk.cachedTokens).isEqualTo(123456789012345678L);
        assertThat(scan("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{\"x\":\"1\"}}").hasUsage).isFalse();
        assertThat(scan("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":null}").hasUsage).isFalse();
    }

    @Test
    void checksButDoesNotKeepTheHeadOnceTheResponseHasStarted() {
        byte[] bytes = chunk("[{\"text\":\"a\"}]").getBytes(StandardCharsets.UTF_8);
        GeminiChunk chunk = new GeminiChunk();
        assertThat(scanner.scan(bytes, 0, bytes.length, false, chunk)).isTrue();
        assertThat(chunk.modelVersion).isNull();
        assertThat(chunk.responseId).isNull();
        assertThat(chunk.parts.get(0).text).isEqualTo("a");
        byte[] bad = chunk("[{\"text\":\"a\"}]").replace("\"gemini-3-pro-preview\"", "\"a\\x\"").getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.scan(bad, 0, bad.length, false, new GeminiChunk())).isFalse();
    }

    @Test
    void readsARangeOfALargerArray() {
        byte[] json = chunk("[{\"text\":\"ranged\"}]").getBytes(StandardCharsets.UTF_8);
        byte[] array = new byte[json.length + 20];
        java.util.Arrays.fill(array, (byte) '}');
        System.arraycopy(json, 0, array, 11, json.length);
        GeminiChunk chunk = new GeminiChunk();
        assertThat(scanner.scan(array, 11, json.length, true, chunk)).isTrue();
        assertThat(chunk.parts.get(0).text).isEqualTo("ranged");
        assertThat(scanner.scan(array, 11, json.length + 1, true, new GeminiChunk())).isFalse();
    }

    @Test
    void reusedPartsStartEmpty() {
        scan(chunk("[{\"text\":\"a\",\"thought\":true,\"thoughtSignature\":\"s\"},{\"text\":\"b\"}]"));
        GeminiChunk next = scan(chunk("[{}]"));
        assertThat(next.parts).hasSize(1);
        assertThat(next.parts.get(0).text).isNull();
        assertThat(next.parts.get(0).thought).isFalse();
        assertThat(next.parts.get(0).signature).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // what the scanner does not read: calls, code execution, finish reasons, errors, blocked prompts, Interactions events
            "{\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"args\":{}}}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"executableCode\":{\"code\":\"1\"}}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"codeExecutionResult\":{\"output\":\"1\"}}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\"}]},\"finishReason\":\"STOP\"}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"error\":{\"code\":500}}",
            "{\"candidates\":[],\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}",
            "{\"index\":0,\"delta\":{\"text\":\"a\"},\"event_type\":\"step.delta\"}",
            "{\"interaction\":{\"id\":\"x\"},\"event_type\":\"interaction.created\"}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"index\":0}",
            // shapes it leaves to Jackson: no or several candidates, repeated fields that count, escaped or unexpected names
            "{}",
            "{\"usageMetadata\":{\"promptTokenCount\":1}}",
            "{\"candidates\":[]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}},{\"content\":{}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"candidates\":[]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]},\"content\":{}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}],\"parts\":[]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\",\"text\":\"b\"}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\",\"thought\":true,\"thought\":false}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"te\\u0078t\":\"a\"}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"modelVersion\":\"m\",\"modelVersion\":\"n\"}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{},\"usageMetadata\":{}}",
            // values of the wrong type, numbers that are not plain counts
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":12}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\",\"thought\":\"true\"}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\",\"thought\":{}}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\",\"thoughtSignature\":1}]}}]}",
            "{\"candidates\":[{\"content\":\"x\"}]}",
            "{\"candidates\":[{\"content\":{\"parts\":{}}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[1]}}]}",
            "{\"candidates\":{}}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"modelVersion\":1}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":[]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{\"promptTokenCount\":-1}}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{\"promptTokenCount\":1.0}}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{\"promptTokenCount\":1e3}}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{\"promptTokenCount\":01}}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{\"totalTokenCount\":1234567890123456789}}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"usageMetadata\":{\"promptT\\u006fkenCount\":1}}",
            // malformed JSON, anything after the object
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\\x\"}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\u0001\"}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"x\":[1,]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"x\":nul}",
            // Jackson rejects a lone surrogate escape in any name, skipped or not: names with escapes are its to judge
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"x\":{\"\\ud83dx\":1}}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\",\"x\":[{\"\\u0061\":1}]}]}}]}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]}{}",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]} x",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]",
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],}",
    })
    void leavesEverythingElseToJackson(String json) {
        assertThat(recognised(json)).as(json).isFalse();
    }

    @Test
    void leavesDeepNestingToJackson() {
        String deep = "[".repeat(40) + "]".repeat(40);
        assertThat(recognised("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"x\":" + deep + "}")).isFalse();
        String shallow = "[".repeat(20) + "]".repeat(20);
        assertThat(recognised("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}],\"x\":" + shallow + "}")).isTrue();
    }

    @Test
    void leavesMalformedUtf8ToJackson() {
        byte[][] malformed = {{(byte) 0xc0, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                {(byte) 0x80}, {(byte) 0xe2, (byte) 0x82}};
        for (byte[] bad : malformed) {
            for (String[] around : new String[][] {{"[{\"text\":\"a", "b\"}]"}, {"[{\"text\":\"a\",\"x\":\"", "\"}]"}}) {
                byte[] before = ("{\"candidates\":[{\"content\":{\"parts\":" + around[0]).getBytes(StandardCharsets.UTF_8);
                byte[] after = (around[1] + "}}]}").getBytes(StandardCharsets.UTF_8);
                byte[] json = new byte[before.length + bad.length + after.length];
                System.arraycopy(before, 0, json, 0, before.length);
                System.arraycopy(bad, 0, json, before.length, bad.length);
                System.arraycopy(after, 0, json, before.length + bad.length, after.length);
                assertThat(scanner.scan(json, 0, json.length, true, new GeminiChunk())).isFalse();
            }
        }
    }
}
