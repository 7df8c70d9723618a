package dev.ruminate.providers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.providers.testing.Seeds;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;

/**
 * The stream parser must read each event exactly as a blocking parser over that event alone would:
 * same tokens, same values, same byte offsets (decoders copy signed blocks out of the data by them).
 */
class StreamParserTest {

    private static final JsonFactory JSON = new JsonFactory();

    static Stream<Long> seeds() {
        return IntStream.range(0, 40).mapToObj(i -> 0x5eedL + i);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void readsEveryEventOfAStreamAsABlockingParserReadsItAlone(long seed) {
        Random random = Seeds.random(seed);
        StreamParser stream = StreamParser.create(JSON);
        for (int event = 0; event < 25; event++) {
            // events hold objects (arrays for good measure): a top-level scalar at an event's very end could
            // go on, so the stream parser calls it cut short where a blocking parser would accept it
            String container = random.nextInt(4) == 0 ? "[" + value(random, 1) + "]" : object(random, 0);
            byte[] data = (space(random) + container + space(random)).getBytes(StandardCharsets.UTF_8);
            assertThat(read(stream.feed(data))).as("event %d: %s", event, new String(data, StandardCharsets.UTF_8))
                    .isEqualTo(read(JSON.createParser(ObjectReadContext.empty(), data)));
        }
    }

    @Test
    void anEventWithSeveralObjectsYieldsThemAllThenEnds() {
        StreamParser stream = StreamParser.create(JSON);
        byte[] data = "{\"a\":1}\n{\"b\":[true]} ".getBytes(StandardCharsets.UTF_8);

        assertThat(read(stream.feed(data))).isEqualTo(read(JSON.createParser(ObjectReadContext.empty(), data)));
        assertThat(stream.feed("{}".getBytes(StandardCharsets.UTF_8)).atEventStart()).isTrue();
        assertThat(stream.nextToken()).isEqualTo(JsonToken.START_OBJECT);
        assertThat(stream.atEventStart()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":", "{\"a\":[1,", "{\"a\":\"open", "\"open", "12", "tru", "{} 4", "[1]\n{"})
    void anEventThatEndsInsideAValueIsCutShortNotContinuedByTheNext(String cut) {
        StreamParser stream = StreamParser.create(JSON);
        stream.feed(cut.getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> {
            while (stream.nextToken() != null) {
                stream.skipChildren();
            }
        }).isInstanceOf(JacksonException.class).hasMessageContaining("cut short");
    }

    @Test
    void aFactoryKnowingNamesReadsThoseAndOthersAsAPlainFactoryDoes() {
        JsonFactory knowing = StreamParser.factoryKnowing("choices", "delta", "reasoning_content", "index");
        byte[] data = "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"hm\",\"é_unlisted\":1}}]}"
                .getBytes(StandardCharsets.UTF_8);
        StreamParser stream = StreamParser.create(knowing);

        for (int event = 0; event < 3; event++) {
            assertThat(read(stream.feed(data))).isEqualTo(read(JSON.createParser(ObjectReadContext.empty(), data)));
        }
        assertThat(read(StreamParser.create(knowing).feed(data)))
                .isEqualTo(read(JSON.createParser(ObjectReadContext.empty(), data)));
    }

    @Test
    void streamsOfAFactoryKnowingNamesShareThoseNamesInsteadOfCopyingTheTable() {
        JsonFactory knowing = StreamParser.factoryKnowing("choices", "reasoning_content");
        byte[] data = "{\"choices\":1,\"reasoning_content\":2}".getBytes(StandardCharsets.UTF_8);

        List<String> first = names(StreamParser.create(knowing).feed(data));
        List<String> second = names(StreamParser.create(knowing).feed(data));

        // Open streams whose parsers each copied the table would hand out a string of their own.
        assertThat(second).hasSize(2);
        for (int i = 0; i < second.size(); i++) {
            assertThat(second.get(i)).isSameAs(first.get(i));
        }
    }

    @Test
    void nextNameDoesNotTakeTheEndOfAnEventForTheEndOfAnObject() {
        StreamParser stream = StreamParser.create(JSON);
        stream.feed("{\"a\":1,".getBytes(StandardCharsets.UTF_8));
        stream.nextToken();
        assertThat(stream.nextName()).isEqualTo("a");
        stream.nextToken();

        assertThatThrownBy(stream::nextName).isInstanceOf(JacksonException.class).hasMessageContaining("cut short");
    }

    @Test
    void anEventReadToItsEndIsNotKeptUntilTheNextOne() {
        StreamParser stream = StreamParser.create(JSON);
        byte[] event = ("{\"type\":\"response.output_item.done\",\"text\":\"" + "x".repeat(1 << 20) + "\"} ")
                .getBytes(StandardCharsets.UTF_8);
        WeakReference<byte[]> read = readAndForget(stream, event, 7);
        for (int i = 0; i < 50 && read.get() != null; i++) {
            System.gc();
        }

        // A parked stream would otherwise pin the array (a network buffer or a long line's scratch) till its next event.
        assertThat(read.get() == null).as("the event's array is collectable once read").isTrue();
        byte[] next = "{\"a\":[1]}".getBytes(StandardCharsets.UTF_8);
        assertThat(read(stream.feed(next, 0, next.length))).isEqualTo(read(JSON.createParser(ObjectReadContext.empty(), next)));
    }

    @Test
    void theEndOfAnEventIsWhereABlockingParserPutsIt() {
        StreamParser stream = StreamParser.create(JSON);
        byte[] data = "..{\"a\":\"b\"}  ".getBytes(StandardCharsets.UTF_8);
        JsonParser blocking = JSON.createParser(ObjectReadContext.empty(), data, 2, data.length - 2);
        while (blocking.nextToken() != null) {
            // to the end
        }
        stream.feed(data, 2, data.length - 2);
        while (stream.nextToken() != null) {
            // to the end, where the parser lets go of the array
        }

        assertThat(stream.currentLocation().getByteOffset()).isEqualTo(blocking.currentLocation().getByteOffset()).isEqualTo(11);
        assertThat(stream.nextToken()).isNull();
        assertThat(stream.currentLocation().getByteOffset()).isEqualTo(11);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\n  \"a\": tru\n}", "{\r\n\"a\":\r\n[1,\r\n2,,3]}", "{\"a\":1,\r\"b\" 2}", "\n\n{\"a\":\"b\"\n\"c\":1}"})
    void aMalformedEventIsPlacedWithinItselfAsABlockingParserPlacesIt(String malformed) {
        StreamParser stream = StreamParser.create(JSON);
        for (String before : new String[] {"{\n\"a\":\n1\n}\n", "\r\n{\"b\":[\r\n]}\r\n"}) {
            assertThat(read(stream.feed(before.getBytes(StandardCharsets.UTF_8)))).isNotEmpty();
        }
        byte[] data = malformed.getBytes(StandardCharsets.UTF_8);
        TokenStreamLocation alone = failureAt(JSON.createParser(ObjectReadContext.empty(), data));

        TokenStreamLocation inStream = failureAt(stream.feed(data));

        // Lines as a parser over the event alone counts them; the offset at most one byte later (the
        // non-blocking parser may report after the byte it stopped at).
        assertThat(inStream.getLineNr()).as("line").isEqualTo(alone.getLineNr());
        assertThat(inStream.getByteOffset()).as("byte offset").isBetween(alone.getByteOffset(), alone.getByteOffset() + 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\n\"a\":\n99999999999}", "{\r\n\"a\": 1,\r\n\"b\": 1e400,\n\"c\": 123456789012345678901234567890}"})
    void aNumberThatDoesNotFitIsPlacedWithinItsEvent(String event) {
        StreamParser stream = StreamParser.create(JSON);
        assertThat(read(stream.feed("{\n\"a\":\n1\n}\n\n".getBytes(StandardCharsets.UTF_8)))).isNotEmpty();
        byte[] data = event.getBytes(StandardCharsets.UTF_8);
        TokenStreamLocation alone = numberFailureAt(JSON.createParser(ObjectReadContext.empty(), data));

        TokenStreamLocation inStream = numberFailureAt(stream.feed(data));

        assertThat(inStream.getLineNr()).as("line").isEqualTo(alone.getLineNr()).isGreaterThan(1);
        assertThat(inStream.getByteOffset()).as("byte offset").isBetween(alone.getByteOffset(), alone.getByteOffset() + 1);
    }

