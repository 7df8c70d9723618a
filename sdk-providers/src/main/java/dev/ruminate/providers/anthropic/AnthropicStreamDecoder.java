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
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

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
 * <p>A {@code content_block_delta} of the dominant shape (text, thinking, tool-call arguments or a
 * signature) is read by {@link ContentBlockDeltaScanner} from its bytes, without Jackson; every
 * other event, and any the scanner does not recognise, is parsed with Jackson. Both give the same
 * events ({@code AnthropicFastPathDifferentialTest}). The event's data may be lent (valid only
 * during {@link #decode}): they are read as a range and nothing of them is kept past the call.
 *
 * <p>One instance per response; not thread-safe.
 */
final class AnthropicStreamDecoder implements StreamDecoder<SseEvent> {


    private final String provider;
    private final MessageAssembler assembler;
    private final WireEvent wire = new WireEvent();
    /** One parser for the stream; a failure ends the stream, so it is never fed after one. */
    private final StreamParser json = StreamParser.create(AnthropicEventParser.JSON);
    /** Reads the dominant content_block_delta events by their bytes; null when the fast path is off (tests). */
    private final @Nullable ContentBlockDeltaScanner scanner;

    AnthropicStreamDecoder(String provider) {
        this(provider, true);
    }

    /**
     * Creates a decoder, with or without the fast path.
     *
     * @param fastPath false to parse every event with Jackson: for the tests that hold the two paths
     *     equal, not a setting
     */
    AnthropicStreamDecoder(String provider, boolean fastPath) {
        this.provider = provider;
        this.assembler = new MessageAssembler(provider);
        this.scanner = fastPath ? new ContentBlockDeltaScanner() : null;
    }

    @Override
    public void decode(SseEvent event, List<ChatEvent> out) {
        if (assembler.completed()) {
            return;
        }
        // The data may be lent (a range of the network buffer, valid during this call only): read
        // through the range, and keep nothing of it but copies.
        byte[] array = event.dataArray();
        int offset = event.dataOffset();
        int length = event.dataLength();
        if ("error".equals(event.type())) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(copy(array, offset, length)));
        }
        if (JsonReading.isBlank(array, offset, length)) {
            return;
        }
        // The dispatch below goes by the data's own type; the event name only says where the
        // scanner is worth trying (it reads the type from the data like the full parser).
        ContentBlockDeltaScanner fast = scanner;
        if (fast != null && "content_block_delta".equals(event.type()) && fast.scan(array, offset, length)) {
            assembler.blockDelta(fast.index(), fast.deltaType(), fast.text(), out);
            return;
        }
        AnthropicEventParser.parseEvent(json.feed(array, offset, length), wire);
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
                assembler.blockStart(wire.index, wire.block, array, offset, out);
            }
            case "content_block_delta" -> assembler.blockDelta(wire.index, wire.deltaType, wire.deltaText, out);
            case "content_block_stop" -> assembler.blockStop(wire.index, out);
            case "message_delta" -> assembler.messageDelta(wire.stopReason, wire.usage, out);
            case "message_stop" -> assembler.complete(out);
            case "error" -> throw new ProviderStreamException(provider,
                    ErrorBodyParser.standard().parse(copy(array, offset, length)));
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

    private static byte[] copy(byte[] array, int offset, int length) {
        return Arrays.copyOfRange(array, offset, offset + length);
    }
}
