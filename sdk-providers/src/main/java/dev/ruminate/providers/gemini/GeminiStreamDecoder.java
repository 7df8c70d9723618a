package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.wire.SseEvent;
import java.util.List;

/**
 * Decodes the Server-Sent Events of one Gemini stream ({@code streamGenerateContent?alt=sse}, or the
 * Interactions API's stream; each event says which by its fields) into events.
 *
 * <p>Gemini ends a stream by closing it: the response completes at the end of the body when a
 * chunk carried a {@code finishReason} (or the prompt was blocked, or an Interactions stream sent
 * {@code interaction.completed}); a body that ends without is an {@link IncompleteStreamException}.
 * An {@code error} object in the stream fails with a
 * {@link dev.ruminate.core.error.ProviderStreamException}; malformed JSON with
 * {@link dev.ruminate.core.error.ProtocolException} {@code MALFORMED_JSON}, wrong shapes with {@code UNEXPECTED_SHAPE}, each
 * naming the event's line and byte offset. A {@code [DONE]} sentinel, which Gemini does not send
 * but proxies may, is ignored, as are event types other than {@code message}.
 *
 * <p>One instance per response; not thread-safe.
 */
final class GeminiStreamDecoder implements StreamDecoder<SseEvent> {

    private final GeminiAssembler assembler;
    private final GeminiChunk chunk = new GeminiChunk();
    /** One parser for the stream; after a failure the stream ends, so it is never fed again. */
    private final StreamParser json = StreamParser.create(GeminiParser.JSON);

    GeminiStreamDecoder(String provider) {
        this.assembler = new GeminiAssembler(provider);
    }

    @Override
    public void decode(SseEvent event, List<ChatEvent> out) {
        if (!"message".equals(event.type()) || event.isDone() || JsonReading.isBlank(event.data())) {
            return;
        }
        GeminiParser.parse(json.feed(event.data()), event.data(), chunk);
        assembler.apply(chunk, out);
    }

    @Override
    public void end(List<ChatEvent> out) {
        if (!assembler.finishSeen()) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended before a chunk with a finishReason" : "the body ended before the response started", null);
        }
        assembler.complete(out);
    }

}
