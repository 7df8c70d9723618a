package dev.ruminate.providers.spi;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.providers.internal.JsonReading;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * Decodes a whole (non-streaming) response body with a family's body decoder, the same way for
 * every family: malformed JSON becomes a {@link ProtocolException} {@code MALFORMED_JSON} with the
 * line and byte offset where the parser stopped, a wrong shape one of {@code UNEXPECTED_SHAPE},
 * both with an excerpt of the body. Also holds what whole bodies share: the reasoning final view.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class BodyDecoding {

    private BodyDecoding() {
    }

    /**
     * Decodes a body.
     *
     * @param body the body
     * @param decoder the family's decoder, which may throw {@code JacksonException} or
     *     {@link ShapeException}
     * @return the events
     * @throws ProtocolException for malformed JSON or a wrong shape; the decoder's other
     *     {@code RuminateException}s pass through
     */
    public static List<ChatEvent> decode(byte[] body, Function<byte[], List<ChatEvent>> decoder) {
        Objects.requireNonNull(body, "body");
        try {
            return decoder.apply(body);
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            throw new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; body: " + JsonReading.excerpt(body),
                    at == null ? -1 : at.getLineNr(), at == null ? -1 : at.getByteOffset(), e);
        } catch (ShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; body: " + JsonReading.excerpt(body), -1, -1, null);
        }
    }

    /**
     * Decodes a body when subscribed: the cold form of {@link #decode}, for codecs' public
     * whole-body methods.
     *
     * @param body the body
     * @param decoder the family's decoder
     * @return a cold flux of the events, or of the error
     */
    public static Flux<ChatEvent> flux(byte[] body, Function<byte[], List<ChatEvent>> decoder) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(decoder, "decoder");
        return Flux.defer(() -> Flux.fromIterable(decode(body, decoder)));
    }

    /**
     * Puts each reasoning part's whole text, as a {@link ReasoningFinal}, just before the part's
     * {@link PartEnded}. A whole body is the provider's final word on its reasoning, and the deltas
     * were taken from it, so the reasoning check of a non-streaming call is {@code MATCHED} by
     * construction: it says the provider reported its final reasoning and the message holds exactly
     * it, not that two independent copies were compared.
     *
     * @param events the body's events
     * @return the events with the finals, or the same list when there is no reasoning
     */
    public static List<ChatEvent> withReasoningFinals(List<ChatEvent> events) {
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
