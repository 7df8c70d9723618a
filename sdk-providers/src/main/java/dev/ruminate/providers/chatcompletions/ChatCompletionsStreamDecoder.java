package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.http.ErrorBodyParser;
import dev.ruminate.core.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;

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
 * <p>One instance per response; not thread-safe.
 */
final class ChatCompletionsStreamDecoder {

    private static final int EXCERPT_CHARS = 200;

    private final String provider;
    private final ChunkParser parser;
    private final Chunk chunk = new Chunk();
    private final EventAssembler assembler;
    private boolean done;

    ChatCompletionsStreamDecoder(CompatProfile profile) {
        this.provider = profile.name();
        this.parser = new ChunkParser(profile);
        this.assembler = new EventAssembler(profile.name());
    }

    /** Returns the events of one SSE event; throws a {@code RuminateException} to end the stream. */
    List<ChatEvent> onEvent(SseEvent event) {
        if (done) {
            return List.of();
        }
        byte[] data = event.data();
        if (isDone(data)) {
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
        try {
            parser.parse(data, chunk);
        } catch (JacksonException e) {
            throw new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; data: " + excerpt(data), event.line(), event.byteOffset(), e);
        } catch (ShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; data: " + excerpt(data), event.line(), event.byteOffset(), null);
        }
        if (chunk.error) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(data));
        }
        List<ChatEvent> out = new ArrayList<>(4);
        assembler.apply(chunk, false, out);
        return out;
    }

    /** Returns the closing events when the body ends; throws when the response is incomplete. */
    List<ChatEvent> onComplete() {
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

    /** Tells whether the data is {@code [DONE]}, ignoring surrounding whitespace. */
    static boolean isDone(byte[] data) {
        int start = 0;
        int end = data.length;
        while (start < end && isSpace(data[start])) {
            start++;
        }
        while (end > start && isSpace(data[end - 1])) {
            end--;
        }
        if (end - start != 6) {
            return false;
        }
        return data[start] == '[' && data[start + 1] == 'D' && data[start + 2] == 'O' && data[start + 3] == 'N'
                && data[start + 4] == 'E' && data[start + 5] == ']';
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

    static String excerpt(byte[] data) {
        String text = new String(data, 0, Math.min(data.length, EXCERPT_CHARS * 4), StandardCharsets.UTF_8);
        return text.length() > EXCERPT_CHARS ? text.substring(0, EXCERPT_CHARS) + "…" : text;
    }
}
