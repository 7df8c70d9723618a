package dev.ruminate.providers.responses;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.StreamResumeException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.error.TransportException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.providers.spi.StreamResumption;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

/**
 * Resumes a background Responses stream cut after its first event ({@link ResponsesResumption}).
 *
 * <p>Each frame's {@code type}, {@code sequence_number} and (on {@code response.created}) response
 * id are read ahead of the decoder, with a second, shallow parse. After a cut (a transport error, a
 * connection closed while the body was read, a read timeout, or a body that ended without
 * {@code response.completed}, {@code response.incomplete}, {@code response.failed} or
 * {@code error}) the frames go on with those of
 * {@code GET {path}/{id}?stream=true&starting_after=<last>}, behind a marker frame that the decoder
 * turns into a {@code stream-resumed} {@link Warning}; one {@link ResponsesStreamDecoder} decodes
 * them all, so the reduced message is the uncut stream's. A resumed frame whose sequence number is
 * not above the last one passed on is dropped (a duplicate); the first new one must follow it
 * directly, or the stream fails with a {@code GAP}. A frame that does not parse is held back until
 * the next one: if the body ends or fails first, it was cut short and the resumed stream sends it
 * again whole; otherwise the decoder reports it as usual.
 *
 * <p>Cancelling the subscription, or failing with a gap or after the attempts ran out, while the
 * response is unfinished also asks the server to cancel it ({@code POST {path}/{id}/cancel}), best
 * effort: the answer and any failure of that request are ignored, since a background response
 * would otherwise go on (and be billed) with no one reading it.
 *
 * <p>Immutable and thread-safe; each {@link #decode} call keeps its own state.
 */
final class BackgroundResumption implements StreamResumption<SseEvent> {

    private static final Set<String> TERMINAL = Set.of("response.completed", "response.incomplete",
            "response.failed", "error");

    private final ResponsesProfile profile;
    private final ResponsesResumption options;

