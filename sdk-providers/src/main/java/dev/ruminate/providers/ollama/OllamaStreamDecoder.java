package dev.ruminate.providers.ollama;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.transport.wire.JsonLine;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.ShapeException;
import dev.ruminate.providers.internal.StreamParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;

/**
 * Decodes the NDJSON lines of one streamed Ollama response ({@code /api/chat} or
 * {@code /api/generate}) into events.
 *
 * <p>The response completes at the line with {@code "done": true}; lines after it are ignored. A
 * body that ends without one fails with {@link IncompleteStreamException}. A line with an
 * {@code error} (Ollama's shape for a failure after the stream began, {@code {"error": "…"}})
 * fails with {@link ProviderStreamException} carrying its message. Malformed JSON fails with
 * {@link ProtocolException} {@code MALFORMED_JSON} naming the line and its byte offset; JSON of the
 * wrong shape with {@code UNEXPECTED_SHAPE}.
 *
 * <p>One instance per response; not thread-safe.
 */
final class OllamaStreamDecoder {

    private final String provider;
    private final OllamaLine line = new OllamaLine();
    /** One parser for the stream; a failure ends the stream, so it is never fed after one. */
    private final StreamParser parser = StreamParser.create(OllamaLineParser.JSON);
    private final OllamaEventAssembler assembler;

    OllamaStreamDecoder(String provider) {
        this.provider = provider;
        this.assembler = new OllamaEventAssembler(provider);
    }

    /** Returns the events of one line; throws a {@code RuminateException} to end the stream. */
    List<ChatEvent> onLine(JsonLine json) {
        if (assembler.completed()) {
            return List.of();
        }
        byte[] bytes = json.bytes();
        try {
            OllamaLineParser.parse(parser.feed(bytes), bytes, line);
        } catch (JacksonException e) {
            throw new ProtocolException(ProtocolException.Reason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; line: " + JsonReading.excerpt(bytes), json.line(), json.byteOffset(), e);
        } catch (ShapeException e) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    e.getMessage() + "; line: " + JsonReading.excerpt(bytes), json.line(), json.byteOffset(), null);
        }
        if (line.error) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(bytes));
        }
        List<ChatEvent> out = new ArrayList<>(4);
        assembler.apply(line, out);
        return out;
    }

    /** Returns nothing when the response completed; throws when the body ended before {@code done}. */
    List<ChatEvent> onComplete() {
        if (!assembler.completed()) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended without a line with \"done\": true"
                    : "the body ended before the response started", null);
        }
        return List.of();
    }

}
