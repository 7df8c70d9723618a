package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.transport.http.ErrorBodyParser;
import java.util.ArrayList;
import java.util.List;

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

    /** Decodes a body; throws {@code JacksonException} or {@code ShapeException} for {@link BodyDecoding} to place. */
    static List<ChatEvent> decode(CompatProfile profile, byte[] body) {
        Chunk chunk = new Chunk();
        new ChunkParser(profile).parseBody(body, chunk);
        if (chunk.error) {
            throw new ProviderStreamException(profile.name(), ErrorBodyParser.standard().parse(body));
        }
        EventAssembler assembler = new EventAssembler(profile.name());
        List<ChatEvent> events = new ArrayList<>();
        assembler.apply(chunk, true, events);
        assembler.complete(events);
        return BodyDecoding.withReasoningFinals(events);
    }
}
