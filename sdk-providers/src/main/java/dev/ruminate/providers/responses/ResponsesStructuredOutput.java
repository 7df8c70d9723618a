package dev.ruminate.providers.responses;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.spi.UnsupportedInput;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * How a Responses request carries its output schema: the one decision the encoder writes and
 * {@link ResponsesCodec#structuredOutputMethod} reports, and the native form's writer.
 *
 * <p>The native form is {@code text: {format: {type: "json_schema", name, schema, strict,
 * description?}}} on servers whose {@link ResponsesCapabilities#jsonSchema()} says so. Otherwise
 * (or with the {@code TOOL} strategy) the schema becomes a function tool, forced with
 * {@code tool_choice: {"type": "function", "name": …}} where the server allows a forced choice,
 * else offered with {@code tool_choice: "auto"} and an instruction. Every Responses server takes
 * function tools, and none is assumed to have a schemaless JSON mode the encoder would need.
 *
 * <p>Stateless and thread-safe.
 */
final class ResponsesStructuredOutput {

    private ResponsesStructuredOutput() {
    }

    /**
     * Decides the method of a request's output schema.
     *
     * @param profile the server's profile
     * @param request the request
     * @return the method, or null when the request has no output schema
     * @throws UnsupportedInput if the schema's strategy asks for a form the server lacks
     */
    static @Nullable StructuredOutputMethod method(ResponsesProfile profile, ChatRequest request) {
        OutputSchema output = request.output();
        if (output == null) {
            return null;
        }
        ResponsesCapabilities c = profile.capabilities();
        return new StructuredOutputs(c.jsonSchema(), true, c.forcedToolChoice(), false).method(output);
    }

    /**
     * Writes the native {@code format} object.
     *
     * @param g the generator, after the {@code format} name
     * @param output the schema
     */
    static void writeFormat(JsonGenerator g, OutputSchema output) {
        g.writeStartObject();
        g.writeStringProperty("type", "json_schema");
        g.writeStringProperty("name", output.name());
        g.writeName("schema");
        JsonWriting.copyJson(g, output.schema(), "the output schema " + output.name());
        g.writeBooleanProperty("strict", output.strict());
        if (output.description() != null) {
            g.writeStringProperty("description", output.description());
        }
        g.writeEndObject();
    }
}
