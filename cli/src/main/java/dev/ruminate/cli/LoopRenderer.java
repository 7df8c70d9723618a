package dev.ruminate.cli;

import dev.ruminate.core.loop.Approval;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.loop.ToolError;
import java.io.PrintStream;
import org.jspecify.annotations.Nullable;

/**
 * Prints a tool loop as it runs: a heading per step, the step's reasoning and answer streamed as
 * {@code chat} shows them ({@link LiveRenderer}), each tool call's result or error as it finishes, the
 * step's usage and reasoning verdict, and finally why the loop stopped. Called from one thread at a
 * time (a flux's onNext).
 */
final class LoopRenderer {

    private static final int RESULT_CHARS = 400;

    private final PrintStream out;
    private final Style style;
    private @Nullable LiveRenderer live;
    private int step = -1;

    LoopRenderer(PrintStream out, Style style) {
        this.out = out;
        this.style = style;
    }

    void onEvent(LoopEvent event) {
        if (event instanceof LoopEvent.StepChatEvent e) {
            stepStarts(e.step());
            LiveRenderer r = live;
            if (r != null) {
                r.onEvent(e.event());
            }
        } else if (event instanceof LoopEvent.ToolStarted t) {
            stepStarts(t.step());
            endStream();
        } else if (event instanceof LoopEvent.ToolFinished f) {
            stepStarts(f.step());
            endStream();
            ToolError error = f.error();
            String line = "  ← " + f.call().name() + " (" + f.duration().toMillis() + " ms) "
                    + (error != null ? "error [" + error.kind().name().toLowerCase(java.util.Locale.ROOT) + "]: " : "= ")
                    + abbreviated(f.result().content()) + (f.truncated() ? " [truncated]" : "");
            out.println(error != null ? style.error(LiveRenderer.printable(line)) : style.tool(LiveRenderer.printable(line)));
        } else if (event instanceof LoopEvent.ApprovalRequested a) {
            stepStarts(a.step());
            endStream();
            out.println(style.note(LiveRenderer.printable("  ? " + a.call().name() + " awaits approval")));
        } else if (event instanceof LoopEvent.ApprovalResolved a) {
            String decision = a.approval() instanceof Approval.Denied d ? "denied: " + d.reason() : "approved";
            out.println(style.note(LiveRenderer.printable("  ? " + a.call().name() + " " + decision
                    + " (" + a.waited().toMillis() + " ms)")));
        } else if (event instanceof LoopEvent.StepCompleted c) {
            endStream();
            out.println(style.note("  step " + c.step() + " · finish " + c.message().finishReason().wireName() + " · "
                    + TextRendering.usage(c.usage()) + " · " + TextRendering.verdict(c.reasoningCheck())));
        } else if (event instanceof LoopEvent.LoopCompleted l) {
            endStream();
            out.println();
            out.println(style.heading("loop stopped: " + l.stopReason().name().toLowerCase(java.util.Locale.ROOT)
                    + " after " + l.step() + (l.step() == 1 ? " step" : " steps")));
            out.println(style.note("total " + TextRendering.usage(l.usage())));
        } else {
            // a type added to the sealed LoopEvent must be rendered here, not skipped unnoticed
            throw new IllegalStateException("the loop renderer does not handle " + event.getClass().getName());
        }
        out.flush();
    }

    /** Ends a stream that stopped mid-step (the loop failed): what it printed keeps its line. */
    void finish() {
        endStream();
    }

    private void stepStarts(int next) {
        if (next == step) {
            return;
        }
        endStream();
        step = next;
        out.println();
        out.println(style.heading(next == 0 ? "step 0 (calls left unanswered in the conversation)" : "step " + next));
        live = new LiveRenderer(out, style);
    }

    private void endStream() {
        LiveRenderer r = live;
        if (r != null) {
            r.finish();
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= RESULT_CHARS ? text : text.substring(0, RESULT_CHARS) + "… (" + text.length() + " chars)";
    }
}
