package dev.ruminate.core.error;

/**
 * The streamed reasoning differs from the provider's final reasoning, and the reducer was told to
 * fail on a mismatch.
 *
 * <p>Safe to share between threads once thrown; its message and fields never hold a credential.
 *
 * @since 0.1
 */
public final class ReasoningMismatchException extends RuminateException {

    private static final long serialVersionUID = 1L;

    /** The part that differs. */
    private final int part;
    /** Where the texts first differ. */
    private final int offset;

    /**
     * Creates the error.
     *
     * @param part the reasoning part that differs
     * @param offset the first character offset where streamed and final text differ
     * @param detail a short description with excerpts
     */
    public ReasoningMismatchException(int part, int offset, String detail) {
        super("streamed reasoning of part " + part + " differs from the provider's final text at offset " + offset
                + ": " + detail, null);
        this.part = part;
        this.offset = offset;
    }

    /**
     * Returns the part that differs.
     *
     * @return the part index
     */
    public int part() {
        return part;
    }

    /**
     * Returns where the texts first differ.
     *
     * @return the character offset
     */
    public int offset() {
        return offset;
    }

    @Override
    public String type() {
        return "reasoning_mismatch";
    }
}
