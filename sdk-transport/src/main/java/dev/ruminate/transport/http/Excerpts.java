package dev.ruminate.transport.http;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Short, single-line renderings of response bodies for exception messages. */
final class Excerpts {

    private Excerpts() {
    }

    /**
     * Decodes at most {@code maxBytes} of a body as UTF-8; a character cut at the end becomes a
     * replacement character, which is harmless in a diagnostic.
     */
    static String text(byte[] body, int maxBytes) {
        return new String(body, 0, Math.min(body.length, maxBytes), StandardCharsets.UTF_8);
    }

    /** Collapses every run of whitespace and control characters into one space and cuts the result. */
    static String oneLine(String text, int maxChars) {
        StringBuilder sb = new StringBuilder(Math.min(text.length(), maxChars + 1));
        boolean pendingSpace = false;
        for (int i = 0; i < text.length() && sb.length() < maxChars; i++) {
            char c = text.charAt(i);
            if (c <= ' ' || Character.isWhitespace(c)) {
                pendingSpace = sb.length() > 0;
                continue;
            }
            if (pendingSpace) {
                sb.append(' ');
                pendingSpace = false;
            }
            sb.append(c);
        }
        if (sb.length() >= maxChars && sb.length() < text.strip().length()) {
            sb.setLength(maxChars);
            sb.append('…');
        }
        return sb.toString();
    }

    /**
     * Summarizes a body that is not JSON: an HTML page's {@code <title>}, else the start of the text.
     *
     * @return the summary, empty for an empty body
     */
    static String summary(byte[] body, int maxChars) {
        String text = text(body, 8 * 1024);
        String lower = text.toLowerCase(Locale.ROOT);
        int open = lower.indexOf("<title>");
        if (open >= 0) {
            int close = lower.indexOf("</title>", open);
            if (close > open) {
                String title = oneLine(text.substring(open + "<title>".length(), close), maxChars);
                if (!title.isEmpty()) {
                    return title;
                }
            }
        }
        return oneLine(text, maxChars);
    }
}
