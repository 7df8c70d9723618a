package dev.ruminate.providers.responses;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.JsonReading;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * Decodes a non-streaming {@code response} body into the events a stream would produce: each output
 * item as if added and done, so every reasoning part's text comes once as a delta and once as its
 * {@code ReasoningFinal} (the body is the provider's final view), then usage and completion.
 *
 * <p>Stateless.
 */
final class ResponsesResponseDecoder {

    private ResponsesResponseDecoder() {
    }

    static List<ChatEvent> decode(ResponsesProfile profile, byte[] body) {
        WireResponse response;
        try {
            response = ResponsesEventParser.body(body);
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            throw new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; body: " + JsonReading.excerpt(body),
                    at == null ? -1 : at.getLineNr(), at == null ? -1 : at.getByteOffset(), e);
        } catch (WireShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; body: " + JsonReading.excerpt(body), -1, -1, null);
        }
        List<ChatEvent> out = new ArrayList<>(16);
        new ResponsesAssembler(profile.name()).applyWhole(response, out);
        return out;
    }
}
