package dev.ruminate.providers.responses;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.spi.BodyDecoding;
import java.util.ArrayList;
import java.util.List;

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

    /** Decodes a body; throws {@code JacksonException} or {@code ShapeException} for {@link BodyDecoding} to place. */
    static List<ChatEvent> decode(ResponsesProfile profile, byte[] body) {
        WireResponse response = ResponsesEventParser.body(body);
        List<ChatEvent> out = new ArrayList<>(16);
        new ResponsesAssembler(profile.name()).applyWhole(response, out);
        return out;
    }
}
