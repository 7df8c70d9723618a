package dev.ruminate.providers.anthropic;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.ShapeException;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.transport.wire.SseEvent;
import java.util.List;

/**
 * Decodes the Server-Sent Events of one streamed Anthropic message into events.
 *
 * <p>The event's kind is the data's {@code type} (the {@code event:} name when the data has none).
 * {@code ping} and unknown kinds are ignored, and so is anything after {@code message_stop}. An
 * {@code error} event fails with {@link ProviderStreamException} carrying the error's type and
 * message; a body that ends before {@code message_stop} with {@link IncompleteStreamException}.
 * Malformed JSON fails with {@link dev.ruminate.core.error.ProtocolException} {@code MALFORMED_JSON}, a wrong shape with
 * {@code UNEXPECTED_SHAPE}, both naming the event's line and byte offset.
 *
 * <p>One instance per response; not thread-safe.
 */
final class AnthropicStreamDecoder implements StreamDecoder<SseEvent> {


    private final String provider;
    private final MessageAssembler assembler;
    private final WireEvent wire = new WireEvent();
    /** One parser for the stream; a failure ends the stream, so it is never fed after one. */
    private final StreamParser json = StreamParser.create(AnthropicEventParser.JSON);

    AnthropicStreamDecoder(String provider) {
        this.provider = provider;
        this.assembler = new MessageAssembler(provider);
    }

    @Override
    public void decode(SseEvent event, List<ChatEvent> out) {
        if (assembler.completed()) {
            return;
        }
        byte[] data = event.data();
        if ("error".equals(event.type())) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(data));
        }
        if (JsonReading.isBlank(data)) {
            return;
        }
        AnthropicEventParser.parseEvent(json.feed(data), wire);
        String type = wire.type != null ? wire.type : event.type();
        switch (type) {
            case "message_start" -> assembler.start(wire.messageId, wire.model, wire.usage, out);
            case "content_block_start" -> {
                if (!wire.hasBlock) {
                    throw new ShapeException("content_block_start without content_block");
                }
                if (wire.index < 0) {
                    throw new ShapeException("content_block_start has no index");
                }
                assembler.blockStart(wire.index, wire.block, data, out);
            }
            case "content_block_delta" -> assembler.blockDelta(wire.index, wire.deltaType, wire.deltaText, out);
            case "content_block_stop" -> assembler.blockStop(wire.index, out);
            case "message_delta" -> assembler.messageDelta(wire.stopReason, wire.usage, out);
            case "message_stop" -> assembler.complete(out);
            case "error" -> throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(data));
            default -> {
                // ping, and event kinds added after this decoder was written
            }
        }
    }

    /** Checks that the body ended after {@code message_stop}. */
    @Override
    public void end(List<ChatEvent> out) {
        if (!assembler.completed()) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended without message_stop"
                    : "the body ended before the response started", null);
        }
    }

}
