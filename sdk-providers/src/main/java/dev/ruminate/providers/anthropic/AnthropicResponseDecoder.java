package dev.ruminate.providers.anthropic;

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
 * Decodes a whole (non-streaming) Anthropic message into the events a stream would produce: each
 * content block opened, filled whole and closed in order, with a {@link ReasoningFinal} holding the
 * same text before each thinking part ends (the body is the provider's final word on its thinking).
 *
 * <p>Stateless.
 */
final class AnthropicResponseDecoder {

    private AnthropicResponseDecoder() {
    }

    static List<ChatEvent> decode(String provider, byte[] body) {
        WireEvent message = new WireEvent();
        List<WireBlock> blocks = new ArrayList<>();
        try {
            AnthropicEventParser.parseMessage(body, message, blocks);
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            throw new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; body: " + JsonReading.excerpt(body),
                    at == null ? -1 : at.getLineNr(), at == null ? -1 : at.getByteOffset(), e);
        } catch (ShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; body: " + JsonReading.excerpt(body), -1, -1, null);
        }
        if ("error".equals(message.messageType)) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(body));
        }
        List<ChatEvent> events = new ArrayList<>();
        MessageAssembler assembler = new MessageAssembler(provider);
        try {
            assembler.start(message.messageId, message.model, message.usage, events);
            for (int i = 0; i < blocks.size(); i++) {
                assembler.blockStart(i, blocks.get(i), body, events);
                assembler.blockStop(i, events);
            }
            assembler.messageDelta(message.stopReason, null, events);
            assembler.complete(events);
        } catch (ShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; body: " + JsonReading.excerpt(body), -1, -1, null);
        }
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
