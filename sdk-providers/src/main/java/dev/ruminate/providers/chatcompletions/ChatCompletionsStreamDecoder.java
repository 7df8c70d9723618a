package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.transport.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Decodes the Server-Sent Events of one streamed Chat Completions response into events.
 *
 * <p>The response completes at {@code data: [DONE]}, or at the end of the body when a
 * {@code finish_reason} was seen (some recordings and proxies lack {@code [DONE]}); a body that ends
 * with neither fails with {@link IncompleteStreamException}. Usage may follow the finish reason
 * (in a {@code "choices": []} chunk), which is why completion waits for one of those two ends.
 * An {@code event: error}, or a chunk holding an {@code error} object (Groq's
 * {@code tool_use_failed}), fails with {@link ProviderStreamException}. Malformed JSON fails with
 * {@link dev.ruminate.core.error.ProtocolException} {@code MALFORMED_JSON} naming the event's line and byte offset; JSON of
 * the wrong shape with {@code UNEXPECTED_SHAPE}. Events other than {@code message} and
 * {@code error} are ignored; so is anything after {@code [DONE]}.
 *
 * <p>An event whose data holds several chunk objects in a row (a server that omits the blank lines
 * between events has their data lines joined into one event) is read as that many events, and a
 * {@code [DONE]} line ending such data as the sentinel. Anything else after a chunk fails with
 * {@code MALFORMED_JSON}. When a later object of such an event fails, the events of the objects
 * before it are delivered first and the failure ends the stream at the next event or at the end of
 * the body, as it would have had the server separated the events.
 *
 * <p>Once the response has started, a chunk of the dominant shapes (one choice whose delta holds only
 * text, or tool-call fragments) is read by {@link DeltaScanner} from its bytes, without Jackson;
 * every other chunk, and any the scanner does not recognise, is parsed with Jackson. Both give the
 * same events ({@code FastPathDifferentialTest}).
 *
 * <p>Lent frames: {@link #decode} reads an event only through its range
 * ({@link SseEvent#dataArray()}, {@link SseEvent#dataOffset()}, {@link SseEvent#dataLength()}), so
 * the framing may lend it data inside its network buffer; what the decoder keeps past the call are
 * decoded strings and copies (an error object's bytes), never the array. The stream's
 * {@link StreamParser} is done with an event when the call returns: it reads only what it is fed next.
 *
 * <p>One instance per response; not thread-safe.
 */
final class ChatCompletionsStreamDecoder implements StreamDecoder<SseEvent> {

    private static final int NONE = -1;
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final String provider;
    private final ChunkParser chunks;
    private final Chunk chunk = new Chunk();
    private final EventAssembler assembler;
    private boolean done;
    /** One parser for the stream, fed event by event; a failure ends the stream, so never fed after one. */
    private final StreamParser parser = StreamParser.create(ChunkParser.JSON);
    /** Reads the dominant text-delta chunks by their bytes; null when the fast path is off (tests). */
    private final @Nullable DeltaScanner scanner;

    ChatCompletionsStreamDecoder(CompatProfile profile) {
        this(profile, true);
    }

    /**
     * Creates a decoder, with or without the fast path.
     *
     * @param fastPath false to parse every chunk with Jackson: for the tests that hold the two paths
     *     equal, not a setting
     */
    ChatCompletionsStreamDecoder(CompatProfile profile, boolean fastPath) {
        this.provider = profile.name();
        this.chunks = new ChunkParser(profile);
        this.assembler = new EventAssembler(profile.name());
        this.scanner = fastPath ? new DeltaScanner(profile) : null;
    }

    @Override
    public void decode(SseEvent event, List<ChatEvent> out) {
        if (done) {
            return;
        }
        if (event.isDone()) {
            done = true;
            assembler.complete(out);
            return;
        }
        // The data may be lent (a range of the network buffer, valid during this call only): read
        // through the range, and copy whatever outlives the call.
        byte[] array = event.dataArray();
        int offset = event.dataOffset();
        int length = event.dataLength();
        if ("error".equals(event.type())) {
            throw new ProviderStreamException(provider,
                    ErrorBodyParser.standard().parse(Arrays.copyOfRange(array, offset, offset + length)));
        }
        if (!"message".equals(event.type()) || JsonReading.isBlank(array, offset, length)) {
            return;
        }
        // Once the response has started the head's id and model are no longer read, so the dominant
        // text and tool-argument chunks can be read by their bytes; anything the scanner does not
        // recognise goes to Jackson.
        if (scanner != null && assembler.started() && scanner.scan(array, offset, length, chunk)) {
            assembler.apply(chunk, false, out);
            return;
        }
        int doneLine = doneLine(array, offset, length);
        StreamParser p = parser.feed(array, offset, doneLine == NONE ? length : doneLine);
        while (chunks.nextStreamed(p, chunk)) {
            if (chunk.error) {
                // the parser's locations are relative to the event's first byte
                byte[] object = Arrays.copyOfRange(array, offset + chunk.from, offset + chunk.to);
                throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(object));
            }
            assembler.apply(chunk, false, out);
        }
        if (doneLine != NONE) {
            done = true;
            assembler.complete(out);
        }
    }

    @Override
    public void end(List<ChatEvent> out) {
        if (done) {
            return;
        }
        if (!assembler.finishSeen()) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended without [DONE] or a finish_reason"
                    : "the body ended before the response started", null);
        }
        done = true;
        assembler.complete(out);
    }

    /**
     * Finds a last data line that is the {@code [DONE]} sentinel, left in the data of the event
     * before it by a server that omits blank lines.
     *
     * @return where the line feed before that line is, relative to {@code offset}; or {@link #NONE}
     */
    private static int doneLine(byte[] array, int offset, int length) {
        int end = offset + length;
        while (end > offset && isSpace(array[end - 1])) {
            end--;
        }
        int start = end - DONE.length;
        if (start < offset || !Arrays.equals(array, start, end, DONE, 0, DONE.length)) {
            return NONE;
        }
        while (start > offset && (array[start - 1] == ' ' || array[start - 1] == '\t')) {
            start--;
        }
        return start > offset && array[start - 1] == '\n' ? start - 1 - offset : NONE;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

}
