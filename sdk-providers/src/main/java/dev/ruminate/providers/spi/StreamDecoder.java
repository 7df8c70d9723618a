package dev.ruminate.providers.spi;

import dev.ruminate.core.event.ChatEvent;
import java.util.List;

/**
 * A provider family's decoder of one streamed response: frames in, {@link ChatEvent}s out. It holds
 * the state of one response (open parts, tool calls, usage) and knows the API's events; it does
 * not deal with framing, error positions, held-back failures, think tags or Reactor, which the
 * skeleton ({@link StreamDecoding}) does the same way for every family.
 *
 * <p><b>Errors.</b> To end the stream, {@link #decode} and {@link #end} throw: a
 * {@code tools.jackson.core.JacksonException} for malformed JSON, a {@link ShapeException} for
 * JSON of the wrong shape (the skeleton turns both into a
 * {@link dev.ruminate.core.error.ProtocolException} with the frame's line and byte offset), or a
 * {@link dev.ruminate.core.error.RuminateException} such as
 * {@link dev.ruminate.core.error.ProviderStreamException} (an error the provider reported) or
 * {@link dev.ruminate.core.error.IncompleteStreamException} (the body ended too soon). Events added
 * to {@code out} before the throw are delivered before the error.
 *
 * <p><b>Lent frames.</b> On the provider's stream path ({@link StreamDecoding#decode}) a frame is
 * lent: its bytes may lie in the network buffer being read, valid only during {@link #decode}. A
 * decoder reads them through the frame's range accessors (for an SSE event
 * {@code dataArray()}, {@code dataOffset()}, {@code dataLength()}; its {@code data()} would copy), and
 * keeps neither the frame, nor its array, nor a parser positioned in it past the call: what it keeps
 * it copies.
 *
 * <p><b>Threading.</b> One instance per response, called serially; not thread-safe.
 *
 * @param <F> the frame type of the family's framing
 * @since 0.1
 */
public interface StreamDecoder<F> {

    /**
     * Decodes one frame.
     *
     * @param frame the frame, possibly lent (valid only during the call); its bytes are the
     *     decoder's to read, not to modify
     * @param out receives the frame's events, in order
     */
    void decode(F frame, List<ChatEvent> out);

    /**
     * Ends the response when the body ends.
     *
     * @param out receives the closing events
     * @throws dev.ruminate.core.error.IncompleteStreamException if the body ended before the
     *     response's terminal event
     */
    void end(List<ChatEvent> out);
}
