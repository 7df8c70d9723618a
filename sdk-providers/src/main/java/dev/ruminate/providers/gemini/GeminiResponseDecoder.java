package dev.ruminate.providers.gemini;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.spi.BodyDecoding;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a whole {@code generateContent} body into the events a stream would give, with a
 * {@code ReasoningFinal} for each thought part (the body is the provider's final view, so the
 * reasoning check is {@code MATCHED} by construction). A body without a finish reason (a blocked
 * prompt has none) still completes: nothing more will come.
 */
final class GeminiResponseDecoder {

    private GeminiResponseDecoder() {
    }

    /** Decodes a body; throws {@code JacksonException} or {@code ShapeException} for {@link BodyDecoding} to place. */
    static List<ChatEvent> decode(String provider, byte[] body) {
        GeminiChunk chunk = new GeminiChunk();
        GeminiAssembler assembler = new GeminiAssembler(provider);
        List<ChatEvent> events = new ArrayList<>();
        GeminiParser.parse(body, chunk);
        assembler.apply(chunk, events);
        assembler.complete(events);
        return BodyDecoding.withReasoningFinals(events);
    }
}
