package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The decoder's fast path ({@link DeltaScanner}) against Jackson alone: the same bytes, framed the
 * same way, must give the same events, or fail with the same error, with the fast path on and off.
 * Over every recorded Chat Completions stream at several cuttings (whole, single bytes, random
 * pieces), and over generated streams whose chunks vary the dominant shape every way the scanner has
 * to notice: escapes, {@code \}{@code u} escapes with valid and lone surrogates, multi-byte and
 * malformed UTF-8, unknown and reordered fields, nulls, numbers where strings belong, nested values,
 * duplicate keys, whitespace between tokens, truncated JSON.
 */
@ExtendWith(NettyLeakCheck.class)
class FastPathDifferentialTest {

    static Stream<String> recordings() {
        return Recordings.streams().stream();
    }

    static LongStream seeds() {
        return Seeds.of(1_000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordingDecodesTheSameAtEveryCutting(String path) {
        byte[] body = Recorded.bytes(path);
        CompatProfile profile = Recordings.profile(path);
        Random random = Seeds.random(path.hashCode());
        List<Function<byte[], Flux<ByteBuf>>> cuttings = List.of(
                ByteChunks::whole,
                b -> ByteChunks.random(b, new Random(1), 1),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 7),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 1460));
        for (Function<byte[], Flux<ByteBuf>> cutting : cuttings) {
            assertSame(profile, body, cutting, path);
        }
    }

