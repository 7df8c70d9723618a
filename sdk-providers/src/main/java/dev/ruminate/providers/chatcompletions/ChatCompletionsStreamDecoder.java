package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.ShapeException;
import dev.ruminate.providers.internal.StreamParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;

/**
 * Decodes the Server-Sent Events of one streamed Chat Completions response into events.
 *
 * <p>The response completes at {@code data: [DONE]}, or at the end of the body when a
 * {@code finish_reason} was seen (some recordings and proxies lack {@code [DONE]}); a body that ends
 * with neither fails with {@link IncompleteStreamException}. Usage may follow the finish reason
 * (in a {@code "choices": []} chunk), which is why completion waits for one of those two ends.
 * An {@code event: error}, or a chunk holding an {@code error} object (Groq's
 * {@code tool_use_failed}), fails with {@link ProviderStreamException}. Malformed JSON fails with
 * {@link ProtocolException} {@code MALFORMED_JSON} naming the event's line and byte offset; JSON of
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
 * <p>One instance per response; not thread-safe.
 */
final class ChatCompletionsStreamDecoder {

    private static final int NONE = -1;
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final String provider;
    private final ChunkParser parser;
    private final Chunk chunk = new Chunk();
    private final EventAssembler assembler;
    private boolean done;
    /** One parser for the stream, fed event by event; dropped after a failure. */
    private @Nullable StreamParser fed;
    /** A failure held back until the events decoded before it in the same SSE event are delivered. */
    private @Nullable RuntimeException failure;

    ChatCompletionsStreamDecoder(CompatProfile profile) {
        this.provider = profile.name();
        this.parser = new ChunkParser(profile);
        this.assembler = new EventAssembler(profile.name());
    }

    /** Returns the events of one SSE event; throws a {@code RuminateException} to end the stream. */
    List<ChatEvent> onEvent(SseEvent event) {
        throwHeldFailure();
        if (done) {
            return List.of();
        }
        byte[] data = event.data();
        if (event.isDone()) {
            done = true;
            List<ChatEvent> out = new ArrayList<>(4);
            assembler.complete(out);
            return out;
        }
        if ("error".equals(event.type())) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(data));
        }
        if (!"message".equals(event.type()) || isBlank(data)) {
            return List.of();
        }
        int doneLine = doneLine(data);
        List<ChatEvent> out = new ArrayList<>(4);
        try {
            StreamParser p = parser().feed(data, doneLine == NONE ? data.length : doneLine);
            while (parser.nextStreamed(p, chunk)) {
                if (chunk.error) {
                    byte[] object = Arrays.copyOfRange(data, chunk.from, chunk.to);
                    throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(object));
                }
                assembler.apply(chunk, false, out);
            }
        } catch (JacksonException e) {
            fed = null;
            return fail(out, new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; data: " + JsonReading.excerpt(data), event.line(), event.byteOffset(), e));
        } catch (ShapeException e) {
            fed = null;
            return fail(out, new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; data: " + JsonReading.excerpt(data), event.line(), event.byteOffset(), null));
        } catch (ProviderStreamException e) {
            fed = null;
            return fail(out, e);
        }
        if (doneLine != NONE) {
            done = true;
            assembler.complete(out);
        }
        return out;
    }

    private StreamParser parser() {
        StreamParser p = fed;
        if (p == null) {
            p = StreamParser.create(ChunkParser.JSON);
            fed = p;
        }
        return p;
    }

    /** Returns the closing events when the body ends; throws when the response is incomplete. */
    List<ChatEvent> onComplete() {
        throwHeldFailure();
        if (done) {
            return List.of();
        }
        if (!assembler.finishSeen()) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended without [DONE] or a finish_reason"
                    : "the body ended before the response started", null);
        }
        done = true;
        List<ChatEvent> out = new ArrayList<>(2);
        assembler.complete(out);
        return out;
    }

    /**
     * Ends the stream at once when nothing was decoded before the failure; otherwise returns what
     * was, and holds the failure back for the next call.
     */
    private List<ChatEvent> fail(List<ChatEvent> out, RuntimeException error) {
        if (out.isEmpty()) {
            throw error;
        }
        failure = error;
        return out;
    }

    private void throwHeldFailure() {
        RuntimeException held = failure;
        if (held != null) {
            failure = null;
            throw held;
        }
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

    private static boolean isBlank(byte[] data) {
        for (byte b : data) {
            if (!isSpace(b)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

}
