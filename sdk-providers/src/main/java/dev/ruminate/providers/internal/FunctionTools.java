package dev.ruminate.providers.internal;

import dev.ruminate.core.request.ToolDefinition;
import java.util.List;
import tools.jackson.core.JsonGenerator;

/**
 * Writes function tools as the APIs descended from OpenAI's declare them: a name, a description
 * (left out when empty) and the parameters' JSON schema. Chat Completions servers and Ollama's
 * {@code /api/chat} nest that declaration in {@code {"type": "function", "function": {…}}}, the
 * Responses API writes it flat after {@code "type": "function"}, and Gemini lists the bare
 * declarations with the schema under a name of its own.
 *
 * <p>Stateless and thread-safe.
 */
public final class FunctionTools {

    private FunctionTools() {
    }

    /**
     * Writes the {@code tools} property with each declaration nested under {@code function}, as
     * Chat Completions and Ollama take it.
     *
     * @param g the generator, in the request object
     * @param tools the tools, in order
     * @throws IllegalArgumentException naming the tool when a schema is not one JSON value
     */
    public static void writeNested(JsonGenerator g, List<ToolDefinition> tools) {
        g.writeArrayPropertyStart("tools");
        for (ToolDefinition tool : tools) {
            g.writeStartObject();
            g.writeStringProperty("type", "function");
            g.writeObjectPropertyStart("function");
            writeDeclaration(g, tool, "parameters");
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * Writes the {@code tools} property with each declaration beside its {@code type}, as the
     * Responses API takes it.
     *
     * @param g the generator, in the request object
     * @param tools the tools, in order
     * @throws IllegalArgumentException naming the tool when a schema is not one JSON value
     */
    public static void writeFlat(JsonGenerator g, List<ToolDefinition> tools) {
        g.writeArrayPropertyStart("tools");
        for (ToolDefinition tool : tools) {
            g.writeStartObject();
            g.writeStringProperty("type", "function");
            writeDeclaration(g, tool, "parameters");
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * Writes one declaration's properties: {@code name}, {@code description} unless empty, and the
     * schema.
     *
     * @param g the generator, in the declaration's object
     * @param tool the tool
     * @param schemaField the property that holds the schema ({@code parameters}, or Gemini's
     *     {@code parametersJsonSchema})
     * @throws IllegalArgumentException naming the tool when the schema is not one JSON value
     */
    public static void writeDeclaration(JsonGenerator g, ToolDefinition tool, String schemaField) {
        g.writeStringProperty("name", tool.name());
        if (!tool.description().isEmpty()) {
            g.writeStringProperty("description", tool.description());
        }
        g.writeName(schemaField);
        JsonWriting.writeSchema(g, tool);
    }
}
