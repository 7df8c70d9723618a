package dev.ruminate.providers.ollama;

import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.transport.http.ErrorBodyParser;
import java.util.ArrayList;
import java.util.List;

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

    /** Decodes a body; throws {@code JacksonException} or {@code ShapeException} for {@link BodyDecoding} to place. */
    static List<ChatEvent> decode(String provider, byte[] body) {
        OllamaLine line = new OllamaLine();
        OllamaLineParser.parse(body, body.length, line);
        if (line.error) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(body));
        }
        line.done = true;
        OllamaEventAssembler assembler = new OllamaEventAssembler(provider);
        List<ChatEvent> events = new ArrayList<>();
        assembler.apply(line, events);
        return BodyDecoding.withReasoningFinals(events);
    }
}