    BackgroundResumption(ResponsesProfile profile, ResponsesResumption options) {
        this.profile = Objects.requireNonNull(profile, "profile");
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public Flux<ChatEvent> decode(ChatRequest request, Flux<SseEvent> frames, Connection<SseEvent> connection) {
        return Flux.defer(() -> {
            Run run = new Run(connection);
            StreamDecoder<SseEvent> decoder = new Announcing(new ResponsesStreamDecoder(profile), run.markers);
            return run.segment(frames)
                    .transform(StreamDecoding.operator(StreamFraming.SSE, () -> decoder))
                    .doOnCancel(run::abandon);
        });
    }

    /** Turns the marker frames of reconnections into their warnings; hands every other frame on. */
    private record Announcing(ResponsesStreamDecoder decoder, Map<SseEvent, Warning> markers)
            implements StreamDecoder<SseEvent> {

        @Override
        public void decode(SseEvent frame, List<ChatEvent> out) {
            Warning w = markers.remove(frame);
            if (w != null) {
                out.add(w);
                return;
            }
            decoder.decode(frame, out);
        }

        @Override
        public void end(List<ChatEvent> out) {
            decoder.end(out);
        }
    }

    /** One call's resumption state; frames arrive serially, a cancellation from any thread. */
    private final class Run {
        private final Connection<SseEvent> connection;
        /** Marker frames by identity, so nothing the server sends can pass for one. */
        final Map<SseEvent, Warning> markers = Collections.synchronizedMap(new IdentityHashMap<>());
        private volatile @Nullable String id;
        private volatile boolean terminal;
        private final AtomicBoolean abandoned = new AtomicBoolean();
        private long last = -1;
        private int attempts;
        private boolean awaitingFirst;
        private @Nullable SseEvent held;

        Run(Connection<SseEvent> connection) {
            this.connection = connection;
        }

        Flux<SseEvent> segment(Flux<SseEvent> frames) {
            return frames.concatMapIterable(this::admit)
                    .concatWith(Flux.defer(this::ended))
                    .onErrorResume(this::cut);
        }

        /** The frames to pass on for one received: none (a duplicate, or held back), it, or a held one and it. */
        private List<SseEvent> admit(SseEvent frame) {
            List<SseEvent> out = new ArrayList<>(2);
            SseEvent before = held;
            if (before != null) {
                // more came after a frame that did not parse: it was not cut short, the decoder reports it
                held = null;
                out.add(before);
            }
            byte[] data = frame.data();
            if (frame.isDone() || JsonReading.isBlank(data)) {
                out.add(frame);
                return out;
            }
            Peek peek;
            try {
                peek = Peek.of(data);
            } catch (RuntimeException e) {
                if (resumable()) {
                    held = frame;
                } else {
                    out.add(frame);
                }
                return out;
            }
            Long seq = peek.sequenceNumber();
            if (seq != null) {
                if (seq <= last) {
                    return out; // already passed on before the cut
                }
                if (awaitingFirst && seq > last + 1) {
                    String responseId = Objects.requireNonNull(id);
                    abandon();
                    throw new StreamResumeException(StreamResumeException.Reason.GAP, responseId, last,
                            "the resumed stream went on with event " + seq, null);
                }
                awaitingFirst = false;
                last = seq;
            }
            String type = peek.type();
            if (id == null && "response.created".equals(type) && peek.responseId() != null) {
                id = peek.responseId();
            }
            if (type != null && TERMINAL.contains(type)) {
                terminal = true;
            }
            out.add(frame);
            return out;
        }

        private boolean resumable() {
            return id != null && last >= 0 && !terminal;
        }

        /** The body ended: done when the response did, else a cut (a held frame was cut short). */
        private Flux<SseEvent> ended() {
            if (!resumable()) {
                SseEvent before = held;
                held = null;
                return before == null ? Flux.empty() : Flux.just(before);
            }
            return resume(new IncompleteStreamException(
                    "the body ended without response.completed, response.incomplete or response.failed", null));
        }

        private Flux<SseEvent> cut(Throwable error) {
            if (error instanceof StreamResumeException) {
                return Flux.error(error);
            }
            if (terminal) {
                return Flux.empty(); // the response is whole: what broke after it changes nothing
            }
            if (!resumable()) {
                return Flux.error(error);
            }
            if (error instanceof ProviderHttpException http && !http.isRetryable()) {
                return Flux.error(new StreamResumeException(StreamResumeException.Reason.REFUSED,
                        Objects.requireNonNull(id), last, "the server answered the reconnection with HTTP "
                        + http.status(), http));
            }
            if (!isCut(error)) {
                return Flux.error(error);
            }
            return resume(error);
        }

        private Flux<SseEvent> resume(Throwable cause) {
            held = null; // cut short: the resumed stream sends it whole
            String responseId = Objects.requireNonNull(id);
            if (attempts >= options.maxAttempts()) {
                abandon();
                return Flux.error(new StreamResumeException(StreamResumeException.Reason.EXHAUSTED, responseId, last,
                        "cut again after " + attempts + " reconnection" + (attempts == 1 ? "" : "s") + " ("
                                + cause.getMessage() + ")", cause));
            }
            attempts++;
            awaitingFirst = true;
            SseEvent marker = new SseEvent("message", new byte[0], null, -1, -1);
            markers.put(marker, new Warning(Warning.STREAM_RESUMED, "the stream was cut after event " + last
                    + "; reconnection " + attempts + " of " + options.maxAttempts()
                    + " resumes it after that event"));
            Flux<SseEvent> again = connection.get(resumeUri(responseId, last));
            Flux<SseEvent> waited = options.backoff().isZero() ? again
                    : Mono.delay(options.backoff()).thenMany(again);
            return Flux.concat(Mono.just(marker), segment(waited));
        }

        /** Asks the server to stop an unfinished response, best effort. */
        void abandon() {
            String responseId = id;
            if (responseId == null || terminal || !abandoned.compareAndSet(false, true)) {
                return;
            }
            connection.post(connection.base().resolve(profile.path() + "/" + encoded(responseId) + "/cancel"))
                    .onErrorResume(e -> Mono.empty())
                    .subscribe();
        }

        private URI resumeUri(String responseId, long after) {
            return connection.base().resolve(profile.path() + "/" + encoded(responseId)
                    + "?stream=true&starting_after=" + after);
        }
    }

    /** What the connection's failure must be for a reconnection to make sense. */
    private static boolean isCut(Throwable error) {
        return error instanceof IncompleteStreamException || error instanceof TransportException
                || error instanceof StreamTimeoutException t && t.phase() != StreamTimeoutException.Phase.TOTAL
                || error instanceof ProviderHttpException http && http.isRetryable();
    }

    private static String encoded(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The fields of an event the resumption needs; null when absent. */
    private record Peek(@Nullable String type, @Nullable Long sequenceNumber, @Nullable String responseId) {

        /** Reads them shallowly; throws for JSON that is malformed or cut short. */
        static Peek of(byte[] data) {
            try (JsonParser p = ResponsesEventParser.JSON.createParser(ObjectReadContext.empty(), data)) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    return new Peek(null, null, null);
                }
                String type = null;
                Long seq = null;
                String responseId = null;
                String name;
                while ((name = p.nextName()) != null) {
                    JsonToken value = p.nextToken();
                    switch (name) {
                        case "type" -> type = value == JsonToken.VALUE_STRING ? p.getString() : null;
                        case "sequence_number" -> seq = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                        case "response" -> responseId = value == JsonToken.START_OBJECT ? id(p) : skip(p);
                        default -> p.skipChildren();
                    }
                }
                return new Peek(type, seq, responseId);
            }
        }

        private static @Nullable String id(JsonParser p) {
            String found = null;
            String name;
            while ((name = p.nextName()) != null) {
                JsonToken value = p.nextToken();
                if (name.equals("id") && value == JsonToken.VALUE_STRING) {
                    found = p.getString();
                } else {
                    p.skipChildren();
                }
            }
            return found;
        }

        private static @Nullable String skip(JsonParser p) {
            p.skipChildren();
            return null;
        }
    }
}
