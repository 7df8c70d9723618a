package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.testing.JsonNoise;
import dev.ruminate.providers.testing.NoisyJsonWriter;
import dev.ruminate.providers.testing.ByteChunks;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.transport.wire.JsonArrayElement;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.transport.wire.StreamFraming;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
 * The decoder's fast path ({@link TextPartScanner}) against Jackson alone: the same bytes, framed the
 * same way ({@link StreamFraming#SSE_OR_JSON_ARRAY}: Server-Sent Events or one JSON array), must give
 * the same events, or fail with the same error, with the fast path on and off. Over every Gemini
 * recording, each as recorded, as SSE and as a JSON array, at several cuttings (whole, single bytes,
 * random pieces); over every recording's events handed to the decoder as ranges of a larger array
 * that is overwritten after each call (lent frames); and over generated streams whose chunks vary the
 * dominant shape every way the scanner has to notice: escapes, {@code \}{@code u} escapes with valid
 * and lone surrogates, multi-byte and malformed UTF-8, unknown, reordered and duplicate fields, nulls,
 * numbers and nested values where strings belong, counts that are not plain integers, whitespace
 * between tokens, truncated JSON and trailing garbage.
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiFastPathDifferentialTest {

    static Stream<String> recordings() {
        return Recorded.under("gemini", ".sse", ".json").stream();
    }

    static LongStream seeds() {
        return Seeds.of(1_000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordingDecodesTheSameInBothFramingsAtEveryCutting(String path) {
        byte[] recorded = Recorded.bytes(path);
        List<byte[]> chunks = chunks(path);
        Random random = Seeds.random(path.hashCode());
        List<Function<byte[], Flux<ByteBuf>>> cuttings = List.of(
                ByteChunks::whole,
                b -> ByteChunks.random(b, new Random(1), 1),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 7),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 1460));
        List<byte[]> bodies = new ArrayList<>(List.of(sse(chunks, "\r\n"), jsonArray(chunks, ",\r\n")));
        if (recorded[0] != '{') {
            bodies.add(recorded); // a whole-body recording (one object) is no stream as it is
        }
        for (byte[] body : bodies) {
            for (Function<byte[], Flux<ByteBuf>> cutting : cuttings) {
                assertSame(body, cutting, path);
            }
        }
    }

    /**
     * The decoder reads a lent event through its range only, and keeps nothing of it: each event of
     * each recording is a range in the middle of a larger array, overwritten right after the call.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void lentEventsDecodeAsOwnedOnes(String path) {
        for (boolean fastPath : new boolean[] {true, false}) {
            Outcome owned = decode(sse(chunks(path), "\n"), ByteChunks::whole, fastPath);
            GeminiStreamDecoder decoder = new GeminiStreamDecoder("gemini", fastPath);
            List<ChatEvent> events = new ArrayList<>();
            byte[] array = new byte[1 << 16];
            int offset = 0;
            for (byte[] data : chunks(path)) {
                offset = (offset + 37) % 1000;
                Arrays.fill(array, (byte) '{');
                System.arraycopy(data, 0, array, offset, data.length);
                decoder.decode(new SseEvent("message", array, offset, data.length, null, 1, 0), events);
                Arrays.fill(array, (byte) '"');
            }
            decoder.end(events);
            assertThat(owned.error()).as(path).isNull();
            assertThat(events).as(path).isEqualTo(owned.events());
        }
    }

    /** The recordings must exercise the fast path, or the comparison above proves little. */
    @Test
    void theRecordedTextChunksReachTheFastPath() {
        TextPartScanner scanner = new TextPartScanner();
        int recognised = 0;
        for (String path : recordings().toList()) {
            for (byte[] data : chunks(path)) {
                if (scanner.scan(data, 0, data.length, true, new GeminiChunk())) {
                    recognised++;
                }
            }
        }
        // the text chunks of the two vercel reasoning streams, pydantic's turn 2 and Vertex's thought
        assertThat(recognised).isGreaterThanOrEqualTo(7);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void generatedStreamsDecodeTheSame(long seed) {
        Random random = Seeds.random(seed);
        boolean malformed = random.nextInt(3) == 0;
        List<byte[]> chunks = new ArrayList<>();
        int count = 1 + random.nextInt(30);
        for (int i = 0; i < count; i++) {
            chunks.add(new ChunkWriter(random, malformed).chunk());
        }
        if (random.nextInt(4) > 0) {
            chunks.add(new ChunkWriter(random, malformed).last());
        }
        byte[] body = switch (random.nextInt(4)) {
            case 0 -> jsonArray(chunks, random.nextBoolean() ? "," : ",\r\n");
            case 1 -> sse(chunks, "\n");
            default -> sse(chunks, "\r\n");
        };
        int piece = 1 + random.nextInt(64);
        long cuts = random.nextLong();
        assertSame(body, b -> ByteChunks.random(b, new Random(cuts), piece), "seed " + seed + " " + Recorded.utf8(body));
    }

    /** Streams the test kit writes (the benchmark's shape: usage on every chunk, CRLF) decode the same too. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("scriptSeeds")
    void scriptedStreamsDecodeTheSame(long seed) {
        Random random = Seeds.random(seed);
        byte[] body = GeminiRandomScript.of(random).body;
        assertSame(body, b -> ByteChunks.random(b, new Random(seed), 1 + random.nextInt(1460)), "script seed " + seed);
    }

    static LongStream scriptSeeds() {
        return Seeds.of(100);
    }

    /** Most of what the generator writes must reach the fast path, or it tests mostly Jackson against itself. */
    @Test
    void mostGeneratedChunksReachTheFastPath() {
        TextPartScanner scanner = new TextPartScanner();
        Random random = new Random(7);
        int recognised = 0;
        int total = 2_000;
        for (int i = 0; i < total; i++) {
            byte[] data = new ChunkWriter(random, i % 3 == 0).chunk();
            if (scanner.scan(data, 0, data.length, random.nextBoolean(), new GeminiChunk())) {
                recognised++;
            }
        }
        // about 80% of the well-formed chunks and half of those from streams that may be malformed
        assertThat(recognised).isBetween(total * 65 / 100, total * 95 / 100);
    }

    private static void assertSame(byte[] body, Function<byte[], Flux<ByteBuf>> cutting, String what) {
        Outcome fast = decode(body, cutting, true);
        Outcome jackson = decode(body, cutting, false);
        assertThat(describe(fast.error())).as(what).isEqualTo(describe(jackson.error()));
        assertThat(fast.events()).as(what).isEqualTo(jackson.events());
    }

    private static Outcome decode(byte[] body, Function<byte[], Flux<ByteBuf>> cutting, boolean fastPath) {
        StreamFraming<SseEvent> framing = StreamFraming.SSE_OR_JSON_ARRAY;
        return Recorded.run(framing.decode(cutting.apply(body), WireLimits.DEFAULT)
                .transform(StreamDecoding.operator(framing, () -> new GeminiStreamDecoder("gemini", fastPath))));
    }

    private static @Nullable String describe(@Nullable Throwable error) {
        return error == null ? null : error.getClass().getName() + ": " + error.getMessage();
    }

    /** A recording's chunks: its SSE events' data, its JSON array's elements, or a whole body as one chunk. */
    private static List<byte[]> chunks(String path) {
        byte[] bytes = Recorded.bytes(path);
        if (path.endsWith(".sse")) {
            return Recorded.sse(path).stream().map(SseEvent::data).toList();
        }
        if (bytes[0] == '[') {
            List<JsonArrayElement> elements = StreamFraming.JSON_ARRAY.decode(ByteChunks.whole(bytes), WireLimits.DEFAULT)
                    .collectList().block();
            assertThat(elements).isNotEmpty();
            return elements.stream().map(JsonArrayElement::bytes).toList();
        }
        return List.of(bytes);
    }

    /** Writes chunks as Server-Sent Events, each line of a chunk a {@code data:} line. */
    private static byte[] sse(List<byte[]> chunks, String lineEnd) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] chunk : chunks) {
            int start = 0;
            for (int i = 0; i <= chunk.length; i++) {
                if (i == chunk.length || chunk[i] == '\n' || chunk[i] == '\r') {
                    body.writeBytes("data: ".getBytes(StandardCharsets.US_ASCII));
                    body.write(chunk, start, i - start);
                    body.writeBytes(lineEnd.getBytes(StandardCharsets.US_ASCII));
                    if (i + 1 < chunk.length && chunk[i] == '\r' && chunk[i + 1] == '\n') {
                        i++;
                    }
                    start = i + 1;
                }
            }
            body.writeBytes(lineEnd.getBytes(StandardCharsets.US_ASCII));
        }
        return body.toByteArray();
    }

    /** Writes chunks as one JSON array, as {@code streamGenerateContent} without {@code alt=sse} does. */
    private static byte[] jsonArray(List<byte[]> chunks, String separator) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write('[');
        for (int i = 0; i < chunks.size(); i++) {
            if (i > 0) {
                body.writeBytes(separator.getBytes(StandardCharsets.US_ASCII));
            }
            body.writeBytes(chunks.get(i));
        }
        body.write(']');
        return body.toByteArray();
    }

    /**
     * Writes one chunk: mostly the dominant shape (a thought or answer text part, usage, head), with
     * now and then one or more of the variations the scanner must notice.
     */
    private static final class ChunkWriter extends NoisyJsonWriter {

        private static final String[] TOP = {"usageMetadata", "modelVersion", "responseId", "createTime", "x_unknown",
                "promptFeedback", "error", "index", "event_type"};
        private static final String[] CANDIDATE = {"index", "safetyRatings", "citationMetadata", "finishReason",
                "x_unknown"};
        private static final String[] PART = {"thoughtSignature", "thoughtSignature", "inlineData", "x_unknown", "functionCall",
                "executableCode", "partMetadata"};
        private static final String[] USAGE = {"promptTokenCount", "candidatesTokenCount", "totalTokenCount",
                "thoughtsTokenCount", "cachedContentTokenCount", "promptTokensDetails", "trafficType",
                "toolUsePromptTokenCount"};

        /** {@code malformed} false: well-formed JSON of the right shape only, so that no chunk ends the stream early. */
        ChunkWriter(Random random, boolean malformed) {
            super(random, malformed, 6, " ", "\t", "\r\n", "  ", " \t ", "\n  ");
        }

        /** A chunk of the stream. */
        byte[] chunk() {
            return write(false);
        }

        /** A last chunk, with a finish reason. */
        byte[] last() {
            return write(true);
        }

        private byte[] write(boolean last) {
            out.append('{');
            List<String> fields = new ArrayList<>();
            fields.add("candidates");
            for (String name : TOP) {
                boolean common = name.equals("usageMetadata") || name.equals("modelVersion") || name.equals("responseId");
                boolean rare = name.equals("promptFeedback") || name.equals("error") || name.equals("index")
                        || name.equals("event_type");
                if (common ? random.nextInt(8) > 0 : rare ? random.nextInt(150) == 0 : random.nextInt(4) == 0) {
                    fields.add(name);
                }
            }
            if (random.nextInt(4) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(100) == 0) {
                fields.add(fields.get(random.nextInt(fields.size()))); // a duplicate
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                switch (name) {
                    case "candidates" -> candidates(last);
                    case "usageMetadata" -> usage();
                    case "modelVersion", "responseId" -> head();
                    case "promptFeedback" -> out.append(pick("{\"blockReason\":\"SAFETY\"}", "{}", "null"));
                    case "error" -> out.append(malformed ? "{\"code\":500,\"message\":\"boom\",\"status\":\"INTERNAL\"}" : "null");
                    case "index" -> out.append(pick("0", "1"));
                    case "event_type" -> out.append(malformed ? "\"step.delta\"" : "null");
                    default -> value(2);
                }
            }
            ws();
            out.append('}');
            if (random.nextInt(30) == 0) {
                out.append(pick(" ", "\r\n", "\t"));
            }
            if (malformed && random.nextInt(30) == 0) {
                out.append(pick("{}", " x", "]", ","));
            }
            String json = out.toString();
            if (malformed && random.nextInt(25) == 0) {
                json = json.substring(0, random.nextInt(json.length())); // truncated
            } else if (malformed && random.nextInt(25) == 0) {
                // a byte flipped to a structural or quoting character
                int at = random.nextInt(json.length());
                char c = "\"{}[],:\\0an ".charAt(random.nextInt(12));
                json = json.substring(0, at) + c + json.substring(at + 1);
            }
            return JsonNoise.utf8(json);
        }

        private void candidates(boolean last) {
            ws();
            int kind = random.nextInt(60);
            if (malformed && kind == 0) {
                out.append(pick("null", "{}", "\"x\""));
                return;
            }
            out.append('[');
            if (kind == 1) {
                ws();
                out.append(']');
                return;
            }
            candidate(last);
            if (kind == 2) {
                out.append(',');
                candidate(false); // a second candidate: only the first is read
            }
            ws();
            out.append(']');
        }

        private void candidate(boolean last) {
            ws();
            out.append('{');
            List<String> fields = new ArrayList<>();
            fields.add("content");
            for (String name : CANDIDATE) {
                if (name.equals("finishReason") ? last || random.nextInt(60) == 0
                        : name.equals("index") ? random.nextInt(3) > 0 : random.nextInt(10) == 0) {
                    fields.add(name);
                }
            }
            if (random.nextInt(4) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(100) == 0) {
                fields.add("content"); // a duplicate
            }
            if (random.nextInt(40) == 0) {
                fields.remove("content");
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                switch (name) {
                    case "content" -> content();
                    case "index" -> out.append(random.nextInt(5) > 0 ? "0" : pick("1", "null", "\"0\"", "-0", "0.0"));
                    case "finishReason" -> out.append(last || random.nextBoolean() ? pick("\"STOP\"", "\"MAX_TOKENS\"", "\"SAFETY\"") : "null");
                    case "safetyRatings" -> out.append("[{\"category\":\"HARM_CATEGORY_HATE_SPEECH\",\"probability\":\"NEGLIGIBLE\"},"
                            + "{\"category\":\"HARM_CATEGORY_DANGEROUS_CONTENT\",\"probability\":\"LOW\",\"blocked\":false}]");
                    default -> value(3);
                }
            }
            ws();
            out.append('}');
        }

        private void content() {
            ws();
            if (malformed && random.nextInt(40) == 0) {
                out.append(pick("null", "[]", "\"text\""));
                return;
            }
            out.append('{');
            List<String> fields = new ArrayList<>(List.of("parts", "role"));
            if (random.nextInt(10) == 0) {
                fields.add("x_unknown");
            }
            if (random.nextInt(3) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(100) == 0) {
                fields.add("parts"); // a duplicate
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                switch (name) {
                    case "parts" -> parts();
                    case "role" -> out.append(random.nextInt(10) > 0 ? "\"model\"" : pick("null", "\"user\"", "1", "{}"));
                    default -> value(3);
                }
            }
            ws();
            out.append('}');
        }

        private void parts() {
            ws();
            if (malformed && random.nextInt(40) == 0) {
                out.append(pick("null", "{}", "[1]"));
                return;
            }
            out.append('[');
            int count = random.nextInt(12) == 0 ? random.nextInt(4) : 1;
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    ws();
                    out.append(',');
                }
                part();
            }
            ws();
            out.append(']');
        }

        private void part() {
            ws();
            out.append('{');
            List<String> fields = new ArrayList<>();
            if (random.nextInt(30) > 0) {
                fields.add("text");
            }
            if (random.nextBoolean()) {
                fields.add("thought");
            }
            if (random.nextInt(5) == 0) {
                String extra = PART[random.nextInt(PART.length)];
                boolean rare = extra.equals("functionCall") || extra.equals("executableCode");
                if (!rare || random.nextInt(4) == 0) {
                    fields.add(extra);
                }
            }
            if (random.nextInt(40) == 0 && !fields.isEmpty()) {
                fields.add(fields.get(random.nextInt(fields.size()))); // a duplicate
            }
            if (random.nextInt(4) == 0) {
                Collections.shuffle(fields, random);
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name, 150);
                switch (name) {
                    case "text" -> text();
                    case "thought" -> out.append(random.nextInt(20) > 0 ? "true"
                            : malformed ? pick("false", "null", "\"true\"", "1", "tru") : pick("false", "null", "1", "\"true\""));
                    case "thoughtSignature" -> {
                        if (random.nextInt(8) > 0) {
                            string();
                        } else {
                            out.append(malformed ? pick("null", "1", "{}") : "null");
                        }
                    }
                    case "functionCall" -> out.append(pick("{\"name\":\"f\",\"args\":{\"a\":1}}", "{}", "{\"name\":\"g\"}"));
                    case "executableCode" -> out.append("{\"language\":\"PYTHON\",\"code\":\"print(1)\"}");
                    case "inlineData" -> out.append("{\"mimeType\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}");
                    default -> value(3);
                }
            }
            ws();
            out.append('}');
        }

        private void text() {
            int kind = random.nextInt(40);
            if (kind == 0) {
                out.append("null");
            } else if (kind == 1 && malformed) {
                out.append(pick("12", "true", "{}", "[\"a\"]", "{\"x\":\"y\"}"));
            } else {
                string();
            }
        }

        private void usage() {
            ws();
            int kind = random.nextInt(40);
            if (kind == 0) {
                out.append(pick("null", "{}", "[]", "\"x\"", "1"));
                return;
            }
            out.append('{');
            List<String> fields = new ArrayList<>();
            for (String name : USAGE) {
                if (random.nextInt(4) > 0) {
                    fields.add(name);
                }
            }
            if (random.nextInt(4) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(30) == 0 && !fields.isEmpty()) {
                fields.add(fields.get(0)); // a duplicate: the last count wins
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                if (random.nextInt(300) == 0) {
                    ws();
                    out.append('"').append(name, 0, name.length() - 1)
                            .append(String.format("\\u%04x", (int) name.charAt(name.length() - 1))).append('"');
                    ws();
                    out.append(':');
                    ws();
                } else {
                    key(name);
                }
                switch (name) {
                    case "promptTokensDetails" -> out.append(pick("[{\"modality\":\"TEXT\",\"tokenCount\":9}]", "[]",
                            "[{\"modality\":\"TEXT\",\"tokenCount\":9},{\"modality\":\"IMAGE\",\"tokenCount\":258}]"));
                    case "trafficType" -> out.append(pick("\"ON_DEMAND\"", "\"PROVISIONED_THROUGHPUT\""));
                    default -> count();
                }
            }
            ws();
            out.append('}');
        }

        private void count() {
            int kind = random.nextInt(200);
            switch (kind) {
                case 0 -> out.append(pick("-1", "-0", "1.5", "2e3", "0.0", "1E2", "9223372036854775807", "123456789012345678",
                        "1234567890123456789"));
                case 1 -> out.append(malformed ? pick("01", "1.", "-", "+1", "99999999999999999999", "1x") : pick("null", "\"12\"", "{}"));
                default -> out.append(random.nextInt(kind < 50 ? 1_000_000 : 200));
            }
        }

        private void head() {
            int kind = random.nextInt(30);
            if (kind == 0) {
                out.append("null");
            } else if (kind == 1 && malformed) {
                out.append(pick("12", "{}", "[]", "true"));
            } else {
                string();
            }
        }

        /** Any value, nested up to {@code depth} levels. */
        private void value(int depth) {
            int kind = random.nextInt(depth > 0 ? 8 : 6);
            switch (kind) {
                case 0 -> out.append("null");
                case 1 -> out.append(random.nextInt(20) == 0 ? "9".repeat(120) // longer than the cursor reads
                        : malformed ? pick("0", "-7", "1.25", "3e9", "01", "1.e3", "+1", "--1", "nul")
                        : pick("0", "-7", "1.25", "3e9", "1E-2", "-0.0e+00"));
                case 2 -> out.append(pick("true", "false"));
                case 6 -> {
                    out.append('{');
                    int n = random.nextInt(3);
                    for (int i = 0; i < n; i++) {
                        if (i > 0) {
                            out.append(',');
                        }
                        ws();
                        if (random.nextInt(10) == 0) {
                            string(); // a name with escapes now and then
                        } else {
                            out.append('"').append(pick("a", "category", "probability", "x_y", "")).append('"');
                        }
                        ws();
                        out.append(':');
                        value(depth - 1);
                    }
                    if (malformed && random.nextInt(10) == 0) {
                        out.append(',');
                    }
                    ws();
                    out.append('}');
                }
                case 7 -> {
                    out.append('[');
                    int n = random.nextInt(3);
                    for (int i = 0; i < n; i++) {
                        if (i > 0) {
                            out.append(',');
                        }
                        ws();
                        value(depth - 1);
                    }
                    ws();
                    out.append(']');
                }
                default -> string();
            }
        }

        /** A JSON string of 0 to 8 pieces: ASCII, escapes, unicode escapes, raw multi-byte text, and now and then a malformed piece. */
        private void string() {
            // escapes one piece in ten, unicode escapes and multi-byte text often, malformed pieces rarely
            string(60, roll -> {
                int kind = roll < 6 ? 0 : roll < 8 ? 1 : roll < 9 ? 2 : roll == 9 ? 3 : roll < 13 ? 4 : roll == 13 ? 6 : 8;
                return malformed && random.nextInt(150) == 0 ? (random.nextBoolean() ? 5 : 7) : kind;
            });
        }
    }
}
