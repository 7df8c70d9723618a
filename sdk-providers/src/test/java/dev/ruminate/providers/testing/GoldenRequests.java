package dev.ruminate.providers.testing;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * What the golden request-body tests of issue 18's features share: one codec's bodies as JSON
 * trees, the warnings its encoder reported (as {@code "code: message"} lines), and the schema, output
 * tool texts and media bytes the goldens are written with. One instance a test (JUnit makes one a
 * test method), so the warnings are those of that test's requests.
 */
public final class GoldenRequests {

    /** The goldens' output schema text. */
    public static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
            + "\"required\":[\"city\"]}";
    /** The goldens' output schema, named {@code answer}, strict, AUTO. */
    public static final OutputSchema OUTPUT = OutputSchema.of("answer", SCHEMA);
    /** The output tool's description, as every family writes it. */
    public static final String TOOL_DESCRIPTION = "Give the final answer by calling this tool: its arguments are the answer.";
    /** The TOOL_AUTO instruction for {@link #OUTPUT}. */
    public static final String AUTO_INSTRUCTION = "When you have the final answer, call the tool answer with the answer as "
            + "its arguments, instead of answering in text.";
    /** Bytes that stand for a PNG image (the encoders do not read them). */
    public static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};
    /** Bytes that stand for a PDF document. */
    public static final byte[] PDF = "%PDF-1.7".getBytes(StandardCharsets.US_ASCII);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final WireCodec<?> codec;
    private final RequestWarnings warnings = new RequestWarnings();

    /**
     * Encodes with a codec.
     *
     * @param codec the family's codec
     */
    public GoldenRequests(WireCodec<?> codec) {
        this.codec = codec;
    }

    /** Returns the body of a request (not streamed) as a JSON tree, its warnings collected. */
    public JsonNode encode(ChatRequest request) {
        return MAPPER.readTree(codec.encode(request, false, warnings));
    }

    /** Returns JSON text as a tree, to compare a body with. */
    public static JsonNode json(String text) {
        return MAPPER.readTree(text);
    }

    /** Returns the warnings of the requests encoded so far. */
    public RequestWarnings warnings() {
        return warnings;
    }

    /** Returns the warnings of the requests encoded so far, as {@code "code: message"}. */
    public List<String> warningTexts() {
        return warnings.list().stream().map(w -> w.code() + ": " + w.message()).toList();
    }
}
