package dev.ruminate.core.reduce;

import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import org.jspecify.annotations.Nullable;

/** The mutable state of one part while a response is reduced. */
final class PartBuilder {

    enum Kind {
        REASONING("reasoning"), TEXT("text"), TOOL_CALL("tool-call"), SERVER_TOOL("server-tool");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    final Kind kind;
    /** Reasoning or answer text, or the tool call's JSON arguments. */
    final StringBuilder text = new StringBuilder();
    Seals seals = Seals.NONE;
    boolean summary;
    @Nullable String source;
    @Nullable String toolId;
    @Nullable String toolName;
    @Nullable String finalText;
    boolean mismatched;
    /** For a server tool block: the provider's type name and whole JSON. */
    @Nullable String blockType;
    @Nullable String blockJson;

    PartBuilder(Kind kind) {
        this.kind = kind;
    }

    /**
     * Tells whether the part, with the given text, would say nothing and carry nothing: text or
     * reasoning with empty text and no seal. Such a part is left out of built messages.
     *
     * @param finalText the text the part would be built with
     */
    boolean isEmpty(CharSequence finalText) {
        return (kind == Kind.TEXT || kind == Kind.REASONING) && finalText.length() == 0 && seals.isEmpty();
    }

    String toolNameOrUnknown() {
        return toolName != null ? toolName : "(unnamed)";
    }

    /**
     * Builds the immutable part.
     *
     * @param finalText the text to use (streamed, or the provider's final)
     * @param argumentsProblem for tool calls, why the arguments are invalid, or null when valid
     * @param sealed the part's opaque state as it is to be built ({@link #seals} with its provenance)
     */
    Part build(String finalText, @Nullable String argumentsProblem, Seals sealed) {
        return switch (kind) {
            case REASONING -> new ReasoningPart(finalText, summary, source, sealed);
            case TEXT -> new TextPart(finalText, sealed);
            case TOOL_CALL -> new ToolCallPart(toolId, toolName != null ? toolName : "", finalText,
                    argumentsProblem == null, sealed);
            case SERVER_TOOL -> new ServerToolPart(blockType != null ? blockType : "", toolId, toolName,
                    blockJson != null ? blockJson : "{}", sealed);
        };
    }
}
