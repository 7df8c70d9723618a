package dev.ruminate.core.request;

import dev.ruminate.core.internal.JsonValidity;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Asks for the answer as JSON matching a schema: structured output. Each provider family uses its
 * native form where its API has one (Chat Completions {@code response_format} with
 * {@code json_schema}, Responses {@code text.format}, Anthropic's output format, Gemini
 * {@code responseJsonSchema}, Ollama {@code format}); where only a tool would do, it offers a tool of
 * this name whose arguments are the answer, forced when the API allows it and, when reasoning is on
 * and the API refuses a forced tool choice (Anthropic, Bedrock, DeepSeek), offered with
 * {@code tool_choice: auto} and an instruction, then checked with one corrective retry. The method
 * used and the verdict of validating the final text against the schema are reported on the result
 * ({@link StructuredOutputMethod}).
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param name a name for the schema (and for the tool, where one is used): 1 to 64 letters, digits,
 *     underscores or hyphens
 * @param schema the JSON Schema, as the text of one JSON object
 * @param description what the output is, for the model, or null
 * @param strict true to ask the provider for strict schema adherence where it has such a switch
 *     (OpenAI's {@code strict}); the final text is validated either way
 * @param strategy how the schema may be carried
 * @since 0.3
 */
public record OutputSchema(String name, String schema, @Nullable String description, boolean strict,
                           Strategy strategy) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** How a provider may carry the schema. */
    public enum Strategy {
        /**
         * The native form where the API (and, where it depends on the model, the model) has one; else
         * a tool, negotiated around reasoning as described on {@link OutputSchema}; else JSON mode or
         * an instruction, validated with one corrective retry.
         */
        AUTO,
        /**
         * Only the native form; a provider without one refuses the request with an
         * {@link dev.ruminate.core.error.UnsupportedInputException} before anything is sent.
         */
        NATIVE,
        /** A tool whose arguments are the answer, even where a native form exists; negotiated around reasoning. */
        TOOL
    }

    /**
     * Creates the value, checking its components.
     *
     * @param name see {@link #name()}
     * @param schema see {@link #schema()}
     * @param description see {@link #description()}
     * @param strict see {@link #strict()}
     * @param strategy see {@link #strategy()}
     * @throws IllegalArgumentException if the name is not 1 to 64 of {@code [A-Za-z0-9_-]}, or the
     *     schema is not the text of one JSON object
     */
    public OutputSchema {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(strategy, "strategy");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("an output schema name must be 1 to 64 letters, digits, '_' or '-': " + name);
        }
        String problem = JsonValidity.problem(schema);
        if (problem != null) {
            throw new IllegalArgumentException("the output schema " + name + " is not JSON: " + problem);
        }
        if (!schema.stripLeading().startsWith("{")) {
            throw new IllegalArgumentException("the output schema " + name + " must be a JSON object");
        }
    }

    /**
     * A strict schema carried the provider's best way ({@link Strategy#AUTO}), without a description.
     *
     * @param name see {@link #name()}
     * @param schema see {@link #schema()}
     * @return the output schema
     */
    public static OutputSchema of(String name, String schema) {
        return new OutputSchema(name, schema, null, true, Strategy.AUTO);
    }

    /**
     * Returns this schema with another strategy.
     *
     * @param other the strategy
     * @return the output schema
     */
    public OutputSchema withStrategy(Strategy other) {
        return new OutputSchema(name, schema, description, strict, other);
    }
}
