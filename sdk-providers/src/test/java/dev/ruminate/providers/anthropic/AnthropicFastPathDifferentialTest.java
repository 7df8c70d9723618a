package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.testing.JsonNoise;
import dev.ruminate.providers.testing.NoisyJsonWriter;
import dev.ruminate.providers.testing.ByteChunks;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.transport.wire.StreamFraming;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * The decoder's fast path ({@link ContentBlockDeltaScanner}) against Jackson alone, and both over
 * lent frames: the same bytes, framed the same way, must give the same events, or fail with the same
 * error, with the fast path on and off, whether each event's data own their array or are a range of
 * a reused buffer that is overwritten as soon as the decoder returns. Over every recorded Anthropic
 * stream at several cuttings (whole, single bytes, random pieces), and over generated streams whose
 * {@code content_block_delta} events vary the dominant shape every way the scanner has to notice:
 * escapes, {@code \}{@code u} escapes with valid and lone surrogates, multi-byte and malformed UTF-8,
 * unknown, reordered, duplicate and missing fields, nulls and numbers where strings belong, nested
 * values, indices Jackson reads differently, event names that disagree with the data's type,
 * whitespace and line breaks between tokens, truncated JSON and trailing garbage.
 */
@ExtendWith(NettyLeakCheck.class)
class AnthropicFastPathDifferentialTest {

    static Stream<String> recordings() {
        return AnthropicRecordings.streams().stream();
    }

    static LongStream seeds() {
        return Seeds.of(1_000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordingDecodesTheSameAtEveryCutting(String path) {
        byte[] body = Recorded.bytes(path);
        Random random = Seeds.random(path.hashCode());
        List<Function<byte[], Flux<ByteBuf>>> cuttings = List.of(
                ByteChunks::whole,
                b -> ByteChunks.random(b, new Random(1), 1),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 7),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 1460));
        for (Function<byte[], Flux<ByteBuf>> cutting : cuttings) {
            Outcome reference = assertSame(body, cutting, path);
            assertThat(reference.error()).as(path).isNull();
        }
    }

