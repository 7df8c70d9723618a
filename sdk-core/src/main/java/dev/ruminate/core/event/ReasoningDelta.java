package dev.ruminate.core.event;

import java.util.Objects;

/**
 * A fragment of reasoning ("thinking") text.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param part the part this fragment belongs to
 * @param text the fragment, possibly empty
 * @param summary true when the provider streams a summary of its reasoning rather than the full
 *     text (OpenAI Responses summaries, Gemini thought summaries)
 * @param source the wire field the text came from ({@code reasoning_content}, {@code reasoning},
 *     {@code reasoning_text}, {@code reasoning_details}, {@code thinking}, …), or {@code tags} when
 *     it was split out of {@code <think>} tags in the content; it decides how the text is sent back
 * @since 0.1
 */
public record ReasoningDelta(int part, String text, boolean summary, String source) implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param part see {@link #part()}
     * @param text see {@link #text()}
     * @param summary see {@link #summary()}
     * @param source see {@link #source()}
     */
    public ReasoningDelta {
        Parts.requireIndex(part);
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
    }
}
