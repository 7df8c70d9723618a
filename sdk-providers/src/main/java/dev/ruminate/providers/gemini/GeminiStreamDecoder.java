package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.wire.SseEvent;
import java.util.List;
import org.jspecify.annotations.Nullable;

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
 * <p>The event may be lent (its data a range of the framing's array, valid during
 * {@link #decode} only): it is read through {@link SseEvent#dataArray()}, {@link SseEvent#dataOffset()}
 * and {@link SseEvent#dataLength()}, and what the events keep is copied out of it.
 *
 * <p>A chunk of the dominant shape (one candidate whose parts are text, with usage) is read by
 * {@link TextPartScanner} from its bytes, without Jackson; every other chunk, and any the scanner
 * does not recognise, is parsed with Jackson. Both give the same events
 * ({@code GeminiFastPathDifferentialTest}).
 *
 * <p>One instance per response; not thread-safe.
 */
final class GeminiStreamDecoder implements StreamDecoder<SseEvent> {

    private final GeminiAssembler assembler;
    private final GeminiChunk chunk = new GeminiChunk();
    /** One parser for the stream; after a failure the stream ends, so it is never fed again. */
    private final StreamParser json = StreamParser.create(GeminiParser.JSON);
    /** Reads the dominant text chunks by their bytes; null when the fast path is off (tests). */
    private final @Nullable TextPartScanner scanner;

    GeminiStreamDecoder(String provider) {
        this(provider, true);
    }

    /**
     * Creates a decoder, with or without the fast path.
     *
     * @param fastPath false to parse every chunk with Jackson: for the tests that hold the two paths
     *     equal, not a setting
     */
    GeminiStreamDecoder(String provider, boolean fastPath) {
        this.assembler = new GeminiAssembler(provider);
        this.scanner = fastPath ? new TextPartScanner() : null;
    }

    @Override
    public void decode(SseEvent event, List<ChatEvent> out) {
        if (!"message".equals(event.type()) || event.isDone()) {
            return;
        }
        byte[] array = event.dataArray();
        int offset = event.dataOffset();
        int length = event.dataLength();
        if (JsonReading.isBlank(array, offset, length)) {
            return;
        }
        // the head (model, response id) is read until the response has started; nothing reads it after
        if (scanner == null || !scanner.scan(array, offset, length, !assembler.started(), chunk)) {
            GeminiParser.parse(json.feed(array, offset, length), array, offset, chunk);
        }
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
