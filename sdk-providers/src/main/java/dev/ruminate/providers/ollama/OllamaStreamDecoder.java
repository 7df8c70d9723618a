package dev.ruminate.providers.ollama;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.transport.wire.JsonLine;
import java.util.List;

/**
 * Decodes the NDJSON lines of one streamed Ollama response ({@code /api/chat} or
 * {@code /api/generate}) into events.
 *
 * <p>The response completes at the line with {@code "done": true}; lines after it are ignored. A
 * body that ends without one fails with {@link IncompleteStreamException}. A line with an
 * {@code error} (Ollama's shape for a failure after the stream began, {@code {"error": "…"}})
 * fails with {@link ProviderStreamException} carrying its message. Malformed JSON fails with
 * {@link dev.ruminate.core.error.ProtocolException} {@code MALFORMED_JSON} naming the line and its byte offset; JSON of the
 * wrong shape with {@code UNEXPECTED_SHAPE}.
 *
 * <p>One instance per response; not thread-safe.
 */
final class OllamaStreamDecoder implements StreamDecoder<JsonLine> {

    private final String provider;
    private final OllamaLine line = new OllamaLine();
    /** One parser for the stream; a failure ends the stream, so it is never fed after one. */
    private final StreamParser parser = StreamParser.create(OllamaLineParser.JSON);
    private final OllamaEventAssembler assembler;

    OllamaStreamDecoder(String provider) {
        this.provider = provider;
        this.assembler = new OllamaEventAssembler(provider);
    }

    @Override
    public void decode(JsonLine json, List<ChatEvent> out) {
        if (assembler.completed()) {
            return;
        }
        byte[] bytes = json.bytes();
        OllamaLineParser.parse(parser.feed(bytes), bytes, line);
        if (line.error) {
            throw new ProviderStreamException(provider, ErrorBodyParser.standard().parse(bytes));
        }
        assembler.apply(line, out);
    }

    /** Adds nothing when the response completed; throws when the body ended before {@code done}. */
    @Override
    public void end(List<ChatEvent> out) {
        if (!assembler.completed()) {
            throw new IncompleteStreamException(assembler.started()
                    ? "the body ended without a line with \"done\": true"
                    : "the body ended before the response started", null);
        }
    }

}
