package dev.ruminate.providers.responses;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.transport.wire.SseEvent;
import java.util.List;

/**
 * Decodes the Server-Sent Events of one streamed Responses call into events.
 *
 * <p>The response completes at {@code response.completed} or {@code response.incomplete}; anything
 * after that is ignored (OpenRouter's trailing {@code data: [DONE]}, a recording holding a later
 * response). {@code response.failed} and {@code error} events fail with
 * {@link ProviderStreamException}; a body that ends before a terminal event fails with
 * {@link IncompleteStreamException}. Malformed JSON fails with {@link ProtocolException}
 * {@code MALFORMED_JSON} naming the event's line and byte offset, JSON of the wrong shape with
 * {@code UNEXPECTED_SHAPE}. Unknown event types are ignored.
 *
 * <p>One instance per response; not thread-safe.
 */
final class ResponsesStreamDecoder implements StreamDecoder<SseEvent> {

    private final String provider;
    private final ResponsesAssembler assembler;
    /** One parser for the stream; a failure ends the stream, so it is never fed after one. */
    private final StreamParser json = StreamParser.create(ResponsesEventParser.JSON);
    private boolean done;

    ResponsesStreamDecoder(ResponsesProfile profile) {
        this.provider = profile.name();
        this.assembler = new ResponsesAssembler(profile.name());
    }

    @Override
    public void decode(SseEvent event, List<ChatEvent> out) {
        if (done || event.isDone()) {
            return;
        }
        byte[] data = event.data();
        if (JsonReading.isBlank(data)) {
            return;
        }
        if ("error".equals(event.type())) {
            throw new ProviderStreamException(provider, streamError(data));
        }
        WireEvent wire = ResponsesEventParser.event(json.feed(data), data);
        String type = wire.type != null ? wire.type : "message".equals(event.type()) ? null : event.type();
        if (type == null) {
            return;
        }
        wire.type = type;
        if ("error".equals(type)) {
            throw new ProviderStreamException(provider, streamError(data));
        }
        assembler.apply(type, wire, out);
        done = assembler.terminal();
    }

    /** Adds nothing when the response ended; throws when the body ended before a terminal event. */
    @Override
    public void end(List<ChatEvent> out) {
        if (!done) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended without response.completed, response.incomplete or response.failed"
                    : "the body ended before the response started", null);
        }
    }

    /**
     * Reads an {@code error} event: OpenAI's flat {@code {"type":"error","code","message","param"}}
     * (whose {@code type} names the event, not the error) or a nested {@code error} object.
     */
    static ProviderError streamError(byte[] data) {
        ProviderError e = ErrorBodyParser.standard().parse(data);
        return "error".equals(e.type()) ? new ProviderError(null, e.code(), e.message(), e.param()) : e;
    }
}
