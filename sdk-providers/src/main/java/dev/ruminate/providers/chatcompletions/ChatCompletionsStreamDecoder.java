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
 * <p>Once the response has started, a chunk of the dominant shape (one choice whose delta holds only
 * text) is read by {@link DeltaScanner} from its bytes, without Jackson; every other chunk, and any
 * the scanner does not recognise, is parsed with Jackson. Both give the same events
 * ({@code FastPathDifferentialTest}).
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
        byte[] data = event.data();
        if (event.isDone()) {
            done = true;
            assembler.complete(out);
            return;
        }
        if ("error".equals(event.type())) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(data));
        }
        if (!"message".equals(event.type()) || JsonReading.isBlank(data)) {
            return;
        }
        // Once the response has started the head's id and model are no longer read, so the dominant
        // text-delta chunk can be read by its bytes; anything the scanner does not recognise goes to Jackson.
        if (scanner != null && assembler.started() && scanner.scan(data, chunk)) {
            assembler.apply(chunk, false, out);
            return;
        }
        int doneLine = doneLine(data);
        StreamParser p = parser.feed(data, doneLine == NONE ? data.length : doneLine);
        while (chunks.nextStreamed(p, chunk)) {
            if (chunk.error) {
                byte[] object = Arrays.copyOfRange(data, chunk.from, chunk.to);
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
     * @return where the line feed before that line is, or {@link #NONE}
     */
    private static int doneLine(byte[] data) {
        int end = data.length;
        while (end > 0 && isSpace(data[end - 1])) {
            end--;
        }
        int start = end - DONE.length;
        if (start < 0 || !Arrays.equals(data, start, end, DONE, 0, DONE.length)) {
            return NONE;
        }
        while (start > 0 && (data[start - 1] == ' ' || data[start - 1] == '\t')) {
            start--;
        }
        return start > 0 && data[start - 1] == '\n' ? start - 1 : NONE;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

}
