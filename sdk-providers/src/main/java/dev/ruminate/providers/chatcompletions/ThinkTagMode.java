package dev.ruminate.providers.chatcompletions;

import java.util.Objects;

/**
 * How a server writes reasoning into the answer text as tags, e.g. {@code <think>…</think>}
 * (DeepSeek-R1 distills, QwQ, Qwen3 without a reasoning parser, Perplexity sonar-reasoning).
 *
 * <p>A profile that has one asks for the content to be run through the think-tag splitter, which
 * turns the tagged text into reasoning with source {@code tags}. The same tags are used when
 * reasoning is sent back as tagged text ({@link ReasoningSendBack.Mode#THINK_TAGS}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param openTag the opening tag, e.g. {@code <think>}
 * @param closeTag the closing tag, e.g. {@code </think>}
 * @param startInside true when the model's chat template opens the block in the prompt, so the
 *     output starts inside it and only the closing tag appears (DeepSeek-R1-0528, QwQ, Qwen3)
 * @since 0.1
 */
public record ThinkTagMode(String openTag, String closeTag, boolean startInside) {

    /** {@code <think>…</think>}, output starting outside the block. */
    public static final ThinkTagMode DEFAULT = new ThinkTagMode("<think>", "</think>", false);

    /**
     * Validates the tags.
     *
     * @throws IllegalArgumentException if a tag is empty or both are the same
     */
    public ThinkTagMode {
        Objects.requireNonNull(openTag, "openTag");
        Objects.requireNonNull(closeTag, "closeTag");
        if (openTag.isEmpty() || closeTag.isEmpty()) {
            throw new IllegalArgumentException("think tags must not be empty");
        }
        if (openTag.equals(closeTag)) {
            throw new IllegalArgumentException("open and close tag must differ, both were " + openTag);
        }
    }
}
