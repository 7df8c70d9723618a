package dev.ruminate.providers.responses;

/**
 * What one Responses server takes beyond the conversation itself: structured output in
 * {@code text.format}, a forced function choice, images and files in the input, media in tool
 * results, a prompt cache key. The encoder decides with these what it writes, and refuses (or warns
 * about) what the server lacks before anything is sent.
 *
 * <p>Immutable and thread-safe.
 *
 * @param jsonSchema the server constrains output to a JSON schema given as
 *     {@code text: {format: {type: "json_schema", …}}}, OpenAI's native structured output
 * @param forcedToolChoice the server accepts {@code tool_choice: {"type": "function", "name": …}}
 *     forcing one function (servers whose thinking mode refuses it, DeepSeek's, say no)
 * @param images user input takes {@code input_image} parts (by data URL or https URL)
 * @param documents user input takes {@code input_file} parts (by data URL or https URL)
 * @param toolResultMedia a {@code function_call_output}'s {@code output} may be an array of
 *     {@code input_text}, {@code input_image} and {@code input_file} parts
 * @param promptCacheKey the server takes {@code prompt_cache_key}, OpenAI's cache routing key
 * @since 0.3
 */
public record ResponsesCapabilities(boolean jsonSchema, boolean forcedToolChoice, boolean images, boolean documents,
                                    boolean toolResultMedia, boolean promptCacheKey) {

    /** What OpenAI's API takes, the default for a server that implements its specification: all of it. */
    public static final ResponsesCapabilities OPENAI = new ResponsesCapabilities(true, true, true, true, true, true);

    /**
     * Returns these capabilities with another structured-output switch.
     *
     * @param value see {@link #jsonSchema()}
     * @return the capabilities
     */
    public ResponsesCapabilities withJsonSchema(boolean value) {
        return new ResponsesCapabilities(value, forcedToolChoice, images, documents, toolResultMedia, promptCacheKey);
    }

    /**
     * Returns these capabilities with another forced-tool-choice switch.
     *
     * @param value see {@link #forcedToolChoice()}
     * @return the capabilities
     */
    public ResponsesCapabilities withForcedToolChoice(boolean value) {
        return new ResponsesCapabilities(jsonSchema, value, images, documents, toolResultMedia, promptCacheKey);
    }

    /**
     * Returns these capabilities with other media switches.
     *
     * @param takesImages see {@link #images()}
     * @param takesDocuments see {@link #documents()}
     * @param inToolResults see {@link #toolResultMedia()}
     * @return the capabilities
     */
    public ResponsesCapabilities withMedia(boolean takesImages, boolean takesDocuments, boolean inToolResults) {
        return new ResponsesCapabilities(jsonSchema, forcedToolChoice, takesImages, takesDocuments, inToolResults,
                promptCacheKey);
    }

    /**
     * Returns these capabilities with another prompt-cache-key switch.
     *
     * @param value see {@link #promptCacheKey()}
     * @return the capabilities
     */
    public ResponsesCapabilities withPromptCacheKey(boolean value) {
        return new ResponsesCapabilities(jsonSchema, forcedToolChoice, images, documents, toolResultMedia, value);
    }
}
