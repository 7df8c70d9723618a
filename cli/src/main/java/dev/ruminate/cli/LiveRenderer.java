package dev.ruminate.cli;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.event.Warning;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Prints a response as it streams: reasoning set apart (dim, or labelled without colours) above the
 * answer, and each tool call once its part ends. Called from one thread at a time (a flux's onNext).
 */
final class LiveRenderer {

    private enum Mode { NONE, REASONING, ANSWER }

    private final PrintStream out;
    private final Style style;
    private final Map<Integer, StringBuilder> toolArguments = new HashMap<>();
    private final Map<Integer, String> toolNames = new HashMap<>();
    private Mode mode = Mode.NONE;
    /** True until a block has printed visible text: leading line breaks are not shown (display only). */
    private boolean blockStart;

    LiveRenderer(PrintStream out, Style style) {
        this.out = out;
        this.style = style;
    }

    /**
     * Drops control characters other than line breaks and tabs: model output must not drive the
     * terminal (escape sequences can rewrite the screen or the window title).
     */
    static String printable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isControl(c)) {
                StringBuilder sb = new StringBuilder(text.length());
                for (int j = 0; j < text.length(); j++) {
                    char d = text.charAt(j);
                    if (!isControl(d)) {
                        sb.append(d);
                    }
                }
                return sb.toString();
            }
        }
        return text;
    }

    private static boolean isControl(char c) {
        return (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || (c >= 0x7f && c < 0xa0);
    }

    void onEvent(ChatEvent event) {
        if (event instanceof ReasoningDelta d) {
            switchTo(Mode.REASONING, "  thinking (" + d.source() + (d.summary() ? ", summary" : "") + ")");
            out.print(style.reasoning(visible(d.text())));
        } else if (event instanceof ContentDelta d) {
            switchTo(Mode.ANSWER, "  answer");
            out.print(visible(d.text()));
        } else if (event instanceof ToolCallDelta d) {
            if (d.name() != null) {
                toolNames.put(d.part(), d.name());
            }
            toolArguments.computeIfAbsent(d.part(), k -> new StringBuilder()).append(d.argumentsDelta());
        } else if (event instanceof ServerToolBlock b) {
            switchTo(Mode.NONE, null);
            out.println(style.tool(printable("  → server tool " + b.type() + (b.name() != null ? " " + b.name() : ""))));
        } else if (event instanceof PartEnded e) {
            if (toolArguments.containsKey(e.part())) {
                switchTo(Mode.NONE, null);
                out.println(style.tool(printable("  → tool call " + toolNames.getOrDefault(e.part(), "?") + " "
                        + toolArguments.remove(e.part()))));
            }
        } else if (event instanceof Warning w) {
            // what the SDK changed on the user's behalf is shown, never hidden (the message holds no opaque value)
            switchTo(Mode.NONE, null);
            out.println(style.tool(printable("  ! warning " + w.code() + ": " + w.message())));
        } else if (event instanceof OutputChecked c) {
            // the verdict on the structured answer; a refused one is printed again by the corrective attempt
            switchTo(Mode.NONE, null);
            String verdict = c.valid() ? "valid" : "invalid: " + String.join("; ", c.violations());
            out.println(style.tool(printable((c.valid() ? "  ✓ output " : "  ! output ") + c.schemaName() + " ("
                    + c.method().name().toLowerCase(Locale.ROOT) + ") " + verdict
                    + (c.retrying() ? " (asking once more)" : ""))));
        } else if (!(event instanceof ResponseStarted || event instanceof Seal || event instanceof ReasoningFinal
                || event instanceof UsageUpdate || event instanceof ResponseCompleted)) {
            // the others have nothing to show while streaming; a type added to ChatEvent later must be
            // placed among them or rendered, not skipped unnoticed
            throw new IllegalStateException("the live renderer does not handle the event type " + event.getClass().getName());
        }
        out.flush();
    }

    /** Ends the current line, if a stream was printing. */
    void finish() {
        switchTo(Mode.NONE, null);
        // Calls whose part never ended explicitly (a stream that stopped early) are still shown.
        toolArguments.forEach((part, args) -> out.println(style.tool("  → tool call " + toolNames.getOrDefault(part, "?") + " " + args)));
        toolArguments.clear();
        out.flush();
    }

    private void switchTo(Mode next, @Nullable String header) {
        if (mode == next) {
            return;
        }
        if (mode != Mode.NONE) {
            out.println();
        }
        if (header != null) {
            out.println(next == Mode.REASONING ? style.reasoning(header) : style.heading(header));
        }
        mode = next;
        blockStart = true;
    }

    private String visible(String raw) {
        String text = printable(raw);
        if (!blockStart) {
            return text;
        }
        int start = 0;
        while (start < text.length() && (text.charAt(start) == '\n' || text.charAt(start) == '\r')) {
            start++;
        }
        if (start < text.length()) {
            blockStart = false;
        }
        return text.substring(start);
    }
}