    /** The recordings must exercise the fast path, or the comparison above proves nothing. */
    @Test
    void theRecordingsReachTheFastPath() {
        ContentBlockDeltaScanner scanner = new ContentBlockDeltaScanner();
        int deltas = 0;
        int recognised = 0;
        for (String path : AnthropicRecordings.streams()) {
            for (SseEvent event : Recorded.sse(path)) {
                if (event.type().equals("content_block_delta")) {
                    deltas++;
                    byte[] data = event.data();
                    if (scanner.scan(data, 0, data.length)) {
                        recognised++;
                    }
                }
            }
        }
        // every recorded delta is text, thinking, a signature or tool input, but for citations
        assertThat(recognised).isGreaterThan(200).isGreaterThan(deltas * 9 / 10);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void generatedStreamsDecodeTheSame(long seed) {
        Random random = Seeds.random(seed);
        boolean malformed = random.nextInt(3) == 0;
        StreamWriter writer = new StreamWriter(random, malformed);
        byte[] body = writer.stream();
        int piece = 1 + random.nextInt(64);
        long cuts = random.nextLong();
        Outcome reference = assertSame(body, b -> ByteChunks.random(b, new Random(cuts), piece), "seed " + seed);
        if (!malformed && writer.stopped) {
            // a whole stream without malformed events must decode, or the generator mostly tests error paths
            assertThat(reference.error()).as("seed " + seed).isNull();
        }
    }

    /**
     * Most of the events the generator writes must reach the fast path, or the streams test only
     * Jackson against itself; and enough must vary the shape, or they test only the easy case.
     */
    @Test
    void generatedEventsMostlyReachTheFastPath() {
        ContentBlockDeltaScanner scanner = new ContentBlockDeltaScanner();
        int events = 0;
        int deltas = 0;
        int recognised = 0;
        for (long seed : Seeds.of(300).toArray()) {
            Random random = Seeds.random(seed);
            boolean malformed = random.nextInt(3) == 0;
            byte[] body = new StreamWriter(random, malformed).stream();
            List<SseEvent> frames = StreamFraming.SSE.decode(ByteChunks.whole(body), WireLimits.DEFAULT)
                    .collectList().block(Duration.ofSeconds(30));
            for (SseEvent event : Objects.requireNonNull(frames)) {
                events++;
                byte[] data = event.data();
                if (event.type().equals("content_block_delta")) {
                    deltas++;
                    if (scanner.scan(data, 0, data.length)) {
                        recognised++;
                    }
                }
            }
        }
        assertThat(recognised).as("of %d events", events).isGreaterThan(events * 6 / 10);
        assertThat(recognised).as("of %d deltas", deltas).isBetween(deltas * 70 / 100, deltas * 95 / 100);
    }

    /**
     * Decodes with Jackson alone over owned events (the reference), then with the fast path and
     * without it over lent ones, and holds all three equal.
     */
    private static Outcome assertSame(byte[] body, Function<byte[], Flux<ByteBuf>> cutting, String what) {
        Outcome reference = decode(cutting.apply(body), () -> new AnthropicStreamDecoder("anthropic", false));
        Outcome fastLent = decode(cutting.apply(body), () -> new Lending(new AnthropicStreamDecoder("anthropic", true)));
        Outcome jacksonLent = decode(cutting.apply(body), () -> new Lending(new AnthropicStreamDecoder("anthropic", false)));
        for (Outcome other : List.of(fastLent, jacksonLent)) {
            assertThat(other.events()).as(what).isEqualTo(reference.events());
            assertThat(describe(other.error())).as(what).isEqualTo(describe(reference.error()));
        }
        return reference;
    }

    private static Outcome decode(Flux<ByteBuf> body, Supplier<StreamDecoder<SseEvent>> decoders) {
        return Recorded.run(StreamFraming.SSE.decode(body, WireLimits.DEFAULT)
                .transform(StreamDecoding.operator(StreamFraming.SSE, decoders)));
    }

    private static @Nullable String describe(@Nullable Throwable error) {
        return error == null ? null : error.getClass().getName() + ": " + error.getMessage();
    }

    /**
     * Hands a decoder each event as the lent path will: the data as a range, at an offset, of one
     * buffer reused for every event, with other bytes around it, and overwritten as soon as the
     * decoder returns. A decoder that reads outside the range, ignores the offset or keeps the array
     * past the call decodes differently.
     */
    private static final class Lending implements StreamDecoder<SseEvent> {

        private final StreamDecoder<SseEvent> decoder;
        private byte[] buffer = new byte[64];

        Lending(StreamDecoder<SseEvent> decoder) {
            this.decoder = decoder;
        }

        @Override
        public void decode(SseEvent event, List<ChatEvent> out) {
            byte[] data = event.data();
            int offset = 1 + data.length % 13;
            if (buffer.length < offset + data.length + 8) {
                buffer = new byte[(offset + data.length + 8) * 2];
            }
            Arrays.fill(buffer, (byte) '#');
            System.arraycopy(data, 0, buffer, offset, data.length);
            try {
                decoder.decode(new SseEvent(event.type(), buffer, offset, data.length, event.id(), event.line(),
                        event.byteOffset()), out);
            } finally {
                Arrays.fill(buffer, (byte) '}');
            }
        }

        @Override
        public void end(List<ChatEvent> out) {
            decoder.end(out);
        }
    }

    /** Writes one whole stream: a message of one to four blocks, each with its deltas, mostly well formed. */
    private static final class StreamWriter {

        private final Random random;
        private final boolean malformed;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        /** Whether the stream ends with message_stop (else it fails as cut short). */
        boolean stopped;

        StreamWriter(Random random, boolean malformed) {
            this.random = random;
            this.malformed = malformed;
        }

        byte[] stream() {
            event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                    + "\"role\":\"assistant\",\"model\":\"claude-x\",\"content\":[],\"stop_reason\":null,"
                    + "\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}");
            int blocks = 1 + random.nextInt(4);
            for (int index = 0; index < blocks; index++) {
                block(index);
                if (random.nextInt(5) == 0) {
                    event("ping", "{\"type\": \"ping\"}");
                }
            }
            event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                    + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":40}}");
            stopped = random.nextInt(4) > 0;
            if (stopped) {
                event("message_stop", "{\"type\":\"message_stop\"}");
            }
            return body.toByteArray();
        }

