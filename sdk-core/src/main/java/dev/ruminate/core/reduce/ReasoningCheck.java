package dev.ruminate.core.reduce;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The verdict of the reasoning check, and where the first mismatch is.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param verdict the verdict
 * @param checkedParts how many reasoning parts had a final text to check against
 * @param part the first mismatching part, or -1
 * @param offset the first character offset where that part's streamed and final text differ, or -1
 * @param whitespaceOnly true when the first mismatch differs only in whitespace
 * @param detail a short human-readable description of the mismatch, with excerpts; null when none
 * @since 0.1
 */
public record ReasoningCheck(ReasoningVerdict verdict, int checkedParts, int part, int offset,
                             boolean whitespaceOnly, @Nullable String detail) {

    /** No final reasoning was reported. */
    public static final ReasoningCheck UNAVAILABLE = new ReasoningCheck(ReasoningVerdict.UNAVAILABLE, 0, -1, -1, false, null);

    /**
     * Creates the value, checking its components.
     *
     * @param verdict see {@link #verdict()}
     * @param checkedParts see {@link #checkedParts()}
     * @param part see {@link #part()}
     * @param offset see {@link #offset()}
     * @param whitespaceOnly see {@link #whitespaceOnly()}
     * @param detail see {@link #detail()}
     */
    public ReasoningCheck {
        Objects.requireNonNull(verdict, "verdict");
    }
}
