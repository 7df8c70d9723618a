package dev.ruminate.providers.anthropic;

import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.transport.http.ErrorBodyParser;
import java.util.ArrayList;
import java.util.List;

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

    /** Decodes a body; throws {@code JacksonException} or {@code ShapeException} for {@link BodyDecoding} to place. */
    static List<ChatEvent> decode(String provider, byte[] body) {
        WireEvent message = new WireEvent();
        List<WireBlock> blocks = new ArrayList<>();
        AnthropicEventParser.parseMessage(body, message, blocks);
        if ("error".equals(message.messageType)) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(body));
        }
        List<ChatEvent> events = new ArrayList<>();
        MessageAssembler assembler = new MessageAssembler(provider);
        assembler.start(message.messageId, message.model, message.usage, events);
        for (int i = 0; i < blocks.size(); i++) {
            assembler.blockStart(i, blocks.get(i), body, 0, events);
            assembler.blockStop(i, events);
        }
        assembler.messageDelta(message.stopReason, null, events);
        assembler.complete(events);
        return BodyDecoding.withReasoningFinals(events);
    }
}
