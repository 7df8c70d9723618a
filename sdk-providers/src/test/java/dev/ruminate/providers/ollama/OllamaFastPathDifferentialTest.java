package dev.ruminate.providers.ollama;

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
import dev.ruminate.transport.wire.JsonLine;
import dev.ruminate.transport.wire.JsonLines;
import dev.ruminate.transport.wire.StreamFraming;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
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
import tools.jackson.core.JacksonException;

/**
 * The decoder's fast path ({@link OllamaDeltaScanner}) against Jackson alone: the same bytes, framed
 * the same way, must give the same events, or fail with the same error, with the fast path on and
 * off. Over every recorded Ollama NDJSON stream at several cuttings (whole, single bytes, random
 * pieces of up to 7 and up to 1,460 bytes), and over generated {@code /api/chat} and
 * {@code /api/generate} streams whose lines vary the dominant shape every way the scanner has to
 * notice: escapes, {@code \}{@code u} escapes with valid and lone surrogates, multi-byte and
 * malformed UTF-8, unknown, reordered and duplicate fields, nulls, numbers and nested values where
 * strings belong, tool calls, usage, errors, whitespace between tokens, truncated JSON, trailing
 * garbage. Each stream is also decoded from lines lent as ranges of one reused array, scrambled after
 * each line: the decoder must keep nothing of a line past its call.
 */
@ExtendWith(NettyLeakCheck.class)
class OllamaFastPathDifferentialTest {

    private static final String PROVIDER = OllamaProvider.NAME;

