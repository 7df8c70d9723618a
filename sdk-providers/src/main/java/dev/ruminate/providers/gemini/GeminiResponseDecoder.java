package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.ShapeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;

/**
 * Decodes a whole {@code generateContent} body into the events a stream would give, with a
 * {@code ReasoningFinal} for each thought part (the body is the provider's final view, so the
 * reasoning check is {@code MATCHED} by construction). A body without a finish reason (a blocked
 * prompt has none) still completes: nothing more will come.
 */
final class GeminiResponseDecoder {

    private GeminiResponseDecoder() {
    }

    static List<ChatEvent> decode(String provider, byte[] body) {
        GeminiChunk chunk = new GeminiChunk();
        GeminiAssembler assembler = new GeminiAssembler(provider);
        List<ChatEvent> events = new ArrayList<>();
        try {
            GeminiParser.parse(body, chunk);
            assembler.apply(chunk, events);
        } catch (JacksonException e) {
            throw new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; body: " + JsonReading.excerpt(body), -1, -1, e);
        } catch (ShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; body: " + JsonReading.excerpt(body), -1, -1, null);
        }
        assembler.complete(events);
        return withFinals(events);
    }

    /** Puts a part's whole reasoning text as its {@code ReasoningFinal} just before its {@code PartEnded}. */
    private static List<ChatEvent> withFinals(List<ChatEvent> events) {
        Map<Integer, StringBuilder> reasoning = new LinkedHashMap<>();
        for (ChatEvent e : events) {
            if (e instanceof ReasoningDelta d) {
                reasoning.computeIfAbsent(d.part(), k -> new StringBuilder()).append(d.text());
            }
        }
        List<ChatEvent> out = new ArrayList<>(events.size() + reasoning.size());
        for (ChatEvent e : events) {
            if (e instanceof PartEnded end && reasoning.containsKey(end.part())) {
                out.add(new ReasoningFinal(end.part(), reasoning.get(end.part()).toString()));
            }
            out.add(e);
        }
        return out;
    }
}
