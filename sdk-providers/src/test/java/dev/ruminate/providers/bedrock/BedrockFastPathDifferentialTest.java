package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.testing.JsonNoise;
import dev.ruminate.providers.testing.NoisyJsonWriter;
import dev.ruminate.providers.testing.ByteChunks;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.EventStreamFrames;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.transport.wire.EventStreamMessage;
import dev.ruminate.transport.wire.EventStreams;
import dev.ruminate.transport.wire.StreamFraming;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
 * The Bedrock decoder's fast path ({@link DeltaScanner}) against Jackson alone: the same bytes, framed
 * the same way, must give the same events, or fail with the same error, with the fast path on and off.
 * Over every recorded ConverseStream body and a scripted one (reasoning with a signature, text, two tool
 * calls) at every cutting (whole, single bytes, random pieces of up to 7 and of up to 1460 bytes), and
 * over generated streams whose {@code contentBlockDelta} payloads vary the dominant shape every way the
 * scanner has to notice: escapes, {@code \}{@code u} escapes with valid and lone surrogates, multi-byte
 * and malformed UTF-8, unknown, reordered and duplicate fields, nulls and numbers where strings belong,
 * nested values, signatures, whitespace between tokens, truncation and trailing garbage.
 *
 * <p>Each stream is also decoded the way a lending framer hands its messages over: each payload copied
 * into a reused scratch array at an offset, between garbage, and overwritten as soon as the decoder
 * returns; a decoder that read outside its range or kept the array past the call would differ.
 */
@ExtendWith(NettyLeakCheck.class)
class BedrockFastPathDifferentialTest {

    static Stream<String> recordings() {
        return Recorded.under("bedrock", ".eventstream").stream();
    }

