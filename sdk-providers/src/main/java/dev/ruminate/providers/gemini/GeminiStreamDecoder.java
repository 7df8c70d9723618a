package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.ShapeException;
import dev.ruminate.providers.internal.StreamParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * Decodes the Server-Sent Events of one Gemini stream ({@code streamGenerateContent?alt=sse}, or the
 * Interactions API's stream; each event says which by its fields) into events.
 *
 * <p>Gemini ends a stream by closing it: the response completes at the end of the body when a
 * chunk carried a {@code finishReason} (or the prompt was blocked, or an Interactions stream sent
 * {@code interaction.completed}); a body that ends without is an {@link IncompleteStreamException}.
 * An {@code error} object in the stream fails with a
 * {@link dev.ruminate.core.error.ProviderStreamException}; malformed JSON with
 * {@link ProtocolException} {@code MALFORMED_JSON}, wrong shapes with {@code UNEXPECTED_SHAPE}, each
 * naming the event's line and byte offset. A {@code [DONE]} sentinel, which Gemini does not send
 * but proxies may, is ignored, as are event types other than {@code message}.
 *
 * <p>One instance per response; not thread-safe.
 */
final class GeminiStreamDecoder {

    private final GeminiAssembler assembler;
    private final GeminiChunk chunk = new GeminiChunk();
    /** One parser for the stream; after a failure the stream ends, so it is never fed again. */
    private final StreamParser json = StreamParser.create(GeminiParser.JSON);
    private boolean done;
    private @Nullable RuntimeException failure;

    GeminiStreamDecoder(String provider) {
        this.assembler = new GeminiAssembler(provider);
    }

    List<ChatEvent> onEvent(SseEvent event) {
        throwHeldFailure();
        if (done || !"message".equals(event.type()) || event.isDone() || JsonReading.isBlank(event.data())) {
            return List.of();
        }
        List<ChatEvent> out = new ArrayList<>(4);
        try {
            GeminiParser.parse(json.feed(event.data()), event.data(), chunk);
            assembler.apply(chunk, out);
        } catch (JacksonException e) {
            return fail(out, new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; data: " + JsonReading.excerpt(event.data()), event.line(), event.byteOffset(), e));
        } catch (ShapeException e) {
            return fail(out, new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; data: " + JsonReading.excerpt(event.data()), event.line(), event.byteOffset(), null));
        } catch (RuntimeException e) {
            return fail(out, e);
        }
        return out;
    }

    List<ChatEvent> onComplete() {
        throwHeldFailure();
        if (done) {
            return List.of();
        }
        if (!assembler.finishSeen()) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended before a chunk with a finishReason" : "the body ended before the response started", null);
        }
        done = true;
        List<ChatEvent> out = new ArrayList<>(4);
        assembler.complete(out);
        return out;
    }

    private List<ChatEvent> fail(List<ChatEvent> out, RuntimeException error) {
        if (out.isEmpty()) {
            throw error;
        }
        failure = error;
        return out;
    }

    private void throwHeldFailure() {
        RuntimeException held = failure;
        if (held != null) {
            failure = null;
            throw held;
        }
    }

}
