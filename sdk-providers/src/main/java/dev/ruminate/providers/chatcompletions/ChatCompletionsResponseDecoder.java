package dev.ruminate.providers.chatcompletions;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * Decodes a non-streaming {@code chat.completion} body into the events a stream would produce:
 * {@code ResponseStarted}, one delta per part (reasoning, answer text, each tool call with its whole
 * arguments), a {@link ReasoningFinal} holding the same text before each reasoning part ends (the
 * body is the provider's final word on its reasoning), {@code PartEnded}s, {@code UsageUpdate} and
 * {@code ResponseCompleted}.
 *
 * <p>Stateless.
 */
final class ChatCompletionsResponseDecoder {

    private ChatCompletionsResponseDecoder() {
    }

    static List<ChatEvent> decode(CompatProfile profile, byte[] body) {
        Chunk chunk = new Chunk();
        try {
            new ChunkParser(profile).parseBody(body, chunk);
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            throw new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; body: " + JsonReading.excerpt(body),
                    at == null ? -1 : at.getLineNr(), at == null ? -1 : at.getByteOffset(), e);
        } catch (ShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; body: " + JsonReading.excerpt(body), -1, -1, null);
        }
        if (chunk.error) {
            throw new ProviderStreamException(profile.name(), ErrorBodyParser.standard().parse(body));
        }
        EventAssembler assembler = new EventAssembler(profile.name());
        List<ChatEvent> events = new ArrayList<>();
        assembler.apply(chunk, true, events);
        assembler.complete(events);
        return withFinals(events);
    }

    private static List<ChatEvent> withFinals(List<ChatEvent> events) {
        Map<Integer, StringBuilder> reasoning = new HashMap<>();
        for (ChatEvent event : events) {
            if (event instanceof ReasoningDelta delta) {
                reasoning.computeIfAbsent(delta.part(), p -> new StringBuilder()).append(delta.text());
            }
        }
        if (reasoning.isEmpty()) {
            return events;
        }
        List<ChatEvent> out = new ArrayList<>(events.size() + reasoning.size());
        for (ChatEvent event : events) {
            if (event instanceof PartEnded ended && reasoning.containsKey(ended.part())) {
                out.add(new ReasoningFinal(ended.part(), reasoning.get(ended.part()).toString()));
            }
            out.add(event);
        }
        return out;
    }
}
