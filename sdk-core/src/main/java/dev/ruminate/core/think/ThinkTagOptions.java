package dev.ruminate.core.think;

import java.util.Objects;

/**
 * Says which tags enclose a model's reasoning in its answer text, and whether the output begins
 * inside them.
 *
 * <p>Tags are matched exactly, case-sensitively, as plain text: {@code <think>} does not match
 * {@code <Think>} or {@code < think>}. Instances are immutable and safe to share.
 *
 * @param openTag the text that opens a reasoning block, e.g. {@code <think>}
 * @param closeTag the text that closes it, e.g. {@code </think>}
 * @param startInside true when the output begins inside a reasoning block, because the model's
 *     chat template already wrote the open tag into the prompt, so that only the close tag appears
 * @since 0.1
 */
public record ThinkTagOptions(String openTag, String closeTag, boolean startInside) {

    /**
     * {@code <think>} and {@code </think>}, with the output beginning outside the block.
     *
     * @since 0.1
     */
    public static final ThinkTagOptions DEFAULT = new ThinkTagOptions("<think>", "</think>", false);

    /**
     * Creates the value, checking its components.
     *
     * @param openTag see {@link #openTag()}
     * @param closeTag see {@link #closeTag()}
     * @param startInside see {@link #startInside()}
     */
    public ThinkTagOptions {
        Objects.requireNonNull(openTag, "openTag");
        Objects.requireNonNull(closeTag, "closeTag");
        if (openTag.isEmpty() || closeTag.isEmpty()) {
            throw new IllegalArgumentException(
                    "tags must not be empty, were \"" + openTag + "\" and \"" + closeTag + "\"");
        }
        if (openTag.equals(closeTag)) {
            throw new IllegalArgumentException("open and close tag must differ, both were \"" + openTag + "\"");
        }
    }

    /**
     * Returns the default tags for a model whose output begins inside the reasoning block, as
     * with chat templates that put {@code <think>\n} at the end of the prompt (DeepSeek-R1-0528,
     * QwQ, Qwen3 thinking): the output is reasoning until {@code </think>}.
     *
     * @return {@code <think>}, {@code </think>}, starting inside
     * @since 0.1
     */
    public static ThinkTagOptions startingInside() {
        return new ThinkTagOptions(DEFAULT.openTag, DEFAULT.closeTag, true);
    }
}