    /** Reads every integer as an int and every other number as a long, as the decoders do, up to the failure. */
    private static TokenStreamLocation numberFailureAt(JsonParser p) {
        try {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.VALUE_NUMBER_INT) {
                    p.getIntValue();
                } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
                    p.getLongValue();
                }
            }
        } catch (JacksonException e) {
            return e.getLocation();
        }
        throw new AssertionError("no failure");
    }

    private static TokenStreamLocation failureAt(JsonParser p) {
        try {
            read(p);
        } catch (JacksonException e) {
            return e.getLocation();
        }
        throw new AssertionError("no failure");
    }

    /** Reads the event at {@code offset} of a copy to its end, and returns only a weak reference to the copy. */
    private static WeakReference<byte[]> readAndForget(StreamParser stream, byte[] event, int offset) {
        byte[] array = new byte[offset + event.length];
        System.arraycopy(event, 0, array, offset, event.length);
        assertThat(read(stream.feed(array, offset, event.length))).hasSize(6);
        return new WeakReference<>(array);
    }

    /** The property names of one event, in order. */
    private static List<String> names(JsonParser p) {
        List<String> names = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
            if (t == JsonToken.PROPERTY_NAME) {
                names.add(p.currentName());
            }
        }
        return names;
    }

    /**
     * Every token with its text and its start and end offsets (after finishing the token), but for a
     * name's end, which the blocking parser puts after the colon and nobody reads.
     */
    private static List<String> read(JsonParser p) {
        List<String> seen = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != null) {
            long start = p.currentTokenLocation().getByteOffset();
            p.finishToken();
            String text = t.isScalarValue() || t == JsonToken.PROPERTY_NAME ? p.getString() : "";
            String end = t == JsonToken.PROPERTY_NAME ? "" : "-" + p.currentLocation().getByteOffset();
            seen.add(t + " " + text + " @" + start + end);
        }
        return seen;
    }

    private static String value(Random random, int depth) {
        int kind = depth > 3 ? 2 + random.nextInt(5) : random.nextInt(7);
        return switch (kind) {
            case 0 -> object(random, depth);
            case 1 -> {
                StringBuilder a = new StringBuilder("[");
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    a.append(i > 0 ? "," : "").append(space(random)).append(value(random, depth + 1));
                }
                yield a.append(space(random)).append(']').toString();
            }
            case 2 -> string(random);
            case 3 -> Integer.toString(random.nextInt(2_000_001) - 1_000_000);
            case 4 -> Double.toString((random.nextDouble() - 0.5) * 1e6);
            case 5 -> random.nextBoolean() ? "true" : "false";
            default -> "null";
        };
    }

    private static String object(Random random, int depth) {
        StringBuilder o = new StringBuilder("{");
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            o.append(i > 0 ? "," : "").append(space(random)).append(string(random)).append(space(random))
                    .append(':').append(space(random)).append(value(random, depth + 1)).append(space(random));
        }
        return o.append('}').toString();
    }

    private static String string(Random random) {
        String[] pieces = {"a", "reasoning", " ", "\\\"", "\\n", "\\u00e9", "é", "思", "😀", "\\\\", "sig=="};
        StringBuilder s = new StringBuilder("\"");
        int n = random.nextInt(6);
        for (int i = 0; i < n; i++) {
            s.append(pieces[random.nextInt(pieces.length)]);
        }
        return s.append('"').toString();
    }

    private static String space(Random random) {
        String[] spaces = {"", "", " ", "\n", "\t ", "\r\n"};
        return spaces[random.nextInt(spaces.length)];
    }
}
