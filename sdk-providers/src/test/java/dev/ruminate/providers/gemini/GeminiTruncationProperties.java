package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.providers.gemini.GeminiEmulated.Reduced;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Gemini stream truncated at a random byte (anywhere, inside a multi-byte character, inside a
 * {@code data:} field name, at a line end), served over real HTTP in random pieces, either by a
 * connection that closes mid-body or by a body that simply ends there, fails typed and carries the
 * message reduced from exactly what the delivered bytes hold.
 *
 * <p>A closed connection is an {@link IncompleteStreamException} whose partial message is that of
 * the complete lines delivered. A body that ends inside a {@code data:} line's JSON is a
 * {@link ProtocolException} {@code MALFORMED_JSON} naming that line and its byte offset; one that
 * ends between lines before a {@code finishReason} an {@link IncompleteStreamException}. Either way
 * the partial message is there exactly when an event was delivered, and is a prefix of the whole
 * message: the same parts in the same places, text and arguments cut short at most, no signature
 * that the whole message does not hold on that part.
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiTruncationProperties {

    private static final String SSE = "text/event-stream";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> STREAMS = Recorded.under("gemini", ".sse");

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** Four truncations of every recording and sixteen of random scripts. */
    static LongStream seeds() {
        return Seeds.of(6 * STREAMS.size());
    }

    /** Where a truncation falls. */
    private enum Place { ANYWHERE, INSIDE_A_CHARACTER, INSIDE_A_FIELD_NAME, AT_A_LINE_END }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aTruncatedStreamFailsTypedWithWhatTheDeliveredBytesHold(long seed) {
        Random random = Seeds.random(seed);
        // two seeds in three truncate a recording, one a random script
        boolean recording = Math.floorMod(seed, 3) != 2;
        String path = STREAMS.get(Math.floorMod(seed, STREAMS.size()));
        GeminiRandomScript script = recording ? null : GeminiRandomScript.of(random);
        String source = script == null ? path : "script " + script;
        byte[] body = script == null ? Recorded.bytes(path) : script.body;
        boolean vertex = script == null ? GeminiEmulated.isVertex(path) : random.nextBoolean();
        Place place = Place.values()[random.nextInt(Place.values().length)];
        int cut = offset(random, body, place);
        boolean reset = random.nextBoolean();
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(32));
        byte[] delivered = Arrays.copyOf(body, cut);
        String what = String.format("%s %s at byte %d of %d (%s), cut by %s", source,
                reset ? "reset" : "ended", cut, body.length, place, plan);

        emulator.enqueue(reset ? EmulatorResponse.bytes(SSE, body).resetAfter(cut).chunked(plan)
                : EmulatorResponse.bytes(SSE, delivered).chunked(plan));
        Reduced actual = GeminiEmulated.reduce(GeminiEmulated.provider(emulator, vertex).stream(GeminiEmulated.REQUEST));

        Reduced expected = reset ? GeminiEmulated.referenceOfReset(vertex, delivered) : GeminiEmulated.referenceOfBody(vertex, delivered);
        ChatResult whole = GeminiEmulated.referenceOfBody(vertex, body).ok();
        if (!reset && expected.error() == null) {
            // only line ends were missing: the body ended after its last event, which is how Gemini ends a stream
            assertThat(Provenances.checked(actual.ok())).as(what).isEqualTo(whole);
            assertThat(completeLines(body, cut)).as(what).isTrue();
            return;
        }
        RuminateException error = actual.failed();
        if (reset) {
            assertThat(error).as(what).isInstanceOf(IncompleteStreamException.class);
        } else {
            assertThat(error).as(what).isInstanceOfAny(IncompleteStreamException.class, ProtocolException.class)
                    .hasSameClassAs(expected.failed());
            long[] unfinished = unfinishedJson(delivered);
            if (unfinished != null) {
                assertThat(error).as(what).isInstanceOf(ProtocolException.class);
                ProtocolException p = (ProtocolException) error;
                assertThat(p.reason()).as(what).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
                assertThat(new long[] {p.line(), p.byteOffset()}).as("%s: line and offset", what).isEqualTo(unfinished);
            } else if (error instanceof ProtocolException p) {
                ProtocolException e = (ProtocolException) expected.failed();
                assertThat(List.of(p.reason(), p.line(), p.byteOffset())).as(what).isEqualTo(List.of(e.reason(), e.line(), e.byteOffset()));
            }
        }
        AssistantMessage partial = error.partial();
        assertThat(Provenances.checkedPartial(partial)).as("%s: partial", what).isEqualTo(expected.partial());
        assertThat(partial != null).as("%s: a partial message exactly when an event was delivered", what)
                .isEqualTo(deliveredEvents(delivered, reset) > 0);
        if (partial != null) {
            assertPrefix(partial, whole.message(), what);
        }
    }

    /** A random offset, 1 to the length less one, at the kind of place asked for if the body has one. */
    private static int offset(Random random, byte[] body, Place place) {
        IntPredicate test = switch (place) {
            case ANYWHERE -> at -> true;
            case INSIDE_A_CHARACTER -> at -> (body[at] & 0xC0) == 0x80;
            case INSIDE_A_FIELD_NAME -> at -> insideFieldName(body, at);
            case AT_A_LINE_END -> at -> body[at - 1] == '\n' || body[at - 1] == '\r';
        };
        int[] candidates = IntStream.range(1, body.length).filter(test).toArray();
        return candidates.length == 0 ? 1 + random.nextInt(body.length - 1) : candidates[random.nextInt(candidates.length)];
    }

    private static boolean insideFieldName(byte[] body, int at) {
        for (int start = Math.max(0, at - 4); start < at; start++) {
            boolean lineStart = start == 0 || body[start - 1] == '\n';
            if (lineStart && start + 5 <= body.length && new String(body, start, 5, StandardCharsets.US_ASCII).equals("data:")) {
                return true;
            }
        }
        return false;
    }

    /** Tells whether the bytes after a cut are only line ends. */
    private static boolean completeLines(byte[] body, int cut) {
        for (int i = cut; i < body.length; i++) {
            if (body[i] != '\r' && body[i] != '\n') {
                return false;
            }
        }
        return true;
    }

    /**
     * When the bytes end inside a {@code data:} line whose JSON has begun but is not whole, the line
     * number and byte offset of that line; otherwise null.
     */
    private static long @Nullable [] unfinishedJson(byte[] delivered) {
        int start = GeminiEmulated.completeLines(delivered);
        String last = new String(delivered, start, delivered.length - start, StandardCharsets.UTF_8);
        if (!last.startsWith("data:") || last.substring(5).isBlank() || isJson(last.substring(5))) {
            return null;
        }
        String before = new String(delivered, 0, start, StandardCharsets.UTF_8);
        // \r\n ends one line; a lone \r or \n ends one too
        long lines = 1 + before.replace("\r\n", "\n").chars().filter(c -> c == '\n' || c == '\r').count();
        return new long[] {lines, start};
    }

    /** How many events with JSON data the delivered bytes hold (complete lines only, after a reset). */
    private static int deliveredEvents(byte[] delivered, boolean reset) {
        int end = reset ? GeminiEmulated.completeLines(delivered) : delivered.length;
        List<SseEvent> events = SseSplitter.split(new String(delivered, 0, end, StandardCharsets.UTF_8));
        return (int) events.stream().filter(e -> isJson(new String(e.data(), StandardCharsets.UTF_8))).count();
    }

    private static boolean isJson(String text) {
        try {
            JSON.readTree(text);
            return !text.isBlank();
        } catch (JacksonException e) {
            return false;
        }
    }

    /**
     * Checks that a partial message is a prefix of the whole one: no more parts, each of the same
     * kind and in the same place, its text or arguments a prefix of the whole part's, its seals
     * among the whole part's (a signature is never on another part, nor a different one).
     */
    static void assertPrefix(AssistantMessage partial, AssistantMessage whole, String what) {
        assertThat(partial.provider()).as(what).isEqualTo(whole.provider());
        if (partial.model() != null) {
            assertThat(partial.model()).as(what).isEqualTo(whole.model());
        }
        assertThat(partial.parts().size()).as("%s: parts %s of %s", what, partial.parts(), whole.parts())
                .isLessThanOrEqualTo(whole.parts().size());
        for (int i = 0; i < partial.parts().size(); i++) {
            Part p = partial.parts().get(i);
            Part w = whole.parts().get(i);
            String at = what + ": part " + i;
            assertThat(p).as(at).hasSameClassAs(w);
            assertSealsWithin(p.seals(), w.seals(), at);
            if (p instanceof ReasoningPart r) {
                ReasoningPart wr = (ReasoningPart) w;
                assertThat(wr.text()).as(at).startsWith(r.text());
                assertThat(List.of(r.summary(), Objects.toString(r.source()))).as(at)
                        .isEqualTo(List.of(wr.summary(), Objects.toString(wr.source())));
            } else if (p instanceof TextPart t) {
                assertThat(((TextPart) w).text()).as(at).startsWith(t.text());
            } else if (p instanceof ToolCallPart c) {
                ToolCallPart wc = (ToolCallPart) w;
                assertThat(c.name()).as(at).isEqualTo(wc.name());
                assertThat(Objects.toString(c.id())).as(at).isEqualTo(Objects.toString(wc.id()));
                assertThat(wc.arguments()).as(at).startsWith(c.arguments());
            } else if (p instanceof ServerToolPart s) {
                assertThat(s).as(at).isEqualTo(w);
            }
        }
    }

    private static void assertSealsWithin(Seals partial, Seals whole, String at) {
        List<@Nullable String> p = values(partial);
        List<@Nullable String> w = values(whole);
        for (int k = 0; k < p.size(); k++) {
            if (p.get(k) != null) {
                assertThat(p.get(k)).as("%s: seal %d", at, k).isEqualTo(w.get(k));
            }
        }
    }

    private static List<@Nullable String> values(Seals s) {
        List<@Nullable String> out = new ArrayList<>();
        out.add(s.signature());
        out.add(s.redacted());
        out.add(s.encrypted());
        out.add(s.itemId());
        out.add(s.format());
        return out;
    }
}
