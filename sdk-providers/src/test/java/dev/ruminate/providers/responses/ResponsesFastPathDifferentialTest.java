package dev.ruminate.providers.responses;

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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * The Responses decoder's fast path ({@link DeltaEventScanner}) against Jackson alone: the same
 * bytes, framed the same way, must give the same events, or fail with the same error, with the fast
 * path on and off, and with each frame lent as a range of a scratch array that is overwritten as
 * soon as the decode call returns (so a decoder that kept anything of a frame would differ). Over
 * every recorded Responses stream at several cuttings (whole, single bytes, random pieces), and over
 * generated streams whose delta events vary the dominant shape every way the scanner has to notice:
 * escapes, {@code \}{@code u} escapes with valid and lone surrogates, multi-byte and malformed UTF-8,
 * unknown, reordered and duplicate fields, the JSON's type against the SSE name, nulls and numbers
 * where strings belong, indices of every form, nested values, whitespace between tokens, truncated
 * JSON and trailing garbage.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesFastPathDifferentialTest {

    static Stream<String> recordings() {
        return allRecordings().stream();
    }

    /** The Responses streams of {@link Responses#STREAMS}, and Bedrock Mantle's (Responses without {@code event:} lines). */
    private static List<String> allRecordings() {
        List<String> all = new ArrayList<>(Responses.STREAMS);
        all.addAll(Recorded.under("bedrock", ".sse").stream().filter(p -> p.contains("-mantle-")).toList());
        return all;
    }

    private static ResponsesProfile profileOf(String path) {
        return path.startsWith("bedrock/") ? ResponsesProfiles.BEDROCK : Responses.profileOf(path);
    }

    static LongStream seeds() {
        return Seeds.of(1_000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordingDecodesTheSameAtEveryCutting(String path) {
        byte[] body = Recorded.bytes(path);
        ResponsesProfile profile = profileOf(path);
        Random random = Seeds.random(path.hashCode());
        List<Function<byte[], Flux<ByteBuf>>> cuttings = List.of(
                ByteChunks::whole,
                b -> ByteChunks.random(b, new Random(1), 1),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 7),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 1460));
        for (Function<byte[], Flux<ByteBuf>> cutting : cuttings) {
            Outcome jackson = assertSame(profile, body, cutting, path);
            assertThat(jackson.error()).as(path).isNull();
        }
    }

    /** The recordings must exercise the fast path, or the comparison above proves nothing. */
    @Test
    void theRecordingsReachTheFastPath() {
        int recognised = 0;
        int deltas = 0;
        for (String path : allRecordings()) {
            DeltaEventScanner scanner = new DeltaEventScanner();
            for (SseEvent event : Recorded.sse(path)) {
                byte[] data = event.data();
                if (isFastPathDelta(data)) {
                    deltas++;
                    if (scanner.scan(event.type(), data, 0, data.length, new WireEvent())) {
                        recognised++;
                    }
                }
            }
        }
        // every recorded delta of the four types is of the recognised shape
        assertThat(deltas).isGreaterThan(2_500);
        assertThat(recognised).isEqualTo(deltas);
    }

    private static boolean isFastPathDelta(byte[] data) {
        String json = new String(data, StandardCharsets.UTF_8);
        return json.contains("\"type\":\"response.output_text.delta\"")
                || json.contains("\"type\":\"response.reasoning_summary_text.delta\"")
                || json.contains("\"type\":\"response.reasoning_text.delta\"")
                || json.contains("\"type\":\"response.function_call_arguments.delta\"");
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void generatedStreamsDecodeTheSame(long seed) {
        Random random = Seeds.random(seed);
        byte[] body = new StreamWriter(random, random.nextInt(3) == 0).stream();
        ResponsesProfile profile = random.nextBoolean() ? ResponsesProfiles.OPENAI : ResponsesProfiles.LMSTUDIO;
        int piece = 1 + random.nextInt(64);
        long cuts = random.nextLong();
        assertSame(profile, body, b -> ByteChunks.random(b, new Random(cuts), piece), "seed " + seed);
    }

    /**
     * Most generated delta events must reach the fast path, or the generated streams test Jackson
     * against itself; some must not, or the scanner's refusals go untested.
     */
    @Test
    void mostGeneratedDeltasReachTheFastPath() {
        DeltaEventScanner scanner = new DeltaEventScanner();
        Random random = new Random(7);
        int recognised = 0;
        int total = 2_000;
        for (int i = 0; i < total; i++) {
            StreamWriter writer = new StreamWriter(random, false);
            String json = writer.delta(DeltaEventScanner.OUTPUT_TEXT, "msg_1", "content_index");
            byte[] data = JsonNoise.utf8(json);
            if (scanner.scan(writer.sseName(DeltaEventScanner.OUTPUT_TEXT), data, 0, data.length, new WireEvent())) {
                recognised++;
            }
        }
        assertThat(recognised).isBetween(total * 6 / 10, total * 95 / 100);
    }

    /** Decodes with the fast path on and off, owned and lent; all must agree. Returns the Jackson outcome. */
    private static Outcome assertSame(ResponsesProfile profile, byte[] body, Function<byte[], Flux<ByteBuf>> cutting,
                                      String what) {
        Outcome jackson = decode(profile, cutting.apply(body), false, null);
        Outcome fast = decode(profile, cutting.apply(body), true, null);
        Outcome fastLent = decode(profile, cutting.apply(body), true, new Random(what.hashCode()));
        Outcome jacksonLent = decode(profile, cutting.apply(body), false, new Random(what.hashCode() + 1));
        for (Outcome other : List.of(fast, fastLent, jacksonLent)) {
            assertThat(other.events()).as(what).isEqualTo(jackson.events());
            assertThat(describe(other.error())).as(what).isEqualTo(describe(jackson.error()));
        }
        return jackson;
    }

    private static Outcome decode(ResponsesProfile profile, Flux<ByteBuf> body, boolean fastPath, @Nullable Random lend) {
        return Recorded.run(StreamFraming.SSE.decode(body, WireLimits.DEFAULT)
                .transform(StreamDecoding.operator(StreamFraming.SSE, () -> {
                    ResponsesStreamDecoder decoder = new ResponsesStreamDecoder(profile, fastPath);
                    return lend == null ? decoder : new Lending(decoder, lend);
                })));
    }

    private static @Nullable String describe(@Nullable Throwable error) {
        return error == null ? null : error.getClass().getName() + ": " + error.getMessage();
    }

    /**
     * Hands the decoder each frame as a range of a scratch array, at a random offset between
     * garbage, and overwrites the whole array when the call returns, as a network buffer is reused.
     */
    private static final class Lending implements StreamDecoder<SseEvent> {
        private static final byte[] GARBAGE = "\"}]{,:\\x".getBytes(StandardCharsets.US_ASCII);
        private final StreamDecoder<SseEvent> decoder;
        private final Random random;
        private byte[] scratch = new byte[64];

        Lending(StreamDecoder<SseEvent> decoder, Random random) {
            this.decoder = decoder;
            this.random = random;
        }

        @Override
        public void decode(SseEvent frame, List<ChatEvent> out) {
            int offset = random.nextInt(32);
            int length = frame.dataLength();
            if (scratch.length < offset + length + 32) {
                scratch = new byte[(offset + length + 32) * 2];
            }
            scribble();
            System.arraycopy(frame.dataArray(), frame.dataOffset(), scratch, offset, length);
            SseEvent lent = new SseEvent(frame.type(), scratch, offset, length, frame.id(), frame.line(), frame.byteOffset());
            try {
                decoder.decode(lent, out);
            } finally {
                scribble();
            }
        }

        @Override
        public void end(List<ChatEvent> out) {
            decoder.end(out);
        }

        private void scribble() {
            for (int i = 0; i < scratch.length; i++) {
                scratch[i] = GARBAGE[(i + random.nextInt(GARBAGE.length)) % GARBAGE.length];
            }
        }
    }

    /**
     * Writes one response as SSE: created, items added, many delta events (mostly of the dominant
     * shape, each with one or more variations the scanner must notice), items done, completed.
     */
    private static final class StreamWriter extends NoisyJsonWriter {

        private static final String[] DELTA_TYPES = {DeltaEventScanner.OUTPUT_TEXT, DeltaEventScanner.SUMMARY_TEXT,
                DeltaEventScanner.REASONING_TEXT, DeltaEventScanner.ARGUMENTS};
        /** Other names, some of which the full parser reads for other events. */
        private static final String[] OTHER = {"obfuscation", "sequence_number", "logprobs", "x_unknown", "annotations",
                "text", "part", "item", "response", "refusal", "arguments", "input", "summary_index", "content_index",
                "output_index"};

        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private int sequence;

        /** {@code malformed} false: well-formed JSON only, so that a malformed event does not end the stream early. */
        StreamWriter(Random random, boolean malformed) {
            super(random, malformed, 6, " ", "\t", "  ", " \t ", "\n");
        }

        byte[] stream() {
            event("response.created", "{\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\","
                    + "\"object\":\"response\",\"status\":\"in_progress\",\"model\":\"m\",\"output\":[]}}");
            String[] items = {"rs_1", "msg_1", "fc_1"};
            String[] itemTypes = {"reasoning", "message", "function_call"};
            for (int i = 0; i < items.length; i++) {
                event("response.output_item.added", "{\"type\":\"response.output_item.added\",\"sequence_number\":" + (++sequence)
                        + ",\"output_index\":" + i + ",\"item\":{\"id\":\"" + items[i] + "\",\"type\":\"" + itemTypes[i] + "\""
                        + (i == 2 ? ",\"call_id\":\"call_1\",\"name\":\"f\",\"arguments\":\"\"" : "") + "}}");
            }
            int deltas = 1 + random.nextInt(40);
            for (int i = 0; i < deltas; i++) {
                int which = random.nextInt(DELTA_TYPES.length);
                String type = DELTA_TYPES[which];
                String item = which == 3 ? "fc_1" : which == 0 ? "msg_1" : "rs_1";
                if (random.nextInt(20) == 0) {
                    item = pick("rs_1", "msg_1", "fc_1", "other_1");
                }
                String index = which == 1 ? "summary_index" : which == 3 ? null : "content_index";
                String json = delta(type, item, index);
                if (malformed) {
                    json = damaged(json);
                }
                event(sseName(type), json);
            }
            if (random.nextInt(4) > 0) {
                event("response.completed", "{\"type\":\"response.completed\",\"sequence_number\":" + (++sequence)
                        + ",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"model\":\"m\",\"output\":[],"
                        + "\"usage\":{\"input_tokens\":1,\"output_tokens\":2,\"total_tokens\":3}}}");
            }
            return body.toByteArray();
        }

        /** The SSE name of a delta: mostly its type, sometimes none, another, or the JSON's type left out. */
        String sseName(String type) {
            int roll = random.nextInt(20);
            return roll < 14 ? type : roll < 17 ? "message" : roll == 17 ? "response.completed" : pick(DELTA_TYPES);
        }

        /** Writes one delta event: mostly the dominant shape, with one or more of the variations the scanner must notice. */
        String delta(String type, String item, @Nullable String indexName) {
            out = new StringBuilder();
            List<String> fields = new ArrayList<>(List.of("type", "sequence_number", "item_id", "output_index"));
            if (indexName != null) {
                fields.add(indexName);
            }
            fields.add("delta");
            if (type.equals(DeltaEventScanner.OUTPUT_TEXT)) {
                fields.add("logprobs");
            }
            if (random.nextInt(3) > 0) {
                fields.add("obfuscation");
            }
            if (random.nextInt(4) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(15) == 0) {
                fields.remove(random.nextInt(fields.size()));
            }
            if (random.nextInt(15) == 0) {
                fields.add(random.nextInt(fields.size() + 1), OTHER[random.nextInt(OTHER.length)]);
            }
            if (random.nextInt(20) == 0) {
                fields.add(fields.get(random.nextInt(fields.size()))); // a duplicate
            }
            out.append(spaces()).append('{');
            boolean first = true;
            for (String name : fields) {
                if (!first) {
                    out.append(spaces()).append(',');
                }
                first = false;
                key(name);
                value(name, type, item);
            }
            out.append(spaces()).append('}').append(spaces());
            return out.toString();
        }

        private void value(String name, String type, String item) {
            switch (name) {
                case "type" -> out.append(random.nextInt(25) > 0 ? "\"" + type + "\"" : pick("null", "\"response.refusal.delta\"",
                        "\"" + type.replace(".delta", "\\u002edelta") + "\"", "\"" + pick(DELTA_TYPES) + "\"", "12"));
                case "sequence_number" -> out.append(random.nextInt(10) > 0 ? String.valueOf(++sequence)
                        : pick("null", "-1", "1.5e3", "\"7\"", "99999999999999999999"));
                case "item_id" -> out.append(random.nextInt(12) > 0 ? "\"" + item + "\"" : pick("null", "\"\"",
                        "\"" + item.replace("_", "\\u005f") + "\"", "\"other\"", "7", "\"" + item + "\\n\""));
                case "output_index", "content_index", "summary_index" -> out.append(index(name, item));
                case "delta" -> {
                    int kind = random.nextInt(30);
                    if (kind == 0) {
                        out.append("null");
                    } else if (kind == 1) {
                        out.append(pick("12", "true", "-1.5", "[]", "{}", "[\"a\"]", "{\"text\":\"x\"}"));
                    } else {
                        string();
                    }
                }
                case "logprobs" -> {
                    int kind = random.nextInt(12);
                    if (kind > 2) {
                        out.append(random.nextInt(3) > 0 ? "[]" : "[{\"token\":\"a\",\"logprob\":-0.1,\"bytes\":[97],"
                                + "\"top_logprobs\":[" + spaces() + "]}" + spaces() + "]");
                    } else if (kind > 0 || !malformed) {
                        out.append(pick("null", "[ ]", "{}", "[[[[[[[[[0]]]]]]]]]", "[{\"to\\u006ben\":\"a\"}]", "[{},[],{\"a\":[1,{}]}]"));
                    } else {
                        out.append(pick("[1,]", "[{\"a\":1,}]", "[{\"a\"}]", "[[1]", "{\"a\":nul}", "[1 2]"));
                    }
                }
                case "obfuscation" -> out.append(random.nextInt(10) > 0 ? "\"" + pick("aunfrTMKPSG6", "x", "") + "\"" : pick("null", "1", "true"));
                case "x_unknown", "annotations" -> out.append(pick("null", "1", "\"s\"", "[]", "{}", "[1,2]", "{\"a\":{\"b\":[null]}}", "false"));
                case "text", "refusal", "arguments", "input" -> out.append(pick("\"t\"", "null", "1"));
                case "part", "item", "response" -> out.append(malformed ? pick("null", "{}", "1", "{\"type\":\"x\"}") : pick("null", "{}"));
                default -> throw new IllegalStateException(name);
            }
        }

        private String index(String name, String item) {
            if (random.nextInt(8) > 0) {
                // the item's output index, or the part index
                return name.equals("output_index") ? String.valueOf(item.equals("rs_1") ? 0 : item.equals("msg_1") ? 1 : 2)
                        : String.valueOf(random.nextInt(4) > 0 ? 0 : random.nextInt(3));
            }
            // a negative index, a fraction or a string fails the stream: only in streams that may fail
            return malformed ? pick("null", "-1", "-0", "01", "1.0", "1e1", "\"0\"", "2147483648", "1234567890", "123456789", "{}")
                    : pick("null", "-0", "1234567890", "123456789", "7");
        }

        /** A JSON string of 0 to 8 pieces: ASCII, escapes, unicode escapes, raw multi-byte text, and now and then a malformed piece. */
        private void string() {
            string(40, roll -> {
                int kind = roll < 5 ? 0 : roll < 7 ? 1 : roll == 7 ? 2 : roll == 8 ? 3 : roll < 12 ? 4 : roll == 12 ? 5
                        : roll == 13 ? 6 : roll == 14 ? 7 : 8;
                return !malformed && (kind == 5 || kind == 7) ? 8 : kind;
            });
        }

        /** Now and then cuts an event short, flips a byte or adds something after it. */
        private String damaged(String json) {
            int roll = random.nextInt(40);
            if (roll == 0) {
                return json.substring(0, random.nextInt(json.length())); // truncated
            }
            if (roll == 1) {
                int at = random.nextInt(json.length());
                char c = "\"{}[],:\\0an ".charAt(random.nextInt(12));
                return json.substring(0, at) + c + json.substring(at + 1);
            }
            if (roll == 2) {
                return json + pick("{}", " x", "1", "[DONE]");
            }
            return json;
        }

        private void event(String name, String json) {
            // data lines as a server writes them; a raw line feed in the data splits it into two data lines
            String header = name.equals("message") ? "" : "event: " + name + "\n";
            body.writeBytes(JsonNoise.utf8(header + "data: " + json.replace("\n", "\ndata: ") + "\n\n"));
        }

        /** A name as {@link NoisyJsonWriter#key} writes it, now and then with an escape in it. */
        @Override
        protected void key(String name) {
            out.append(spaces()).append('"');
            // now and then the same name with an escape in it: Jackson reads it as that name
            out.append(random.nextInt(40) == 0 ? escapedLast(name) : name);
            out.append('"').append(spaces()).append(':').append(spaces());
        }
    }
}