    static Stream<String> recordings() {
        return Ollama.recordings().stream();
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
            assertSame(body, cutting, path);
        }
        assertLentSafe(body, path);
    }

    /** The recordings must exercise the fast path, or the comparison above proves nothing. */
    @Test
    void theRecordingsReachTheFastPath() {
        int recognised = 0;
        int lines = 0;
        OllamaDeltaScanner scanner = new OllamaDeltaScanner();
        for (String path : Ollama.recordings()) {
            for (JsonLine line : lines(Recorded.bytes(path))) {
                lines++;
                if (scanner.scan(line.array(), line.offset(), line.length(), new OllamaLine())) {
                    recognised++;
                }
            }
        }
        assertThat(recognised).isGreaterThan(lines * 9 / 10);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void generatedStreamsDecodeTheSame(long seed) {
        Random random = Seeds.random(seed);
        boolean malformed = random.nextInt(3) == 0;
        byte[] body = stream(random, malformed);
        int piece = 1 + random.nextInt(64);
        long cuts = random.nextLong();
        assertSame(body, b -> ByteChunks.random(b, new Random(cuts), piece), "seed " + seed);
        assertLentSafe(body, "seed " + seed);
    }

    /** Most generated lines must reach the fast path, or the generator tests only Jackson against itself. */
    @Test
    void generatedLinesMostlyReachTheFastPath() {
        OllamaDeltaScanner scanner = new OllamaDeltaScanner();
        Random random = new Random(7);
        int recognised = 0;
        int total = 2_000;
        for (int i = 0; i < total; i++) {
            byte[] line = new LineWriter(random, random.nextBoolean(), i % 3 == 0).delta()
                    .getBytes(StandardCharsets.UTF_8);
            if (scanner.scan(line, 0, line.length, new OllamaLine())) {
                recognised++;
            }
        }
        assertThat(recognised).isBetween(total * 55 / 100, total * 95 / 100);
    }

    private static void assertSame(byte[] body, Function<byte[], Flux<ByteBuf>> cutting, String what) {
        Outcome fast = decode(cutting.apply(body), true);
        Outcome jackson = decode(cutting.apply(body), false);
        assertThat(fast.events()).as(what).isEqualTo(jackson.events());
        assertThat(describe(fast.error())).as(what).isEqualTo(describe(jackson.error()));
    }

    private static Outcome decode(Flux<ByteBuf> body, boolean fastPath) {
        return Recorded.run(JsonLines.decode(body).transform(StreamDecoding.operator(StreamFraming.NDJSON,
                () -> new OllamaStreamDecoder(PROVIDER, fastPath))));
    }

    /**
     * Decodes the body's lines one by one, as ranges of one array at a moving offset, scrambled after
     * each call, with the fast path; and as the owned lines, with Jackson alone: the same events, or
     * the same failure.
     */
    private static void assertLentSafe(byte[] body, String what) {
        List<JsonLine> lines = lines(body);
        OllamaStreamDecoder reference = new OllamaStreamDecoder(PROVIDER, false);
        OllamaStreamDecoder lent = new OllamaStreamDecoder(PROVIDER, true);
        List<ChatEvent> expected = new ArrayList<>();
        List<ChatEvent> actual = new ArrayList<>();
        byte[] scratch = new byte[64];
        Random garbage = new Random(body.length);
        String expectedError = null;
        String actualError = null;
        for (JsonLine line : lines) {
            expectedError = run(() -> reference.decode(line, expected));
            int offset = 1 + garbage.nextInt(9);
            if (scratch.length < offset + line.length() + 9) {
                scratch = new byte[2 * (offset + line.length() + 9)];
            }
            garbage.nextBytes(scratch);
            System.arraycopy(line.array(), line.offset(), scratch, offset, line.length());
            JsonLine range = new JsonLine(scratch, offset, line.length(), line.line(), line.byteOffset());
            actualError = run(() -> lent.decode(range, actual));
            Arrays.fill(scratch, (byte) '"');
            if (expectedError != null || actualError != null) {
                break;
            }
        }
        if (expectedError == null && actualError == null) {
            expectedError = run(() -> reference.end(expected));
            actualError = run(() -> lent.end(actual));
        }
        assertThat(actual).as(what).isEqualTo(expected);
        assertThat(actualError).as(what).isEqualTo(expectedError);
    }

    private static @Nullable String run(Runnable step) {
        try {
            step.run();
            return null;
        } catch (JacksonException e) {
            // the stream's one parser counts offsets over the lines it was fed, which the fast path skips: as the
            // stream operator does, report the message without the parser's location (the line's position is kept)
            return e.getClass().getName() + ": " + e.getOriginalMessage();
        } catch (RuntimeException e) {
            return describe(e);
        }
    }

    private static List<JsonLine> lines(byte[] body) {
        return Objects.requireNonNull(JsonLines.decode(ByteChunks.whole(body)).collectList().block(Ollama.TIMEOUT));
    }

    private static @Nullable String describe(@Nullable Throwable error) {
        return error == null ? null : error.getClass().getName() + ": " + error.getMessage();
    }

    /** A generated stream: a first line, deltas, and (mostly) a done line. */
    private static byte[] stream(Random random, boolean malformed) {
        boolean chat = random.nextBoolean();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        line(body, chat ? "{\"model\":\"m\",\"created_at\":\"2025-08-23T11:02:35.98Z\",\"message\":{\"role\":\"assistant\","
                + "\"content\":\"\"},\"done\":false}" : "{\"model\":\"m\",\"created_at\":\"2025-08-23T11:02:35.98Z\","
                + "\"response\":\"\",\"done\":false}");
        int lines = 1 + random.nextInt(30);
        for (int i = 0; i < lines; i++) {
            line(body, new LineWriter(random, chat, malformed).delta());
        }
        int end = random.nextInt(8);
        if (end > 0) {
            line(body, "{\"model\":\"m\",\"created_at\":\"2025-08-23T11:02:36Z\"," + (chat
                    ? "\"message\":{\"role\":\"assistant\",\"content\":\"\"}," : "\"response\":\"\",")
                    + "\"done\":true,\"done_reason\":\"" + (end == 1 ? "length" : "stop")
                    + "\",\"total_duration\":602776194,\"prompt_eval_count\":81,\"eval_count\":53}");
        }
        if (random.nextInt(10) == 0) {
            line(body, new LineWriter(random, chat, malformed).delta()); // after done: ignored
        }
        return body.toByteArray();
    }

    private static void line(ByteArrayOutputStream body, String json) {
        body.writeBytes(JsonNoise.utf8(json + (json.hashCode() % 5 == 0 ? "\r\n" : "\n")));
    }

    /** Writes one delta line: mostly the dominant shape, with one or more of the variations the scanner must notice. */
    private static final class LineWriter extends NoisyJsonWriter {

        private static final String[] EXTRA_TOP = {"done_reason", "total_duration", "prompt_eval_count", "eval_count",
                "error", "context", "x_unknown", "thinking", "response", "message"};
        private static final String[] EXTRA_MESSAGE = {"tool_calls", "images", "x_other", "thinking", "content",
                "tool_name"};

        private final boolean chat;

        LineWriter(Random random, boolean chat, boolean malformed) {
            super(random, malformed, 8, " ", "\t", "\r", "  ", " \t ");
            this.chat = chat;
        }

        String delta() {
            out.append(random.nextInt(30) == 0 ? " " : "").append('{');
            List<String> fields = new ArrayList<>(List.of("model", "created_at"));
            boolean thinking = random.nextBoolean();
            if (chat) {
                fields.add("message");
            } else {
                fields.add("response");
                if (thinking) {
                    fields.add("thinking");
                }
            }
            fields.add("done");
            if (random.nextInt(5) == 0) {
                fields.add(EXTRA_TOP[random.nextInt(EXTRA_TOP.length)]);
            }
            if (random.nextInt(12) == 0) {
                fields.add(EXTRA_TOP[random.nextInt(EXTRA_TOP.length)]);
            }
            if (random.nextInt(6) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(25) == 0) {
                fields.remove(random.nextInt(fields.size()));
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                topValue(name, thinking);
            }
            ws();
            out.append('}');
            if (random.nextInt(30) == 0) {
                out.append(random.nextBoolean() || !malformed ? " " : pick("{}", " x", ","));
            }
            String json = out.toString();
            if (!malformed) {
                return json;
            }
            if (random.nextInt(20) == 0) {
                return json.substring(0, 1 + random.nextInt(json.length() - 1)); // truncated
            }
            if (random.nextInt(20) == 0) {
                // a byte flipped to a structural or quoting character
                int at = random.nextInt(json.length());
                char c = "\"{}[],:\\0an ".charAt(random.nextInt(12));
                return json.substring(0, at) + c + json.substring(at + 1);
            }
            return json;
        }

        private void topValue(String name, boolean thinking) {
            switch (name) {
                case "model" -> scalar(true);
                case "created_at" -> out.append(random.nextInt(20) > 0 ? "\"2025-08-23T11:02:35.981511874Z\"" : pick("null", "12", "{}"));
                case "message" -> message(thinking);
                case "response", "thinking" -> text();
                case "done" -> out.append(random.nextInt(25) > 0 ? "false" : pick("true", "\"false\"", "null", "0", "{}"));
                case "done_reason" -> out.append(pick("null", "\"stop\"", "12"));
                case "total_duration" -> out.append(pick("602776194", "null", "1.5"));
                case "prompt_eval_count", "eval_count" -> out.append(pick("null", "81", "-3", "1.5e2", "\"x\"", "{}",
                        "99999999999999999999"));
                case "error" -> out.append(random.nextInt(3) > 0 ? "null" : pick("\"boom\"", "{\"message\":\"boom\"}"));
                case "context" -> out.append(pick("[151644,872]", "null", "[]"));
                default -> scalar(false);
            }
        }

        private void message(boolean thinking) {
            ws();
            int shape = random.nextInt(40);
            if (shape == 0) {
                out.append("null");
                return;
            }
            if (shape == 1 && malformed) {
                out.append(pick("\"text\"", "[]", "12"));
                return;
            }
            out.append('{');
            List<String> fields = new ArrayList<>(List.of("role", "content"));
            if (thinking) {
                fields.add("thinking");
            }
            if (random.nextInt(5) == 0) {
                fields.add(EXTRA_MESSAGE[random.nextInt(EXTRA_MESSAGE.length)]);
            }
            if (random.nextInt(6) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(30) == 0) {
                fields.clear();
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name, 40);
                switch (name) {
                    case "role" -> out.append(random.nextInt(10) > 0 ? "\"assistant\"" : pick("null", "1", "[]"));
                    case "content", "thinking" -> text();
                    case "tool_calls" -> out.append(pick("null", "[]", "[ ]", "[{\"function\":{\"name\":\"f\",\"arguments\":{\"a\":1}}}]",
                            "[null]", "{}"));
                    case "images" -> out.append(pick("null", "[]", "[\"aGk=\"]"));
                    default -> scalar(false);
                }
            }
            ws();
            out.append('}');
        }

        /** A text value: mostly a string, now and then null, a number or a nested value. */
        private void text() {
            int kind = random.nextInt(30);
            switch (kind) {
                case 0 -> out.append("null");
                case 1 -> out.append(pick("12", "-1.5e3", "true", "false"));
                case 2 -> out.append(malformed ? pick("{}", "[\"a\"]", "01", "-", "nul") : pick("{}", "[\"a\"]"));
                default -> string();
            }
        }

        private void scalar(boolean stringMostly) {
            int kind = stringMostly ? random.nextInt(30) : random.nextInt(6);
            switch (kind) {
                case 0 -> out.append("null");
                case 1 -> out.append(malformed ? pick("0", "-7", "1.25", "3e9", "01", "1.e3", "+1", "9".repeat(120))
                        : pick("0", "-7", "1.25", "3e9", "1E-2", "-0.0e+00", "9".repeat(120)));
                case 2 -> out.append(malformed ? pick("true", "false", "truex", "{}", "{\"a\":[1,{\"b\":null}]}", "[1,2]")
                        : pick("true", "false", "{}", "{\"a\":[1,{\"b\":null}]}", "[1,2]"));
                default -> string();
            }
        }

        /** A JSON string of 0 to 8 pieces: ASCII, escapes, unicode escapes, raw multi-byte text, and now and then a malformed piece. */
        private void string() {
            string(40, roll -> {
                int kind = roll < 6 ? 0 : roll < 9 ? 1 : roll < 11 ? 2 : roll == 11 ? 3 : roll < 16 ? 4 : roll == 16 ? 5
                        : roll == 17 ? 6 : roll == 18 ? 7 : 8;
                return !malformed && (kind == 5 || kind == 7) ? 8 : kind;
            });
        }
    }
}