    /**
     * Lent frames: each event's data handed to the decoder as a range of one reused buffer, with
     * other bytes around it and overwritten after each call, as the network buffer is; the fast path
     * must read only the range and keep nothing of it, and give what Jackson gives from owned events.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordingDecodesTheSameFromLentFrames(String path) {
        assertSameLent(Recordings.profile(path), Recorded.bytes(path), new Random(path.hashCode()), path);
    }

    /** The recordings must exercise the fast path, or the comparison above proves nothing. */
    @Test
    void theRecordingsReachTheFastPath() {
        int recognised = 0;
        for (String path : List.of("deepseek/vercel-azure-deepseek-v4-reasoning-stream.sse",
                "groq/vercel-groq-reasoning-field-stream.sse")) {
            DeltaScanner scanner = new DeltaScanner(Recordings.profile(path));
            for (SseEvent event : Recorded.sse(path)) {
                if (!event.isDone() && scanner.scan(event.dataArray(), event.dataOffset(), event.dataLength(), new Chunk())) {
                    recognised++;
                }
            }
        }
        assertThat(recognised).isGreaterThan(1000);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void generatedStreamsDecodeTheSame(long seed) {
        Random random = Seeds.random(seed);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        sse(body, "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}");
        int chunks = 1 + random.nextInt(30);
        boolean malformed = random.nextInt(3) == 0;
        for (int i = 0; i < chunks; i++) {
            sse(body, new ChunkWriter(random, malformed).chunk());
        }
        if (random.nextInt(4) > 0) {
            sse(body, "[DONE]");
        }
        byte[] bytes = body.toByteArray();
        CompatProfile profile = switch (random.nextInt(3)) {
            case 0 -> Profiles.DEEPSEEK;
            case 1 -> Profiles.OPENROUTER;
            default -> Profiles.OPENAI_COMPATIBLE;
        };
        int piece = 1 + random.nextInt(64);
        long cuts = random.nextLong();
        assertSame(profile, bytes, b -> ByteChunks.random(b, new Random(cuts), piece), "seed " + seed);
        assertSameLent(profile, bytes, new Random(cuts), "seed " + seed + ", lent");
    }

    /**
     * Most of what the generator writes must reach the fast path, or a planted bug in the scanner
     * would rarely meet the comparison, and the test would hold Jackson mostly against itself; tool
     * calls among them. Yet not all of it: the variations the scanner must leave to Jackson need
     * their share too.
     */
    @Test
    void generatedChunksMostlyReachTheFastPath() {
        for (boolean malformed : new boolean[] {false, true}) {
            DeltaScanner scanner = new DeltaScanner(Profiles.DEEPSEEK);
            Random random = new Random(7);
            int recognised = 0;
            int tools = 0;
            for (int i = 0; i < 2_000; i++) {
                // framed as the decoder gets it: what the framing does to the bytes counts too
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                sse(body, new ChunkWriter(random, malformed).chunk());
                List<SseEvent> events = StreamFraming.SSE.decode(ByteChunks.whole(body.toByteArray()), WireLimits.DEFAULT)
                        .map(SseEvent::owned).collectList().block();
                assertThat(events).hasSize(1);
                SseEvent event = events.get(0);
                Chunk chunk = new Chunk();
                if (scanner.scan(event.dataArray(), event.dataOffset(), event.dataLength(), chunk)) {
                    recognised++;
                    if (!chunk.tools.isEmpty()) {
                        tools++;
                    }
                }
            }
            assertThat(recognised).as("malformed " + malformed).isBetween(1_200, 1_800);
            assertThat(tools).as("malformed " + malformed).isGreaterThan(250);
        }
    }

    private static void assertSame(CompatProfile profile, byte[] body, Function<byte[], Flux<ByteBuf>> cutting,
                                   String what) {
        Outcome fast = decode(profile, cutting.apply(body), true);
        Outcome jackson = decode(profile, cutting.apply(body), false);
        assertThat(fast.events()).as(what).isEqualTo(jackson.events());
        assertThat(describe(fast.error())).as(what).isEqualTo(describe(jackson.error()));
    }

    /**
     * Each path over lent frames against itself over owned events: the same events, or the same
     * error (raw, as the decoder throws it: Jackson's messages then count the bytes the stream's
     * parser was fed, which differ between the paths, so the paths are held equal by the tests above).
     */
    private static void assertSameLent(CompatProfile profile, byte[] body, Random random, String what) {
        List<SseEvent> events = StreamFraming.SSE.decode(ByteChunks.whole(body), WireLimits.DEFAULT).map(SseEvent::owned)
                .collectList().block();
        assertThat(events).as(what).isNotNull();
        for (boolean fastPath : new boolean[] {true, false}) {
            Lent lent = decodeLent(profile, events, fastPath, random);
            Lent owned = decodeLent(profile, events, fastPath, null);
            assertThat(lent.events()).as(what + ", fast path " + fastPath).isEqualTo(owned.events());
            assertThat(lent.error()).as(what + ", fast path " + fastPath).isEqualTo(owned.error());
        }
    }

    /**
     * Calls the decoder itself, event by event (no operator); with a random, each event's data are
     * lent from one buffer at a random offset, the rest of the buffer filled with bytes that would
     * change the result if read, and the whole buffer overwritten after each call.
     */
    private static Lent decodeLent(CompatProfile profile, List<SseEvent> events, boolean fastPath, @Nullable Random random) {
        ChatCompletionsStreamDecoder decoder = new ChatCompletionsStreamDecoder(profile, fastPath);
        List<dev.ruminate.core.event.ChatEvent> out = new ArrayList<>();
        byte[] junk = "{\"choices\":[{\"delta\":{\"content\":\"junk\"}}]}\n".getBytes(StandardCharsets.US_ASCII);
        int longest = events.stream().mapToInt(SseEvent::dataLength).max().orElse(0);
        byte[] buffer = new byte[longest + 2 * junk.length];
        try {
            for (SseEvent event : events) {
                SseEvent given = event;
                if (random != null) {
                    scribble(buffer, junk);
                    int offset = random.nextInt(buffer.length - event.dataLength() + 1);
                    System.arraycopy(event.dataArray(), event.dataOffset(), buffer, offset, event.dataLength());
                    given = new SseEvent(event.type(), buffer, offset, event.dataLength(), event.id(), event.line(),
                            event.byteOffset());
                }
                decoder.decode(given, out);
                scribble(buffer, junk);
            }
            decoder.end(out);
        } catch (RuntimeException e) {
            return new Lent(out, describe(e));
        }
        return new Lent(out, null);
    }

    private static void scribble(byte[] buffer, byte[] junk) {
        for (int i = 0; i < buffer.length; i++) {
            buffer[i] = junk[i % junk.length];
        }
    }

    /** What a direct decode produced: its events, and the error it ended with, described. */
    private record Lent(List<dev.ruminate.core.event.ChatEvent> events, @Nullable String error) {
    }

    private static Outcome decode(CompatProfile profile, Flux<ByteBuf> body, boolean fastPath) {
        return Recorded.run(StreamFraming.SSE.decode(body, WireLimits.DEFAULT)
                .transform(dev.ruminate.providers.spi.StreamDecoding.operator(StreamFraming.SSE,
                        () -> new ChatCompletionsStreamDecoder(profile, fastPath))));
    }

    private static @Nullable String describe(@Nullable Throwable error) {
        return error == null ? null : error.getClass().getName() + ": " + error.getMessage();
    }

    private static void sse(ByteArrayOutputStream body, String data) {
        // data lines as a server writes them; a raw line break in generated data (JSON whitespace) splits it into two
        // data lines, joined again with a line feed. A carriage return ends an SSE line too: left in, it would cut the
        // data, and almost every stream would end at its first chunk with whitespace in it, the fast path unreached.
        body.writeBytes(JsonNoise.utf8(
                "data: " + data.replace("\r\n", "\n").replace('\r', '\n').replace("\n", "\ndata: ") + "\n\n"));
    }

    /**
     * Writes one chunk. Three chunks in five are "plain": of a shape the fast path reads (text or
     * tool-call deltas), varied only within it (escapes, unicode, whitespace, field order, unknown
     * scalars, nulls, several calls), so that most chunks take the fast path and a scanner that reads
     * them wrongly meets the comparison. The others add one or more of the variations the scanner
     * must leave to Jackson (nested values, numbers where strings belong, duplicate or escaped names,
     * a finish reason, a second choice, malformed JSON or UTF-8, …).
     */
    private static final class ChunkWriter extends NoisyJsonWriter {

        private static final String[] HEAD = {"id", "object", "created", "model", "system_fingerprint",
                "service_tier", "provider", "obfuscation", "usage", "x_groq", "thought_signature", "error", "x_unknown"};
        private static final String[] DELTA = {"content", "reasoning_content", "reasoning", "reasoning_text",
                "role", "refusal", "tool_calls", "thought_signature", "reasoning_details", "x_other", "thinking"};
        /** Delta names the full parser reads as something other than text: null in a plain chunk. */
        private static final List<String> NULL_IN_PLAIN = List.of("refusal", "thought_signature", "reasoning_details");

        /** Whether this chunk stays within the shapes the fast path reads. */
        private boolean plain;

        ChunkWriter(Random random, boolean malformed) {
            super(random, malformed, 6, " ", "\t", "\r", "  ", " \t ");
        }

        String chunk() {
            plain = random.nextInt(5) < 3;
            out.append('{');
            List<String> fields = new ArrayList<>();
            for (String name : HEAD) {
                if (random.nextInt(3) > 0) {
                    fields.add(name);
                }
            }
            fields.add("choices");
            if (random.nextInt(5) == 0) {
                java.util.Collections.shuffle(fields, random);
            }
            if (odd(30)) {
                fields.add("choices"); // duplicate
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                if (name.equals("choices")) {
                    choices();
                } else {
                    headValue(name);
                }
            }
            ws();
            out.append('}');
            if (odd(25)) {
                out.append(random.nextBoolean() || !malformed ? "{}" : " x");
            }
            String json = out.toString();
            if (!malformed || plain) {
                return json;
            }
            if (random.nextInt(20) == 0) {
                return json.substring(0, random.nextInt(json.length())); // truncated
            }
            if (random.nextInt(20) == 0) {
                // a byte flipped to a structural or quoting character
                int at = random.nextInt(json.length());
                char c = "\"{}[],:\\0an ".charAt(random.nextInt(12));
                return json.substring(0, at) + c + json.substring(at + 1);
            }
            return json;
        }

        /** True one time in {@code n}, in a chunk that is not plain. */
        private boolean odd(int n) {
            return !plain && random.nextInt(n) == 0;
        }

        private void choices() {
            ws();
            int kind = plain ? 3 : random.nextInt(40);
            if (kind == 0) {
                out.append("[]");
                return;
            }
            if (kind == 1) {
                out.append("null");
                return;
            }
            out.append('[');
            choice();
            if (kind == 2) {
                out.append(',');
                choice();
            }
            ws();
            out.append(']');
        }

        private void choice() {
            ws();
            out.append('{');
            List<String> fields = new ArrayList<>(List.of("index", "delta", "logprobs", "finish_reason"));
            if (random.nextInt(5) == 0) {
                java.util.Collections.shuffle(fields, random);
            }
            if (odd(20)) {
                fields.add(random.nextBoolean() ? "message" : "delta");
            }
            if (random.nextInt(10) == 0) {
                String removed = fields.get(random.nextInt(fields.size()));
                if (!plain || !removed.equals("delta")) {
                    fields.remove(removed);
                }
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                switch (name) {
                    case "index" -> out.append(random.nextInt(4) > 0 ? "0"
                            : plain ? "null" : pick("1", "null", "\"0\"", "0.0", "-0"));
                    case "finish_reason" -> out.append(plain || random.nextInt(4) > 0 ? "null" : pick("\"stop\"", "\"\"", "1"));
                    case "logprobs" -> out.append(random.nextInt(8) > 0 ? "null"
                            : plain ? pick("true", "1", "\"x\"") : pick("{}", "[]", "{\"content\":null}"));
                    case "delta", "message" -> delta();
                    default -> throw new IllegalStateException(name);
                }
            }
            ws();
            out.append('}');
        }

        private void delta() {
            ws();
            // a delta that is not an object fails the stream: only in streams that may fail
            int shape = malformed && !plain ? random.nextInt(30) : 2;
            if (shape == 0) {
                out.append("null");
                return;
            }
            if (shape == 1) {
                out.append("\"text\"");
                return;
            }
            out.append('{');
            List<String> fields = new ArrayList<>();
            int roll = random.nextInt(10);
            // tool-call fragments in three deltas of ten, as in a stream that calls tools
            fields.add(roll < 3 ? "tool_calls" : roll < 5 ? "content" : "reasoning_content");
            if (random.nextInt(4) == 0) {
                fields.add(DELTA[random.nextInt(DELTA.length)]);
            }
            if (random.nextInt(8) == 0) {
                fields.add(DELTA[random.nextInt(DELTA.length)]);
            }
            if (odd(15)) {
                fields.add(fields.get(0)); // duplicate key
            }
            if (random.nextInt(20) == 0) {
                fields.clear();
            }
            if (plain) {
                fields = new ArrayList<>(new java.util.LinkedHashSet<>(fields));
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                if (odd(40)) {
                    escapedKey(name);
                } else {
                    key(name);
                }
                deltaValue(name);
            }
            ws();
            out.append('}');
        }

        private void deltaValue(String name) {
            if (name.equals("tool_calls")) {
                if (random.nextInt(20) > 0) {
                    toolCalls();
                } else {
                    // anything but an array or null fails the stream: only in streams that may fail
                    out.append(malformed && !plain ? pick("null", "{}", "\"x\"", "12") : "null");
                }
                return;
            }
            if (plain && NULL_IN_PLAIN.contains(name)) {
                out.append("null");
                return;
            }
            // numbers and nested values fail the stream where a text field has them: only in streams that may fail
            int kind = random.nextInt(30);
            if ((plain || !malformed) && kind > 0 && kind < 3 && (name.equals("content") || name.startsWith("reasoning")
                    || name.equals("refusal"))) {
                kind = 3;
            }
            if (plain && kind == 2) {
                kind = 3;
            }
            switch (kind) {
                case 0 -> out.append("null");
                case 1 -> out.append(malformed && !plain ? pick("12", "-1.5e3", "true", "false", "01", "1.", "-")
                        : pick("12", "-1.5e3", "true", "false"));
                case 2 -> out.append(pick("{}", "[]", "[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]",
                        "{\"text\":\"x\"}", "[\"a\"]"));
                default -> {
                    if (name.equals("role")) {
                        out.append("\"assistant\"");
                    } else {
                        string();
                    }
                }
            }
        }

        /** A {@code tool_calls} array: mostly one argument fragment, now and then a call's first fragment, several calls, nulls. */
        private void toolCalls() {
            out.append('[');
            int kind = random.nextInt(30);
            int calls = kind == 0 ? 0 : kind == 1 ? 2 + random.nextInt(2) : 1;
            boolean first = true;
            for (int i = 0; i < calls; i++) {
                first = comma(first);
                ws();
                if (random.nextInt(40) == 0) {
                    out.append("null");
                } else if (malformed && odd(20)) {
                    out.append(pick("1", "[]", "\"c\"")); // not a call: fails the stream
                } else {
                    toolCall();
                }
            }
            ws();
            out.append(']');
        }

        private void toolCall() {
            out.append('{');
            List<String> fields = new ArrayList<>();
            boolean head = random.nextInt(5) == 0; // a call's first fragment: id, type and name
            if (random.nextInt(15) > 0) {
                fields.add("index");
            }
            if (head) {
                fields.add("id");
                fields.add("type");
            }
            if (random.nextInt(25) > 0) {
                fields.add("function");
            }
            if (random.nextInt(10) == 0) {
                fields.add(plain ? pick("extra_content", "x_other") : pick("extra_content", "name", "arguments", "x_other"));
            }
            if (odd(15) && !fields.isEmpty()) {
                fields.add(fields.get(random.nextInt(fields.size()))); // duplicate key
            }
            if (random.nextInt(6) == 0) {
                java.util.Collections.shuffle(fields, random);
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                switch (name) {
                    case "index" -> out.append(plain || random.nextInt(4) > 0
                            ? String.valueOf(random.nextInt(random.nextInt(10) == 0 ? 1000 : 3))
                            : malformed ? pick("null", "-1", "1.0", "\"0\"", "1234567890", "01", "99999999999", "1e0")
                            : pick("null", "-1", "1.0", "\"0\"", "1234567890", "1e0"));
                    case "id" -> {
                        if (plain || random.nextInt(4) > 0) {
                            if (random.nextInt(20) > 0) {
                                string();
                            } else {
                                out.append("null");
                            }
                        } else {
                            out.append(pick("7", "{}"));
                        }
                    }
                    case "type" -> out.append(plain || random.nextInt(4) > 0 ? pick("\"function\"", "\"function\"", "null")
                            : pick("{}", "[\"function\"]"));
                    case "extra_content" -> out.append(plain ? "null" : pick("null", "{\"google\":{\"thought_signature\":\"sig\"}}", "{}"));
                    case "name", "arguments", "x_other" -> string();
                    case "function" -> function(head);
                    default -> throw new IllegalStateException(name);
                }
            }
            ws();
            out.append('}');
        }

        private void function(boolean head) {
            if (odd(15)) {
                // null, or (in streams that may fail) not an object
                out.append(malformed ? pick("null", "\"f\"", "[]", "1") : "null");
                return;
            }
            out.append('{');
            List<String> fields = new ArrayList<>();
            if (head || random.nextInt(30) == 0) {
                fields.add("name");
            }
            if (random.nextInt(20) > 0) {
                fields.add("arguments");
            }
            if (random.nextInt(15) == 0) {
                fields.add(plain ? "x_other" : pick("x_other", "name", "arguments"));
            }
            if (random.nextInt(5) == 0) {
                java.util.Collections.shuffle(fields, random);
            }
            if (plain) {
                fields = new ArrayList<>(new java.util.LinkedHashSet<>(fields));
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                int value = random.nextInt(30);
                if (value == 0) {
                    out.append("null");
                } else if (value < 3 && !plain) {
                    // arguments as the object itself (some servers), a nested value, a number
                    out.append(pick("{\"a\":[1,{\"b\":null}]}", "[]", "12"));
                } else if (name.equals("name")) {
                    out.append(pick("\"get_weather\"", "\"search_docs\"", "\"\""));
                } else {
                    string();
                }
            }
            ws();
            out.append('}');
        }

        private void headValue(String name) {
            // the names the full parser reads are null in the dominant shape
            boolean read = name.equals("usage") || name.equals("x_groq") || name.equals("thought_signature") || name.equals("error");
            int kind = read && (plain || random.nextInt(8) > 0) ? 0 : random.nextInt(read ? 3 : 40);
            if (plain && kind == 2) {
                kind = 3;
            }
            switch (kind) {
                case 0 -> out.append("null");
                case 1 -> out.append(plain ? pick("0", "-7", "1.25", "3e9", "1E-2", "-0.0e+00", "9".repeat(90))
                        : malformed ? pick("0", "-7", "1.25", "3e9", "1E-2", "01", "1.e3", "+1", "--1", "9".repeat(120))
                        : pick("0", "-7", "1.25", "3e9", "1E-2", "-0.0e+00", "9".repeat(120)));
                case 2 -> out.append(malformed ? pick("true", "false", "nul", "truex", "{}", "{\"a\":[1,{\"b\":null}]}", "[1,2]")
                        : pick("true", "false", "{}", "{\"a\":[1,{\"b\":null}]}", "[1,2]"));
                default -> {
                    if (name.equals("created")) {
                        out.append(1_700_000_000 + random.nextInt(1000));
                    } else if (random.nextInt(20) == 0) {
                        out.append(pick("true", "false"));
                    } else {
                        string();
                    }
                }
            }
        }

        /** A JSON string of 0 to 8 pieces: ASCII, escapes, unicode escapes, raw multi-byte text, and now and then a malformed piece. */
        private void string() {
            // escapes one piece in five, unicode escapes and multi-byte text often, malformed pieces rarely
            string(40, roll -> {
                int kind = roll < 8 ? 0 : roll < 11 ? 1 : roll < 13 ? 2 : roll == 13 ? 3 : roll < 18 ? 4 : roll == 18 ? 5
                        : roll == 19 ? 6 : roll == 20 ? 7 : 8;
                return (plain || !malformed) && (kind == 5 || kind == 7) ? 0 : kind;
            });
        }
    }
}
