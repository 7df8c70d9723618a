package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The event-stream decoder against AWS's published vectors (aws-sdk-go testdata, see
 * {@code vectors/eventstream/README.md}), and frames cut short, oversized or of unknown header types.
 */
class EventStreamsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Stream<String> positive() {
        return Stream.of("all_headers", "empty_message", "int32_header", "payload_no_headers", "payload_one_str_header");
    }

    static byte[] vector(String path) {
        try (InputStream in = EventStreamsTest.class.getResourceAsStream("/vectors/eventstream/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no vector " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<EventStreamMessage> decodeAll(byte[] body) {
        return EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(body))).collectList().block();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("positive")
    void decodesEachPositiveVectorAsPublished(String name) {
        JsonNode expected = JSON.readTree(vector("decoded/positive/" + name));
        List<EventStreamMessage> messages = decodeAll(vector("encoded/positive/" + name));

        assertThat(messages).hasSize(1);
        EventStreamMessage message = messages.get(0);
        assertThat(message.byteOffset()).isZero();
        byte[] payload = expected.has("payload") ? Base64.getDecoder().decode(expected.get("payload").asString()) : new byte[0];
        assertThat(message.payload()).isEqualTo(payload);
        JsonNode headers = expected.get("headers");
        int count = headers == null || headers.isNull() ? 0 : headers.size();
        assertThat(message.headers()).hasSize(count);
        for (int i = 0; i < count; i++) {
            JsonNode h = headers.get(i);
            EventStreamHeader actual = message.headers().get(i);
            assertThat(actual.name()).isEqualTo(h.get("name").asString());
            assertThat(actual.type().ordinal()).as("type code of %s", actual.name()).isEqualTo(h.get("type").asInt());
            assertThat(wireValue(actual)).as("value of %s", actual.name()).isEqualTo(h.get("value").toString());
        }
    }

    /** Renders a decoded header value the way the vectors' JSON does. */
    private static String wireValue(EventStreamHeader header) {
        Object v = header.value();
        if (v instanceof ByteBuffer b) {
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            return quoted(Base64.getEncoder().encodeToString(bytes));
        }
        if (v instanceof String s) {
            return quoted(Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8)));
        }
        if (v instanceof Instant t) {
            return Long.toString(t.toEpochMilli());
        }
        if (v instanceof UUID u) {
            ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
            return quoted(Base64.getEncoder().encodeToString(b.array()));
        }
        return v.toString();
    }

    private static String quoted(String s) {
        return "\"" + s + "\"";
    }

    @Test
    void readsTheStringHeadersBedrockUses() {
        EventStreamMessage message = decodeAll(vector("encoded/positive/payload_one_str_header")).get(0);
        assertThat(message.headerText("content-type")).isEqualTo("application/json");
        assertThat(message.headerText(":event-type")).isNull();
        assertThat(message.payloadText()).isEqualTo("{'foo':'bar'}");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"corrupted_header_len", "corrupted_headers", "corrupted_length", "corrupted_payload"})
    void failsEachNegativeVectorWithTheChecksumAwsNames(String name) {
        String expected = new String(vector("decoded/negative/" + name), StandardCharsets.UTF_8).trim();
        StepVerifier.create(EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(vector("encoded/negative/" + name)))))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(ProtocolException.class);
                    assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.CHECKSUM_MISMATCH);
                    assertThat(e.getMessage()).containsIgnoringCase(expected);
                })
                .verify();
    }

    @Test
    void deliversTheMessagesBeforeACorruptedOneThenFails() {
        byte[] good = vector("encoded/positive/payload_one_str_header");
        byte[] bad = vector("encoded/negative/corrupted_payload");
        StepVerifier.create(EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(concat(good, good, bad)))))
                .expectNextCount(2)
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).byteOffset()).isEqualTo(2L * good.length))
                .verify();
    }

    @Test
    void aBodyCutInsideAFrameFailsAsMalformedAfterTheWholeFrames() {
        byte[] frame = vector("encoded/positive/all_headers");
        byte[] body = concat(frame, frame);
        for (int cut = frame.length + 1; cut < body.length; cut++) {
            byte[] shortBody = java.util.Arrays.copyOf(body, cut);
            StepVerifier.create(EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(shortBody))))
                    .expectNextCount(1)
                    .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason())
                            .isEqualTo(ProtocolException.Reason.MALFORMED_FRAME))
                    .verify();
        }
    }

    @Test
    void anUpstreamErrorInsideAFrameDropsTheCutFrameAndPassesTheError() {
        byte[] frame = vector("encoded/positive/payload_no_headers");
        IOException cut = new IOException("connection reset");
        Flux<ByteBuf> body = Flux.concat(Flux.just(Unpooled.wrappedBuffer(frame), Unpooled.wrappedBuffer(frame, 0, 7)),
                Flux.error(cut));
        StepVerifier.create(EventStreams.decode(body)).expectNextCount(1).expectErrorMatches(e -> e == cut).verify();
    }

    @Test
    void aFrameOverTheLimitFailsBeforeItIsBuffered() {
        byte[] frame = vector("encoded/positive/all_headers");
        StepVerifier.create(EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(frame)), new WireLimits(1024, 100)))
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason())
                        .isEqualTo(ProtocolException.Reason.LINE_TOO_LONG))
                .verify();
    }

    @Test
    void anUnknownHeaderTypeIsMalformed() {
        byte[] frame = Frames.encode(new byte[] {1, 'x', 42}, new byte[] {'{', '}'});
        StepVerifier.create(EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(frame))))
                .expectErrorSatisfies(e -> {
                    assertThat(((ProtocolException) e).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_FRAME);
                    assertThat(e.getMessage()).contains("unknown header value type 42");
                })
                .verify();
    }

    @Test
    void aHeaderRunningPastTheHeadersIsMalformed() {
        // a string header announcing 200 bytes of value within a 6-byte header block
        byte[] frame = Frames.encode(new byte[] {1, 'x', 7, 0, (byte) 200, 'a'}, new byte[0]);
        StepVerifier.create(EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(frame))))
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason())
                        .isEqualTo(ProtocolException.Reason.MALFORMED_FRAME))
                .verify();
    }

    @Test
    void impossibleLengthsWithAValidPreludeChecksumAreMalformed() {
        byte[] prelude = Frames.prelude(8, 0);
        byte[] frame = concat(prelude, new byte[4]);
        StepVerifier.create(EventStreams.decode(Flux.just(Unpooled.wrappedBuffer(frame))))
                .expectErrorSatisfies(e -> assertThat(((ProtocolException) e).reason())
                        .isEqualTo(ProtocolException.Reason.MALFORMED_FRAME))
                .verify();
    }

    @Test
    void doesNotReleaseOrRetainTheBuffersItReads() {
        ByteBuf buf = Unpooled.wrappedBuffer(vector("encoded/positive/all_headers"));
        decodeAll(new byte[0]);
        EventStreams.decode(Flux.just(buf)).blockLast();
        assertThat(buf.refCnt()).isEqualTo(1);
        buf.release();
    }

    @Test
    void anEmptyBodyHasNoMessages() {
        assertThat(decodeAll(new byte[0])).isEmpty();
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    static List<byte[]> all(String... names) {
        List<byte[]> out = new ArrayList<>();
        for (String n : names) {
            out.add(vector("encoded/positive/" + n));
        }
        return out;
    }
}
