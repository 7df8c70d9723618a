package dev.ruminate.core.request;

/**
 * How a provider carried a request's {@link OutputSchema}, as reported on the result. Values may be
 * added, so a {@code switch} over this type should have a {@code default} branch. An enum:
 * immutable and thread-safe.
 *
 * @since 0.3
 */
public enum StructuredOutputMethod {
    /** The API's own schema-constrained output (OpenAI {@code json_schema}, Gemini {@code responseJsonSchema}, …). */
    NATIVE,
    /**
     * A tool whose arguments are the answer, with the tool choice forcing it; the arguments become the
     * answer text.
     */
    TOOL_FORCED,
    /**
     * The same tool, offered with {@code tool_choice: auto} and an instruction to call it, because the
     * API refuses a forced tool choice while reasoning is on; validated, with one corrective retry.
     */
    TOOL_AUTO,
    /** The API's JSON mode (any JSON object) with the schema in the instructions; validated, with one corrective retry. */
    JSON_MODE,
    /** The schema in the instructions alone, where the API has no JSON control; validated, with one corrective retry. */
    INSTRUCTION;

    /**
     * Tells whether the provider constrains the output to the schema itself; when not, the SDK's
     * validation is what catches a wrong answer, and it retries once with the violations.
     *
     * @return true for {@link #NATIVE} and {@link #TOOL_FORCED}
     */
    public boolean constrained() {
        return this == NATIVE || this == TOOL_FORCED;
    }
}