        private void block(int index) {
            int kind = random.nextInt(4);
            String start = switch (kind) {
                case 0 -> "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}";
                case 1 -> "{\"type\":\"text\",\"text\":\"\"}";
                case 2 -> "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}";
                default -> "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}";
            };
            event("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index + ",\"content_block\":"
                    + start + "}");
            int deltas = 1 + random.nextInt(20);
            for (int i = 0; i < deltas; i++) {
                String type = switch (kind) {
                    case 0 -> i == deltas - 1 && random.nextBoolean() ? "signature_delta" : "thinking_delta";
                    case 1 -> "text_delta";
                    default -> "input_json_delta";
                };
                // an event name that disagrees with the data's type: the data's type decides; where the
                // data have none, a content_block_stop name closes the block early (only where streams may fail)
                String name = random.nextInt(40) > 0 ? "content_block_delta" : malformed
                        ? NoisyJsonWriter.pick(random, "ping", "message", "content_block_stop") : NoisyJsonWriter.pick(random, "ping", "message");
                event(name, new DeltaWriter(random, malformed).delta(index, type));
            }
            event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
        }

        private void event(String name, String data) {
            StringBuilder sse = new StringBuilder();
            if (!name.equals("message")) {
                sse.append("event: ").append(name).append('\n');
            }
            // a line break in the data splits it into data lines, joined again by the framing
            sse.append("data: ").append(data.replace("\n", "\ndata: ")).append("\n\n");
            body.writeBytes(JsonNoise.utf8(sse.toString()));
        }
    }

    /**
     * Writes the data of one {@code content_block_delta}: mostly the dominant shape, with now and then
     * one or more of the variations the scanner must notice. Variations that fail the stream only
     * when {@code malformed}, so that other streams run to their end.
     */
    private static final class DeltaWriter extends NoisyJsonWriter {

        static final String[] TYPES = {"text_delta", "thinking_delta", "input_json_delta", "signature_delta"};
        private static final String[] TEXT_NAMES = {"text", "thinking", "partial_json", "signature"};

        DeltaWriter(Random random, boolean malformed) {
            super(random, malformed, 8, " ", "\t", "\n", "  ", " \t ");
        }

        String delta(int index, String type) {
            out.append('{');
            List<String> fields = new ArrayList<>(List.of("type", "index", "delta"));
            if (random.nextInt(20) == 0) {
                fields.add(pick("x_extra", "id", "model", "stop_reason"));
            }
            if (random.nextInt(80) == 0) {
                fields.add(pick("usage", "message", "content_block"));
            }
            if (random.nextInt(4) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(80) == 0) {
                fields.add(fields.get(random.nextInt(fields.size()))); // a duplicate
            }
            if (malformed && random.nextInt(60) == 0 || random.nextInt(100) == 0) {
                // without its type the event's name decides; without its index or delta it fails
                fields.remove(malformed ? random.nextInt(fields.size()) : fields.indexOf("type"));
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                switch (name) {
                    case "type" -> out.append(random.nextInt(60) > 0 ? "\"content_block_delta\""
                            : pick("\"content_block\\u005fdelta\"", "\"ping\"", "null", "\"content_block_delta \""));
                    case "index" -> index(index);
                    case "delta" -> deltaObject(type);
                    case "usage" -> out.append(pick("null", "{\"output_tokens\":3}", "{}"));
                    case "message" -> out.append(malformed ? pick("{}", "null", "1") : "{}");
                    case "content_block" -> out.append(malformed ? pick("{}", "{\"type\":\"text\"}", "[]")
                            : "{\"type\":\"text\",\"text\":\"\"}");
                    default -> scalarOrNested();
                }
            }
            ws();
            out.append('}');
            ws();
            String json = out.toString();
            if (!malformed) {
                return json;
            }
            int roll = random.nextInt(80);
            if (roll == 0) {
                return json.substring(0, random.nextInt(json.length())); // truncated
            }
            if (roll == 1) {
                // a byte flipped to a structural or quoting character
                int at = random.nextInt(json.length());
                char c = "\"{}[],:\\0an ".charAt(random.nextInt(12));
                return json.substring(0, at) + c + json.substring(at + 1);
            }
            if (roll == 2) {
                return json + pick("{}", " x", "]", "null");
            }
            return json;
        }

        private void index(int index) {
            if (random.nextInt(50) > 0) {
                out.append(index);
                return;
            }
            if (index == 0 && random.nextBoolean()) {
                out.append("-0"); // read as 0 by Jackson
                return;
            }
            out.append(malformed ? pick("1.0", "\"1\"", "01", "null", "99999999999", "-1", "1e0", "{}")
                    : String.valueOf(index));
        }

        private void deltaObject(String type) {
            ws();
            out.append('{');
            int typeAt = Arrays.asList(TYPES).indexOf(type);
            String textName = TEXT_NAMES[typeAt];
            if (random.nextInt(60) == 0) {
                // another text field: Jackson reads whichever the delta has
                textName = TEXT_NAMES[random.nextInt(TEXT_NAMES.length)];
            }
            List<String> fields = new ArrayList<>(List.of("type", textName));
            if (random.nextInt(12) == 0) {
                fields.add(pick("x_other", "index", "cache", "citation"));
            }
            if (random.nextInt(80) == 0) {
                fields.add(pick("content", "stop_reason"));
            }
            if (random.nextInt(4) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(80) == 0) {
                fields.add(fields.get(random.nextInt(fields.size()))); // a duplicate
            }
            if (random.nextInt(60) == 0) {
                fields.remove(malformed ? random.nextInt(fields.size()) : fields.indexOf(textName));
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name, 120);
                if (name.equals("type")) {
                    deltaType(type);
                } else if (Arrays.asList(TEXT_NAMES).contains(name) || name.equals("content")) {
                    text();
                } else if (name.equals("stop_reason")) {
                    out.append(malformed ? pick("null", "\"end_turn\"", "1") : pick("null", "\"end_turn\""));
                } else {
                    scalarOrNested();
                }
            }
            ws();
            out.append('}');
        }

        private void deltaType(String type) {
            if (random.nextInt(60) > 0) {
                out.append('"').append(type).append('"');
                return;
            }
            int kind = random.nextInt(3);
            if (kind == 0) {
                out.append('"').append(type, 0, type.length() - 1).append("\\u0061\"".replace("0061",
                        String.format("%04x", (int) type.charAt(type.length() - 1))));
            } else if (kind == 1) {
                // ignored; compaction_delta fails for blocks other than server tools
                out.append(malformed ? pick("\"citations_delta\"", "\"compaction_delta\"") : "\"citations_delta\"");
            } else {
                // a type for another kind of block, a non-string: the stream fails
                out.append(malformed ? pick("\"text_delta\"", "\"thinking_delta\"", "null", "7", "{}")
                        : '"' + type + '"');
            }
        }

        private void text() {
            int kind = random.nextInt(40);
            if (kind == 0) {
                out.append("null");
            } else if (kind == 1) {
                out.append(malformed ? pick("12", "true", "{}", "[\"a\"]", "-1.5e3") : "null");
            } else {
                string();
            }
        }

        private void scalarOrNested() {
            int kind = random.nextInt(12);
            switch (kind) {
                case 0 -> out.append(pick("null", "true", "false"));
                case 1 -> out.append(pick("0", "-7", "1.25", "3e9", "1E-2", "-0.0e+00", "9".repeat(120)));
                case 2 -> out.append(malformed ? pick("nul", "truex", "01", "1.", "+1", "--1", "{}", "[1,{\"b\":null}]")
                        : pick("{}", "[1,{\"b\":null}]", "{\"a\":[]}"));
                default -> string();
            }
        }

        /** A JSON string of 0 to 8 pieces: ASCII, escapes, unicode escapes, raw multi-byte text, and now and then a malformed piece. */
        private void string() {
            string(60, roll -> {
                int kind = roll < 5 ? 0 : roll < 7 ? 1 : roll == 7 ? 2 : roll == 8 ? 3 : roll < 12 ? 4 : roll == 12 ? 5
                        : roll == 13 ? 6 : roll == 14 ? 7 : 8;
                return (kind == 5 || kind == 7) && (!malformed || random.nextInt(3) > 0) ? 8 : kind;
            });
        }
    }
}
