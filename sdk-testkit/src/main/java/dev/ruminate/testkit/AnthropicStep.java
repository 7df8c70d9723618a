package dev.ruminate.testkit;

/** One step of an {@link AnthropicScript}, in the order the stream produces it. */
sealed interface AnthropicStep {

    /** A thinking block: text streamed in {@code thinking_delta}s, then one {@code signature_delta}. */
    record Thinking(String text, String signature) implements AnthropicStep {
    }

    /** A redacted thinking block: its data whole in the start event, no deltas. */
    record Redacted(String data) implements AnthropicStep {
    }

    /** A text block streamed in {@code text_delta}s. */
    record Text(String text) implements AnthropicStep {
    }

    /**
     * A block with streamed input: {@code tool_use}, {@code server_tool_use} or {@code mcp_tool_use};
     * {@code serverName} is written for MCP blocks only.
     */
    record ToolUse(String type, String id, String name, String inputJson, String serverName) implements AnthropicStep {
    }

    /** A block that arrives whole ({@code web_search_tool_result}, …), its content given as JSON. */
    record ToolResult(String type, String toolUseId, String contentJson) implements AnthropicStep {
    }

    /** A {@code ping} event. */
    record Ping() implements AnthropicStep {
    }

    /** An {@code error} event, after which the stream ends. */
    record Error(String type, String message) implements AnthropicStep {
    }
}
