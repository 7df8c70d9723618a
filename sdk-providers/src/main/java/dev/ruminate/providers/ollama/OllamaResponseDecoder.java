package dev.ruminate.providers.ollama;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.ShapeException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * Decodes a non-streaming Ollama body ({@code "stream": false}: one object with the whole
 * {@code message}, or {@code response} on generate, and the {@code done} fields) into the events a
 * stream would give, with a {@link ReasoningFinal} before the reasoning part ends: the body is the
 * server's final word on its thinking. A body without {@code "done": true} is completed all the
 * same (it is all there is), with the finish reason its fields give.
 *
 * <p>Stateless.
 */
final class OllamaResponseDecoder {

    private OllamaResponseDecoder() {
    }

    static List<ChatEvent> decode(String provider, byte[] body) {
        OllamaLine line = new OllamaLine();
        try {
            OllamaLineParser.parse(body, body.length, line);
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            throw new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; body: " + JsonReading.excerpt(body),
                    at == null ? -1 : at.getLineNr(), at == null ? -1 : at.getByteOffset(), e);
        } catch (ShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; body: " + JsonReading.excerpt(body), -1, -1, null);
        }
        if (line.error) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(body));
        }
        line.done = true;
        OllamaEventAssembler assembler = new OllamaEventAssembler(provider);
        List<ChatEvent> events = new ArrayList<>();
        assembler.apply(line, events);
        return withFinal(events);
    }

    /** Adds the reasoning's final view: a body has at most one reasoning part, from one delta. */
    private static List<ChatEvent> withFinal(List<ChatEvent> events) {
        List<ChatEvent> out = new ArrayList<>(events.size() + 1);
        ReasoningDelta reasoning = null;
        for (ChatEvent event : events) {
            if (event instanceof ReasoningDelta delta) {
                reasoning = delta;
            } else if (reasoning != null && event instanceof PartEnded ended && ended.part() == reasoning.part()) {
                out.add(new ReasoningFinal(reasoning.part(), reasoning.text()));
            }
            out.add(event);
        }
        return out;
    }
}
