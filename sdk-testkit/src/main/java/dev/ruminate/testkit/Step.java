package dev.ruminate.testkit;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One step of a script, the same for every wire format: what the model says, in the order the
 * stream says it. How a step looks on the wire is the business of each format's writer; the
 * fluent script of a format only adds the kinds of step its API has.
 *
 * <p>Texts are whole here; writers cut them with {@link Script#pieces(String)}. Immutable; a step
 * checks its non-null components itself, so the scripts need not.
 */
sealed interface Step {

    /**
     * Reasoning.
     *
     * @param id the item id, where the API gives reasoning one (Responses); otherwise null
     * @param texts the visible texts in order: one for most APIs; the summary parts of a Responses
     *     item; none for reasoning that is not shown (Anthropic's omitted display, a Responses item
     *     without summary)
     * @param summary true when the texts are summaries rather than the raw reasoning (Responses)
     * @param signature the opaque state that seals it (Anthropic and Bedrock signature, Responses
     *     {@code encrypted_content}), or null
     */
    record Reasoning(@Nullable String id, List<String> texts, boolean summary, @Nullable String signature)
            implements Step {

        public Reasoning {
            texts = List.copyOf(texts);
        }

        /** Reasoning as one raw text, the shape most APIs stream. */
        static Reasoning of(String text, @Nullable String signature) {
            return new Reasoning(null, List.of(Objects.requireNonNull(text, "text")), false, signature);
        }

        /** All texts joined, for whole bodies that carry reasoning as one string. */
        String text() {
            return String.join("", texts);
        }
    }

    /**
     * Answer text.
     *
     * @param text the text
     * @param signature a thought signature riding on its first piece (Gemini), or null
     */
    record Text(String text, @Nullable String signature) implements Step {

        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * A call of a tool the client runs.
     *
     * @param id the call id, or null where the API gives none (Gemini, older Ollama)
     * @param name the tool name
     * @param arguments the arguments JSON text
     * @param signature a thought signature on the call (Gemini), or null
     * @param streamedArgument the name of the one string argument that Vertex AI streams in
     *     {@code partialArgs} fragments (Gemini; the arguments are then {@code {name: value}}), or null
     */
    record ToolCall(@Nullable String id, String name, String arguments, @Nullable String signature,
                    @Nullable String streamedArgument) implements Step {

        public ToolCall {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
        }

        /** A call with an id and nothing else. */
        static ToolCall of(@Nullable String id, String name, String arguments) {
            return new ToolCall(id, name, arguments, null, null);
        }
    }

    /**
     * A call of a tool the provider runs (Anthropic {@code server_tool_use} or {@code mcp_tool_use}).
     *
     * @param id the call id
     * @param name the tool name
     * @param arguments the input JSON text
     * @param mcpServer the MCP server's name, or null for the provider's own tools
     */
    record ServerToolCall(String id, String name, String arguments, @Nullable String mcpServer) implements Step {

        public ServerToolCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
        }
    }

    /**
     * The result of a provider-run tool, sent whole (Anthropic).
     *
     * @param type the block type, such as {@code web_search_tool_result}
     * @param toolUseId the id of the call it answers
     * @param contentJson its content as JSON text
     */
    record ServerToolResult(String type, String toolUseId, String contentJson) implements Step {

        public ServerToolResult {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(toolUseId, "toolUseId");
            Objects.requireNonNull(contentJson, "contentJson");
        }
    }

    /**
     * Reasoning the provider hands over only encrypted (Anthropic {@code redacted_thinking},
     * Bedrock {@code redactedContent}).
     *
     * @param data the opaque data
     */
    record Redacted(String data) implements Step {

        public Redacted {
            Objects.requireNonNull(data, "data");
        }
    }

    /**
     * A keep-alive that carries nothing for the model's answer: an SSE comment (Chat Completions)
     * or a {@code ping} event (Anthropic).
     *
     * @param comment the comment text, on one line; formats with a fixed keep-alive ignore it
     */
    record KeepAlive(String comment) implements Step {

        public KeepAlive {
            Objects.requireNonNull(comment, "comment");
        }
    }

    /**
     * An error reported inside the stream after it began (Anthropic's {@code error} event, Ollama's
     * error line).
     *
     * @param type the error type, or null where the API has none (Ollama)
     * @param message the message
     */
    record Error(@Nullable String type, String message) implements Step {

        public Error {
            Objects.requireNonNull(message, "message");
        }
    }

    /** The failure of a writer handed a step its wire format has no shape for. */
    static IllegalStateException unsupported(Step step, String format) {
        return new IllegalStateException(format + " has no wire shape for " + step.getClass().getSimpleName());
    }
}