    static LongStream seeds() {
        return Seeds.of(1_000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void everyRecordingDecodesTheSameAtEveryCutting(String path) {
        assertSameAtEveryCutting(Recorded.bytes(path), path);
    }

    @Test
    void aScriptedStreamWithReasoningTextAndToolsDecodesTheSameAtEveryCutting() {
        byte[] body = BedrockScript.create()
                .reasoning("Let me think about \"this\" — 😀 step\nby step.", "c2lnbmF0dXJl")
                .text("The answer: 42 \\o/ é中文")
                .toolUse("tooluse_0", "get_weather", "{\"city\":\"Paris\",\"unit\":\"c\"}")
                .toolUse("tooluse_1", "get_time", "{\"zone\":\"Europe/Paris\"}")
                .stopReason("tool_use")
                .usage(12, 34)
                .toEventStream();
        assertSameAtEveryCutting(body, "scripted");
        assertThat(recognised(body)).as("the scripted stream reaches the fast path").isGreaterThan(5);
    }

    /** The recordings must exercise the fast path, or the comparison above proves nothing. */
    @Test
    void theRecordingsReachTheFastPath() {
        int recognised = 0;
        for (String path : Recorded.under("bedrock", ".eventstream")) {
            recognised += recognised(Recorded.bytes(path));
        }
        assertThat(recognised).isGreaterThan(3);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void generatedStreamsDecodeTheSame(long seed) {
        Random random = Seeds.random(seed);
        boolean malformed = random.nextInt(3) == 0;
        byte[] body = new StreamWriter(random, malformed).stream();
        int piece = 1 + random.nextInt(64);
        long cuts = random.nextLong();
        assertSame(body, b -> ByteChunks.random(b, new Random(cuts), piece), "seed " + seed);
        assertLentSame(body, "seed " + seed);
    }

    /** Most generated deltas must reach the fast path, or the generated streams test only Jackson against itself. */
    @Test
    void generatedDeltasMostlyReachTheFastPath() {
        DeltaScanner scanner = new DeltaScanner();
        Random random = new Random(7);
        int recognised = 0;
        int total = 2_000;
        for (int i = 0; i < total; i++) {
            byte[] payload = new StreamWriter(random, false).deltaPayload();
            if (scanner.scan(payload, 0, payload.length)) {
                recognised++;
            }
        }
        assertThat(recognised).isBetween(total * 55 / 100, total * 95 / 100);
    }

    private static int recognised(byte[] body) {
        DeltaScanner scanner = new DeltaScanner();
        int n = 0;
        for (EventStreamMessage m : messages(body)) {
            if ("contentBlockDelta".equals(m.headerText(":event-type"))
                    && scanner.scan(m.payloadArray(), m.payloadOffset(), m.payloadLength())) {
                n++;
            }
        }
        return n;
    }

    private static List<EventStreamMessage> messages(byte[] body) {
        List<EventStreamMessage> out = new ArrayList<>();
        EventStreams.decode(ByteChunks.whole(body)).onErrorResume(e -> Flux.empty()).doOnNext(out::add).blockLast();
        return out;
    }

    private static void assertSameAtEveryCutting(byte[] body, String what) {
        Random random = Seeds.random(what.hashCode());
        List<Function<byte[], Flux<ByteBuf>>> cuttings = List.of(
                ByteChunks::whole,
                b -> ByteChunks.random(b, new Random(1), 1),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 7),
                b -> ByteChunks.random(b, new Random(random.nextLong()), 1460));
        for (Function<byte[], Flux<ByteBuf>> cutting : cuttings) {
            assertSame(body, cutting, what);
        }
        assertLentSame(body, what);
    }

    private static void assertSame(byte[] body, Function<byte[], Flux<ByteBuf>> cutting, String what) {
        Outcome fast = decode(cutting.apply(body), true);
        Outcome jackson = decode(cutting.apply(body), false);
        assertThat(fast.events()).as(what).isEqualTo(jackson.events());
        assertThat(describe(fast.error())).as(what).isEqualTo(describe(jackson.error()));
    }

    private static Outcome decode(Flux<ByteBuf> body, boolean fastPath) {
        return Recorded.run(StreamFraming.EVENT_STREAM.decode(body, WireLimits.DEFAULT)
                .transform(StreamDecoding.operator(StreamFraming.EVENT_STREAM,
                        () -> new BedrockStreamDecoder("bedrock", "model", fastPath))));
    }

    /** Decodes as from a lending framer, fast path on and off, and compares. */
    private static void assertLentSame(byte[] body, String what) {
        List<EventStreamMessage> messages = messages(body);
        LentRun fast = decodeLent(messages, true);
        LentRun jackson = decodeLent(messages, false);
        assertThat(fast.events).as(what + ", lent").isEqualTo(jackson.events);
        assertThat(fast.error).as(what + ", lent").isEqualTo(jackson.error);
    }

    private record LentRun(List<ChatEvent> events, @Nullable String error) {
    }

    private static LentRun decodeLent(List<EventStreamMessage> messages, boolean fastPath) {
        BedrockStreamDecoder decoder = new BedrockStreamDecoder("bedrock", "model", fastPath);
        List<ChatEvent> events = new ArrayList<>();
        byte[] scratch = new byte[64];
        try {
            for (EventStreamMessage m : messages) {
                byte[] payload = m.payload();
                int offset = 1 + payload.length % 13;
                if (scratch.length < payload.length + 2 * offset) {
                    scratch = new byte[2 * (payload.length + 2 * offset)];
                }
                Arrays.fill(scratch, (byte) '"');
                System.arraycopy(payload, 0, scratch, offset, payload.length);
                decoder.decode(new EventStreamMessage(m.headers(), scratch, offset, payload.length, m.byteOffset()),
                        events);
                // the frame is gone once the call returns
                Arrays.fill(scratch, (byte) '}');
            }
            decoder.end(events);
        } catch (JacksonException e) {
            // as the stream operator reports it: without the parser's stream-wide location, which counts only what
            // the parser read
            return new LentRun(events, e.getClass().getName() + ": " + e.getOriginalMessage());
        } catch (RuntimeException e) {
            return new LentRun(events, describe(e));
        }
        return new LentRun(events, null);
    }

    private static @Nullable String describe(@Nullable Throwable error) {
        return error == null ? null : error.getClass().getName() + ": " + error.getMessage();
    }

    /** Writes one ConverseStream body: mostly text deltas of the dominant shape, with the variations the scanner must notice. */
    private static final class StreamWriter extends NoisyJsonWriter {

        /**
         * {@code malformed} false: well-formed payloads only. Whitespace between tokens has no line breaks: the
         * Jackson path's one parser per stream counts the line breaks of every payload it has read, and reports the
         * line of a malformed payload from that count, which would then differ by the line breaks of the payloads the
         * fast path read instead (Bedrock's compact JSON has none).
         */
        StreamWriter(Random random, boolean malformed) {
            super(random, malformed, 12, " ", "\t", "  ", " \t ");
        }

        byte[] stream() {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            body.writeBytes(EventStreamFrames.event("messageStart", "{\"role\":\"assistant\",\"p\":\"abc\"}"));
            int events = 1 + random.nextInt(30);
            for (int i = 0; i < events; i++) {
                int roll = random.nextInt(20);
                if (roll == 0) {
                    body.writeBytes(EventStreamFrames.event("contentBlockStart", "{\"contentBlockIndex\":" + random.nextInt(4)
                            + ",\"start\":{\"toolUse\":{\"toolUseId\":\"tooluse_" + i + "\",\"name\":\"f\"}},\"p\":\"ab\"}"));
                } else if (roll == 1) {
                    body.writeBytes(EventStreamFrames.event("contentBlockStop", "{\"contentBlockIndex\":" + random.nextInt(4) + "}"));
                } else {
                    body.writeBytes(frame("contentBlockDelta", deltaPayload()));
                }
            }
            if (random.nextInt(5) > 0) {
                body.writeBytes(EventStreamFrames.event("messageStop", "{\"stopReason\":\"end_turn\",\"p\":\"a\"}"));
                body.writeBytes(EventStreamFrames.event("metadata",
                        "{\"usage\":{\"inputTokens\":3,\"outputTokens\":5,\"totalTokens\":8},\"metrics\":{\"latencyMs\":10}}"));
            }
            return body.toByteArray();
        }

        private static byte[] frame(String type, byte[] payload) {
            return EventStreamFrames.frame(Map.of(":event-type", type, ":content-type", "application/json",
                    ":message-type", "event"), payload);
        }

        /** One {@code contentBlockDelta} payload, as bytes (malformed UTF-8 put in). */
        byte[] deltaPayload() {
            out.setLength(0);
            return JsonNoise.utf8(delta());
        }

        private String delta() {
            ws();
            out.append('{');
            List<String> fields = new ArrayList<>(List.of("contentBlockIndex", "delta"));
            if (random.nextInt(4) > 0) {
                fields.add("p");
            }
            if (random.nextInt(10) == 0) {
                fields.add("x_unknown");
            }
            if (random.nextInt(5) == 0) {
                Collections.shuffle(fields, random);
            }
            if (random.nextInt(30) == 0) {
                fields.add(random.nextBoolean() ? "delta" : "contentBlockIndex"); // duplicate
            }
            if (random.nextInt(30) == 0) {
                fields.remove(random.nextInt(fields.size()));
            }
            boolean first = true;
            for (String name : fields) {
                first = comma(first);
                key(name);
                switch (name) {
                    case "contentBlockIndex" -> out.append(random.nextInt(8) > 0 ? String.valueOf(random.nextInt(4))
                            : pick("10", "-1", "1.0", "\"0\"", "null", "1e0", "123456789", "9999999999"));
                    case "delta" -> deltaObject();
                    case "p" -> padding();
                    default -> out.append(pick("null", "true", "12", "\"x\"", "{}", "[1,{\"a\":null}]", "{\"text\":\"t\"}"));
                }
            }
            ws();
            out.append('}');
            if (random.nextInt(25) == 0) {
                out.append(random.nextBoolean() || !malformed ? " " : " x");
            }
            String json = out.toString();
            if (malformed && random.nextInt(20) == 0) {
                return json.substring(0, random.nextInt(json.length())); // truncated
            }
            if (malformed && random.nextInt(20) == 0) {
                // a byte flipped to a structural or quoting character
                int at = random.nextInt(json.length());
                char c = "\"{}[],:\\0an ".charAt(random.nextInt(12));
                return json.substring(0, at) + c + json.substring(at + 1);
            }
            return json;
        }

        private void padding() {
            if (random.nextInt(10) == 0) {
                out.append(pick("null", "7", "\"\""));
                return;
            }
            out.append('"');
            int n = random.nextInt(40);
            for (int i = 0; i < n; i++) {
                out.append((char) ('a' + random.nextInt(26)));
            }
            out.append('"');
        }

        private void deltaObject() {
            ws();
            int shape = random.nextInt(40);
            if (shape == 0) {
                out.append(pick("null", "\"text\"", "[]", "{}"));
                return;
            }
            out.append('{');
            List<String> members = new ArrayList<>();
            int kind = random.nextInt(10);
            members.add(kind < 4 ? "text" : kind < 8 ? "reasoningContent" : "toolUse");
            if (random.nextInt(20) == 0) {
                members.add(pick("text", "reasoningContent", "toolUse", "x_other"));
            }
            boolean first = true;
            for (String name : members) {
                first = comma(first);
                key(name, 40);
                switch (name) {
                    case "text" -> textValue();
                    case "reasoningContent" -> inner(List.of("text", "signature", "redactedContent"), 15);
                    case "toolUse" -> inner(List.of("input", "toolUseId"), 20);
                    default -> out.append(pick("null", "1", "\"x\"", "{\"text\":\"y\"}"));
                }
            }
            ws();
            out.append('}');
        }

        /** The object inside reasoningContent or toolUse: mostly its one string member, sometimes others or more. */
        private void inner(List<String> names, int odds) {
            ws();
            if (random.nextInt(40) == 0) {
                out.append(pick("null", "\"s\"", "{}"));
                return;
            }
            out.append('{');
            List<String> members = new ArrayList<>();
            members.add(random.nextInt(odds) > 0 ? names.get(0) : names.get(random.nextInt(names.size())));
            if (random.nextInt(25) == 0) {
                members.add(names.get(random.nextInt(names.size())));
            }
            boolean first = true;
            for (String name : members) {
                first = comma(first);
                key(name);
                textValue();
            }
            ws();
            out.append('}');
        }

        private void textValue() {
            int kind = random.nextInt(30);
            switch (kind) {
                case 0 -> out.append("null");
                case 1 -> out.append(malformed ? pick("12", "-1.5e3", "true", "01", "1.", "-") : pick("12", "-1.5e3", "true", "false"));
                case 2 -> out.append(pick("{}", "[]", "{\"text\":\"x\"}", "[\"a\"]"));
                default -> string();
            }
        }

        /** A JSON string of 0 to 8 pieces: ASCII, escapes, unicode escapes, raw multi-byte text, and now and then a malformed piece. */
        private void string() {
            string(60, roll -> {
                int kind = roll < 4 ? 0 : roll < 6 ? 1 : roll == 6 ? 2 : roll == 7 ? 3 : roll < 11 ? 4 : roll == 11 ? 5
                        : roll == 12 ? 6 : roll == 13 ? 7 : 8;
                return !malformed && (kind == 5 || kind == 7) ? 0 : kind;
            });
        }
    }
}
