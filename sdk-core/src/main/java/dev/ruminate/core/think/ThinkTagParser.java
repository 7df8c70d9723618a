package dev.ruminate.core.think;

/**
 * Splits text fed to it in fragments into reasoning and answer pieces at the open and close tags,
 * wherever the fragment boundaries fall.
 *
 * <p>Outside a reasoning block it looks only for the open tag, inside only for the close tag: a
 * second open tag inside a block is reasoning text, and a close tag outside one is answer text.
 * Text is passed on exactly as the model wrote it; in particular the newlines that usually follow
 * the tags are kept, because which whitespace is meaningful (Markdown, code) is not ours to guess,
 * and the concatenated pieces then always equal the input less the tags that switched mode.
 *
 * <p>At the end of a fragment it holds back only a suffix that is a proper prefix of the tag it is
 * looking for (at most the tag's length minus one characters) and releases it as soon as the next
 * fragment decides it, or at {@link #finish()} as text of the current mode: nothing is lost. In the
 * common case (the tag's first character not in the fragment, nothing held back) the fragment
 * itself is passed on, not a copy.
 *
 * <p>Not thread-safe: one instance serves one response, fed by one thread at a time.
 */
final class ThinkTagParser {

    /** Receives the pieces, in order; pieces are never empty. */
    @FunctionalInterface
    interface Sink {

        /**
         * Takes one piece.
         *
         * @param reasoning true for text inside a reasoning block, false for answer text
         * @param text the piece, never empty
         */
        void piece(boolean reasoning, String text);
    }

    private final String openTag;
    private final String closeTag;
    private final Sink sink;
    private boolean inside;
    /** The tag looked for in the current mode, and its first character. */
    private String tag;
    private char first;
    /** A proper prefix of {@link #tag}, seen at the end of the last fragment; usually empty. */
    private String held = "";

    ThinkTagParser(ThinkTagOptions options, Sink sink) {
        this.openTag = options.openTag();
        this.closeTag = options.closeTag();
        this.sink = sink;
        this.inside = options.startInside();
        this.tag = inside ? closeTag : openTag;
        this.first = tag.charAt(0);
    }

    /**
     * Feeds the next fragment and passes on every piece it decides.
     *
     * @param fragment the next fragment of the text, possibly empty
     */
    void feed(String fragment) {
        if (held.isEmpty()) {
            int at = fragment.indexOf(first);
            if (at < 0) {
                if (!fragment.isEmpty()) {
                    sink.piece(inside, fragment);
                }
                return;
            }
            scan(fragment, at);
        } else {
            String text = held.concat(fragment);
            held = "";
            scan(text, text.indexOf(first));
        }
    }

    /** Splits {@code text}, whose first occurrence of the tag's first character is at {@code at}. */
    private void scan(String text, int at) {
        int length = text.length();
        int from = 0;
        while (at >= 0) {
            int left = length - at;
            if (left >= tag.length()) {
                if (text.startsWith(tag, at)) {
                    emit(text, from, at);
                    from = at + tag.length();
                    inside = !inside;
                    tag = inside ? closeTag : openTag;
                    first = tag.charAt(0);
                    at = text.indexOf(first, from);
                    continue;
                }
            } else if (tag.regionMatches(0, text, at, left)) {
                // The rest of the text could still become the tag: keep it until the next
                // fragment decides. No later position can hold a whole tag, so stop here.
                emit(text, from, at);
                held = text.substring(at);
                return;
            }
            at = text.indexOf(first, at + 1);
        }
        emit(text, from, length);
    }

    /** Releases any held-back text as text of the current mode; call once the text is complete. */
    void finish() {
        if (!held.isEmpty()) {
            String rest = held;
            held = "";
            sink.piece(inside, rest);
        }
    }

    private void emit(String text, int from, int to) {
        if (from < to) {
            // substring(0, length()) returns the string itself: no copy in the common case.
            sink.piece(inside, text.substring(from, to));
        }
    }
}
