package dev.ruminate.spring;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import org.jspecify.annotations.Nullable;

/**
 * Renders prompts and completions as the JSON of the GenAI conventions' {@code gen_ai.input.messages},
 * {@code gen_ai.output.messages} and {@code gen_ai.system_instructions}: messages with a role and
 * parts ({@code text}, {@code reasoning}, {@code tool_call}, {@code tool_call_response}). Media are
 * left out (only their count is noted): binary content does not belong in a span. Used only when the
 * application opted in to content capture.
 */
final class GenAiContent {

    private GenAiContent() {
    }

    static @Nullable String systemInstructions(ChatRequest request) {
        StringBuilder json = new StringBuilder("[");
        for (Message message : request.messages()) {
            if (message instanceof SystemMessage system) {
                separate(json);
                part(json, "text", system.text());
            }
        }
        return json.length() == 1 ? null : json.append(']').toString();
    }

    static String inputMessages(ChatRequest request) {
        StringBuilder json = new StringBuilder("[");
        for (Message message : request.messages()) {
            // system messages are recorded as gen_ai.system_instructions
            if (message instanceof UserMessage user) {
                open(json, "user");
                part(json, "text", user.text());
                if (!user.media().isEmpty()) {
                    json.append(',');
                    part(json, "text", "[" + user.media().size() + " media not recorded]");
                }
                json.append("]}");
            } else if (message instanceof AssistantMessage assistant) {
                open(json, "assistant");
                boolean first = true;
                for (Part part : assistant.parts()) {
                    if (!first) {
                        json.append(',');
                    }
                    first = false;
                    assistantPart(json, part);
                }
                json.append("]}");
            } else if (message instanceof ToolResultMessage result) {
                open(json, "tool");
                json.append("{\"type\":\"tool_call_response\",\"id\":");
                string(json, result.toolCallId());
                json.append(",\"response\":");
                string(json, result.content());
                json.append("}]}");
            }
        }
        return json.append(']').toString();
    }

    static String outputMessages(String reasoning, String text, @Nullable String finishReason) {
        StringBuilder json = new StringBuilder("[");
        open(json, "assistant");
        if (!reasoning.isEmpty()) {
            part(json, "reasoning", reasoning);
            json.append(',');
        }
        part(json, "text", text);
        json.append("],\"finish_reason\":");
        string(json, finishReason);
        return json.append("}]").toString();
    }

    private static void assistantPart(StringBuilder json, Part part) {
        if (part instanceof TextPart text) {
            part(json, "text", text.text());
        } else if (part instanceof ReasoningPart reasoning) {
            part(json, "reasoning", reasoning.text());
        } else if (part instanceof ToolCallPart call) {
            json.append("{\"type\":\"tool_call\",\"id\":");
            string(json, call.id());
            json.append(",\"name\":");
            string(json, call.name());
            json.append(",\"arguments\":");
            string(json, call.arguments());
            json.append('}');
        } else {
            // a server-side tool block: its payload is provider-specific, only its presence is noted
            json.append("{\"type\":\"server_tool\"}");
        }
    }

    private static void open(StringBuilder json, String role) {
        separate(json);
        json.append("{\"role\":\"").append(role).append("\",\"parts\":[");
    }

    private static void separate(StringBuilder json) {
        if (json.length() > 1) {
            json.append(',');
        }
    }

    private static void part(StringBuilder json, String type, String content) {
        json.append("{\"type\":\"").append(type).append("\",\"content\":");
        string(json, content);
        json.append('}');
    }

    private static void string(StringBuilder json, @Nullable String value) {
        if (value == null) {
            json.append("null");
            return;
        }
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
