package dev.ruminate.providers.responses;

/**
 * How a Responses server is asked for reasoning: which fields of the {@code reasoning} object it
 * takes.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public enum ResponsesReasoningStyle {
    /** {@code reasoning: {effort, summary}}: OpenAI, Azure, OpenRouter; the summary is {@code auto}. */
    EFFORT_AND_SUMMARY,
    /** {@code reasoning: {effort}}: servers that reason in the open and have no summaries (gpt-oss hosts, xAI). */
    EFFORT_ONLY,
    /** No {@code reasoning} object: servers that choose by model (DeepSeek); use extras to send one. */
    NONE
}
