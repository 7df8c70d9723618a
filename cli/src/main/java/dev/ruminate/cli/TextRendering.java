package dev.ruminate.cli;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ReasoningCheck;
import org.jspecify.annotations.Nullable;

/** Renders a reduced message for people: reasoning set apart above the answer, then tool calls, usage and the verdict. */
final class TextRendering {

    private static final int BLOCK_CHARS = 240;

    private TextRendering() {
    }

    static String render(AssistantMessage message, ReasoningCheck check, @Nullable RuminateException error, Style style) {
        StringBuilder sb = new StringBuilder();
        sb.append(style.heading("provider " + message.provider() + " · model " + message.model()
                + " · finish " + (error != null ? "error" : message.finishReason().wireName()))).append('\n');
        for (Part part : message.parts()) {
            if (part instanceof ReasoningPart r) {
                String label = "── reasoning" + (r.summary() ? " summary" : "") + (r.source() != null ? " (" + r.source() + ")" : "")
                        + (r.seals().signature() != null ? " [signed]" : "")
                        + (r.seals().redacted() != null ? " [redacted]" : "")
                        + (r.seals().encrypted() != null ? " [encrypted]" : "") + " ──";
                sb.append(style.reasoning(label)).append('\n');
                if (!r.text().isEmpty()) {
                    sb.append(style.reasoning(LiveRenderer.printable(r.text()))).append('\n');
                }
            } else if (part instanceof TextPart t) {
                sb.append(style.heading("── answer ──")).append('\n').append(LiveRenderer.printable(t.text())).append('\n');
            } else if (part instanceof ToolCallPart c) {
                sb.append(style.tool("── tool call " + c.name() + (c.id() != null ? " (" + c.id() + ")" : "")
                        + (c.argumentsValid() ? "" : " [arguments are not valid JSON]") + " ──")).append('\n')
                        .append(style.tool(LiveRenderer.printable(c.arguments()))).append('\n');
            } else if (part instanceof ServerToolPart b) {
                sb.append(style.tool("── server tool " + b.type() + (b.name() != null ? " " + b.name() : "")
                        + (b.id() != null ? " (" + b.id() + ")" : "") + " ──")).append('\n')
                        .append(style.tool(LiveRenderer.printable(abbreviated(b.json())))).append('\n');
            }
        }
        sb.append(style.note(usage(message.usage()))).append('\n');
        sb.append(style.note(verdict(check))).append('\n');
        if (error != null) {
            sb.append(style.error("stream failed (" + error.type() + "): " + Failures.describe(error))).append('\n');
        }
        return sb.toString();
    }

    /** Server tool blocks can hold whole search results; the text view shows their start. */
    private static String abbreviated(String json) {
        return json.length() <= BLOCK_CHARS ? json : json.substring(0, BLOCK_CHARS) + "… (" + json.length() + " chars)";
    }

    static String usage(Usage usage) {
        if (usage.isUnknown()) {
            return "usage: not reported";
        }
        StringBuilder sb = new StringBuilder("usage:");
        append(sb, "input", usage.inputTokens());
        append(sb, "output", usage.outputTokens());
        append(sb, "reasoning", usage.reasoningTokens());
        append(sb, "cached", usage.cachedTokens());
        append(sb, "cache-write", usage.cacheWriteTokens());
        return sb.toString();
    }

    static String verdict(ReasoningCheck check) {
        return switch (check.verdict()) {
            case MATCHED -> "reasoning check: matched (" + check.checkedParts() + " final text(s) from the provider agree with the stream)";
            case MISMATCHED -> "reasoning check: MISMATCHED at part " + check.part() + ", offset " + check.offset()
                    + (check.whitespaceOnly() ? " (whitespace only)" : "") + ": " + check.detail();
            case UNAVAILABLE -> "reasoning check: unavailable (this API streams reasoning deltas only; it reports no final text)";
        };
    }

    private static void append(StringBuilder sb, String label, @Nullable Long value) {
        if (value != null) {
            sb.append(' ').append(label).append(' ').append(value);
        }
    }
}
