package dev.ruminate.cli;

/**
 * Terminal styling: ANSI colours when writing to a terminal and {@code NO_COLOR} is unset, plain
 * text with labels otherwise, so that reasoning stays distinguishable from the answer either way.
 */
final class Style {

    private final boolean ansi;

    private Style(boolean ansi) {
        this.ansi = ansi;
    }

    static Style detect() {
        boolean terminal = System.console() != null;
        String noColor = System.getenv("NO_COLOR");
        return new Style(terminal && (noColor == null || noColor.isEmpty()));
    }

    static Style plain() {
        return new Style(false);
    }

    boolean ansi() {
        return ansi;
    }

    /** Reasoning: dim grey italics. */
    String reasoning(String s) {
        return ansi ? "\u001b[2;3;37m" + s + "\u001b[0m" : s;
    }

    /** Headings: bold. */
    String heading(String s) {
        return ansi ? "\u001b[1m" + s + "\u001b[0m" : s;
    }

    /** Tool calls and requests: cyan. */
    String tool(String s) {
        return ansi ? "\u001b[36m" + s + "\u001b[0m" : s;
    }

    /** Verdicts and usage: green. */
    String note(String s) {
        return ansi ? "\u001b[32m" + s + "\u001b[0m" : s;
    }

    /** Errors: red. */
    String error(String s) {
        return ansi ? "\u001b[31m" + s + "\u001b[0m" : s;
    }
}
