package dev.ruminate.providers.responses;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.transport.wire.SseEvent;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Decodes the Server-Sent Events of one streamed Responses call into events.
 *
 * <p>The response completes at {@code response.completed} or {@code response.incomplete}; anything
 * after that is ignored (OpenRouter's trailing {@code data: [DONE]}, a recording holding a later
 * response). {@code response.failed} and {@code error} events fail with
 * {@link ProviderStreamException}; a body that ends before a terminal event fails with
 * {@link IncompleteStreamException}. Malformed JSON fails with {@link ProtocolException}
 * {@code MALFORMED_JSON} naming the event's line and byte offset, JSON of the wrong shape with
 * {@code UNEXPECTED_SHAPE}. Unknown event types are ignored.
 *
 * <p>The text deltas that make up most of a stream ({@code response.output_text.delta} and the
 * reasoning, summary and function-argument deltas) are read by {@link DeltaEventScanner} from their
 * bytes, without Jackson; every other event, and any the scanner does not recognise, is parsed with
 * Jackson. Both give the same events ({@code ResponsesFastPathDifferentialTest}).
 *
 * <p>One instance per response; not thread-safe.
 */
final class ResponsesStreamDecoder implements StreamDecoder<SseEvent> {

    private final String provider;
    private final ResponsesAssembler assembler;
    /** One parser for the stream; a failure ends the stream, so it is never fed after one. */
    private final StreamParser json = StreamParser.create(ResponsesEventParser.JSON);
    /** Reads the dominant delta events by their bytes; null when the fast path is off (tests). */
    private final @Nullable DeltaEventScanner scanner;
    /** The fast path's event, filled anew for each delta (the assembler does not keep it). */
    private final WireEvent delta = new WireEvent();
    private boolean done;

    ResponsesStreamDecoder(ResponsesProfile profile) {
        this(profile, true);
    }

    /**
     * Creates a decoder, with or without the fast path.
     *
     * @param fastPath false to parse every event with Jackson: for the tests that hold the two paths
     *     equal, not a setting
     */
    ResponsesStreamDecoder(ResponsesProfile profile, boolean fastPath) {
        this.provider = profile.name();
        this.assembler = new ResponsesAssembler(profile.name());
        this.scanner = fastPath ? new DeltaEventScanner() : null;
    }

    /**
     * Decodes one event. The frame may be lent: its data are read through their range only, and
     * nothing of it (array, parser position, item source) is kept past this call.
     */
    @Override
    public void decode(SseEvent event, List<ChatEvent> out) {
        if (done || event.isDone()) {
            return;
        }
        byte[] array = event.dataArray();
        int offset = event.dataOffset();
        int length = event.dataLength();
        if (JsonReading.isBlank(array, offset, length)) {
            return;
        }
        String sseType = event.type();
        if ("error".equals(sseType)) {
            throw new ProviderStreamException(provider, streamError(event.data()));
        }
        // The text deltas are read by their bytes; anything the scanner does not recognise goes to
        // Jackson. Other named events are not tried: the scanner would decline them anyway.
        if (scanner != null && mayBeDelta(sseType) && scanner.scan(sseType, array, offset, length, delta)) {
            assembler.apply(Objects.requireNonNull(delta.type), delta, out);
            done = assembler.terminal();
            return;
        }
        WireEvent wire = ResponsesEventParser.event(json.feed(array, offset, length), array, offset, length);
        String type = wire.type != null ? wire.type : "message".equals(sseType) ? null : sseType;
        if (type == null) {
            return;
        }
        wire.type = type;
        if ("error".equals(type)) {
            throw new ProviderStreamException(provider, streamError(event.data()));
        }
        assembler.apply(type, wire, out);
        done = assembler.terminal();
    }

    /** Whether an event of this SSE name may be a delta the scanner reads: unnamed, or named as one. */
    private static boolean mayBeDelta(String sseType) {
        return switch (sseType) {
            case "message", DeltaEventScanner.OUTPUT_TEXT, DeltaEventScanner.SUMMARY_TEXT,
                 DeltaEventScanner.REASONING_TEXT, DeltaEventScanner.ARGUMENTS -> true;
            default -> false;
        };
    }

    /** Adds nothing when the response ended; throws when the body ended before a terminal event. */
    @Override
    public void end(List<ChatEvent> out) {
        if (!done) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended without response.completed, response.incomplete or response.failed"
                    : "the body ended before the response started", null);
        }
    }

    /**
     * Reads an {@code error} event: OpenAI's flat {@code {"type":"error","code","message","param"}}
     * (whose {@code type} names the event, not the error) or a nested {@code error} object.
     */
    static ProviderError streamError(byte[] data) {
        ProviderError e = ErrorBodyParser.standard().parse(data);
        return "error".equals(e.type()) ? new ProviderError(null, e.code(), e.message(), e.param()) : e;
    }
}
