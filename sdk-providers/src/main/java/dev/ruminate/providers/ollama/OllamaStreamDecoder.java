package dev.ruminate.providers.ollama;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.http.ErrorBodyParser;
import dev.ruminate.transport.wire.JsonLine;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

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
 * <p>Once the response has started, a line of the dominant shape (a text or thinking delta, not
 * done) is read by {@link OllamaDeltaScanner} from its bytes, without Jackson; every other line, and
 * any the scanner does not recognise, is parsed with Jackson. Both give the same events
 * ({@code OllamaFastPathDifferentialTest}).
 *
 * <p>Lent-safe: a line is read through its range ({@link JsonLine#array()}, {@link JsonLine#offset()},
 * {@link JsonLine#length()}) during the call only; what outlives the call is copied.
 *
 * <p>One instance per response; not thread-safe.
 */
final class OllamaStreamDecoder implements StreamDecoder<JsonLine> {

    private final String provider;
    private final OllamaLine line = new OllamaLine();
    /** One parser for the stream; a failure ends the stream, so it is never fed after one. */
    private final StreamParser parser = StreamParser.create(OllamaLineParser.JSON);
    private final OllamaEventAssembler assembler;
    /** Reads the dominant delta lines by their bytes; null when the fast path is off (tests). */
    private final @Nullable OllamaDeltaScanner scanner;

    OllamaStreamDecoder(String provider) {
        this(provider, true);
    }

    /**
     * Creates a decoder, with or without the fast path.
     *
     * @param fastPath false to parse every line with Jackson: for the tests that hold the two paths
     *     equal, not a setting
     */
    OllamaStreamDecoder(String provider, boolean fastPath) {
        this.provider = provider;
        this.assembler = new OllamaEventAssembler(provider);
        this.scanner = fastPath ? new OllamaDeltaScanner() : null;
    }

    @Override
    public void decode(JsonLine json, List<ChatEvent> out) {
        if (assembler.completed()) {
            return;
        }
        byte[] array = json.array();
        int offset = json.offset();
        int length = json.length();
        // Once the response has started the model is no longer read, so the dominant delta line can be
        // read by its bytes; anything the scanner does not recognise goes to Jackson.
        if (scanner != null && assembler.started() && scanner.scan(array, offset, length, line)) {
            assembler.apply(line, out);
            return;
        }
        OllamaLineParser.parse(parser.feed(array, offset, length), array, offset, line);
        if (line.error) {
            byte[] bytes = Arrays.copyOfRange(array, offset, offset + length);
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
