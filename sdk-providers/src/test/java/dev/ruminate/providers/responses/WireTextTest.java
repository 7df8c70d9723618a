package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.testing.JsonNoise;
import dev.ruminate.providers.testing.Seeds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

/**
 * The texts that Responses events repeat are kept as their place in the bytes and decoded only when
 * the assembler asks: read so, each is the string Jackson returns for it, wherever the event lies in
 * its array, and a string not asked for is never made.
 */
class WireTextTest {

    static LongStream seeds() {
        return Seeds.of(300);
    }

    /**
     * A {@code ….done} event, a part's {@code .done} and an item's {@code .done}, each holding the same
     * noisy string, lying at a random offset of a larger array: every text decodes to what Jackson
     * reads for that string on its own.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aTextReadLaterIsWhatJacksonReads(long seed) {
        Random random = Seeds.random(seed);
        StringBuilder content = new StringBuilder();
        int pieces = random.nextInt(40);
        for (int i = 0; i < pieces; i++) {
            // no malformed pieces: a text exists only once Jackson has read its string
            int kind = random.nextInt(12);
            JsonNoise.stringPiece(random, content, kind == 5 || kind == 7 ? 8 : kind);
        }
        String string = "\"" + content + "\"";
        @Nullable String expected = jacksonString(string);
        if (expected == null) {
            return;
        }
        String[] events = {
            "{\"type\":\"response.output_text.done\",\"output_index\":0,\"text\":" + string + ",\"sequence_number\":7}",
            "{\"type\":\"response.content_part.done\",\"part\":{\"type\":\"output_text\",\"text\":" + string + "}}",
            "{\"type\":\"response.output_item.done\",\"item\":{\"type\":\"message\",\"content\":[{\"type\":\"output_text\","
                    + "\"text\":" + string + "}],\"summary\":[{\"text\":" + string + "}],\"arguments\":" + string + "}}",
        };
        StreamParser parser = StreamParser.create(ResponsesEventParser.JSON);
        for (String event : events) {
            byte[] json = event.getBytes(StandardCharsets.UTF_8);
            int offset = random.nextInt(50);
            byte[] array = new byte[offset + json.length + random.nextInt(50)];
            Arrays.fill(array, (byte) '"');
            System.arraycopy(json, 0, array, offset, json.length);

            WireEvent e = ResponsesEventParser.event(parser.feed(array, offset, json.length), array, offset, json.length);

            for (WireText text : texts(e)) {
                assertThat(text.isDecoded()).as("not decoded before it is asked for").isFalse();
                assertThat(text.value()).as(event).isEqualTo(expected);
            }
        }
    }

    @Test
    void aStringPastTheCursorsLimitIsReadByJackson() {
        String longText = "x\\n\\u00e9😀".repeat(200_000);
        byte[] json = ("{\"type\":\"response.output_text.done\",\"text\":\"" + longText + "\"}").getBytes(StandardCharsets.UTF_8);

        WireEvent e = ResponsesEventParser.event(StreamParser.create(ResponsesEventParser.JSON).feed(json), json, 0,
                json.length);

        assertThat(json.length).isGreaterThan(1 << 20);
        assertThat(Objects.requireNonNull(e.text).value()).isEqualTo("x\né😀".repeat(200_000));
    }

    @Test
    void otherScalarsAreReadAsTextsAtOnceAndNullIsNone() {
        byte[] json = "{\"type\":\"response.output_text.done\",\"text\":42,\"refusal\":null,\"arguments\":true,\"input\":{\"a\":1}}"
                .getBytes(StandardCharsets.UTF_8);

        WireEvent e = ResponsesEventParser.event(StreamParser.create(ResponsesEventParser.JSON).feed(json), json, 0,
                json.length);

        assertThat(Objects.requireNonNull(e.text).isDecoded()).isTrue();
        assertThat(e.text.value()).isEqualTo("42");
        assertThat(e.refusal).isNull();
        assertThat(WireText.value(e.arguments)).isEqualTo("true");
        assertThat(e.input).isNull();
    }

    @Test
    void aWholeResponseBodyKeepsItsTextsInTheBody() {
        byte[] body = ("{\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[{\"type\":\"reasoning\",\"id\":\"rs_1\","
                + "\"summary\":[{\"type\":\"summary_text\",\"text\":\"Thinking \\\"hard\\\"\"}]},{\"type\":\"message\","
                + "\"content\":[{\"type\":\"output_text\",\"text\":\"Answer: 中文\"}]}]}").getBytes(StandardCharsets.UTF_8);

        WireResponse r = ResponsesEventParser.body(body);

        WireText summary = r.output.get(0).summary.get(0);
        WireText answer = Objects.requireNonNull(r.output.get(1).content.get(0).text());
        assertThat(summary.isDecoded()).isFalse();
        assertThat(summary.value()).isEqualTo("Thinking \"hard\"");
        assertThat(answer.value()).isEqualTo("Answer: 中文");
    }

    private static List<WireText> texts(WireEvent e) {
        List<WireText> all = new ArrayList<>();
        add(all, e.text);
        add(all, e.partText);
        WireItem item = e.item;
        if (item != null) {
            item.content.forEach(c -> add(all, c.text()));
            all.addAll(item.summary);
            add(all, item.arguments);
        }
        assertThat(all).as("the event's texts").isNotEmpty();
        return all;
    }

    private static void add(List<WireText> all, @Nullable WireText text) {
        if (text != null) {
            all.add(text);
        }
    }

    /** What Jackson reads for a JSON string on its own, or null when it is not a string Jackson reads. */
    private static @Nullable String jacksonString(String json) {
        try (JsonParser p = ResponsesEventParser.JSON.createParser(ObjectReadContext.empty(),
                json.getBytes(StandardCharsets.UTF_8))) {
            return p.nextToken() == JsonToken.VALUE_STRING ? p.getString() : null;
        } catch (JacksonException e) {
            return null;
        }
    }
}
