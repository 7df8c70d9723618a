package dev.ruminate.core.ui;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The request {@code useChat} (the {@code DefaultChatTransport} of the npm package {@code ai}) POSTs for each
 * turn, read into Ruminate messages: {@code {"id": chat id, "messages": [UIMessage…], "trigger":
 * "submit-message" | "regenerate-message", "messageId": …}} plus whatever body the page adds.
 *
 * <p>Each assistant UI message whose id the server issued for this chat is replaced by the turn stored in
 * {@link ServerTurns} under the chat id and that id, opaque state included: the page's copy is never trusted
 * for it. Any other assistant message (a turn the store forgot, or one the page made up) becomes messages
 * built from its visible parts only, with no opaque state: its reasoning then goes to the provider by the
 * history rules for reasoning without seals or provenance. Its {@code step-start} parts split it into one
 * {@link AssistantMessage} per step, each followed by a {@link ToolResultMessage} per tool call that has an
 * output ({@code output-available}) or an error ({@code output-error}). User and system messages take the text
 * of their {@code text} parts; {@code source-*} and {@code data-*} parts are ignored; a {@code file} part is
 * refused (not supported yet).
 *
 * <p>Immutable and thread-safe.
 *
 * @param chatId the chat's id, the scope of its stored turns
 * @param trigger what the page asked for ({@code submit-message}, {@code regenerate-message}), or null
 * @param messages the conversation to send to the model, in order (an unmodifiable copy is kept)
 * @param restored how many assistant UI messages were replaced by a stored turn (for logs and tests)
 * @since 0.4
 */
public record UiChatRequest(String chatId, @Nullable String trigger, List<Message> messages, int restored) {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    /**
     * Creates the value, checking its components.
     *
     * @param chatId see {@link #chatId()}
     * @param trigger see {@link #trigger()}
     * @param messages see {@link #messages()}
     * @param restored see {@link #restored()}
     */
    public UiChatRequest {
        Objects.requireNonNull(chatId, "chatId");
        messages = List.copyOf(messages);
    }

    /**
     * Reads a request body.
     *
     * @param json the body as the page sent it
     * @param turns the server's stored turns, looked up by {@code (id, message id)}
     * @return the request
     * @throws ProtocolException {@code MALFORMED_JSON} for a body that is not JSON, {@code UNEXPECTED_SHAPE}
     *     for JSON that is not such a request (no {@code id}, no {@code messages} array, a message without a
     *     known {@code role}, a part of the wrong shape, a {@code file} part); the message names the place,
     *     such as {@code messages[2].parts[0].text}, never a value
     */
    public static UiChatRequest read(String json, ServerTurns turns) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(turns, "turns");
        JsonTree.Obj body = JsonTree.parseObject(json, "a chat request");
        String chatId = body.requireString("id");
        if (chatId.isEmpty()) {
            throw JsonTree.shape("id must not be empty");
        }
        JsonTree.Arr list = body.array("messages");
        if (list == null) {
            throw JsonTree.shape("messages must be an array");
        }
        List<Message> out = new ArrayList<>();
        int restored = 0;
        for (int i = 0; i < list.items().size(); i++) {
            String at = "messages[" + i + "]";
            if (!(list.items().get(i) instanceof JsonTree.Obj m)) {
                throw JsonTree.shape(at + " must be an object");
            }
            String role = m.string("role");
            JsonTree.Arr parts = m.array("parts");
            if (parts == null) {
                throw JsonTree.shape(at + ".parts must be an array");
            }
            if ("assistant".equals(role)) {
                String id = m.string("id");
                Optional<List<Message>> stored = id == null ? Optional.empty() : turns.find(chatId, id);
                if (stored.isPresent()) {
                    out.addAll(stored.get());
                    restored++;
                } else {
                    out.addAll(visible(parts, at));
                }
            } else if ("user".equals(role)) {
                out.add(new UserMessage(text(parts, at)));
            } else if ("system".equals(role)) {
                out.add(new SystemMessage(text(parts, at)));
            } else {
                throw JsonTree.shape(at + ".role must be one of user, assistant, system");
            }
        }
        return new UiChatRequest(chatId, body.string("trigger"), out, restored);
    }

    /** The text of a user or system message: its text parts, concatenated. */
    private static String text(JsonTree.Arr parts, String at) {
        StringBuilder text = new StringBuilder();
        for (int j = 0; j < parts.items().size(); j++) {
            String where = at + ".parts[" + j + "]";
            JsonTree.Obj p = part(parts, j, where);
            String type = p.requireString("type");
            if (type.equals("text")) {
                text.append(string(p, "text", where));
            } else if (type.equals("file")) {
                throw JsonTree.shape(where + ": file parts are not supported");
            }
        }
        return text.toString();
    }

    /** An assistant message the server does not know: its visible parts, one message per step. */
    private static List<Message> visible(JsonTree.Arr parts, String at) {
        List<Message> out = new ArrayList<>();
        List<Part> step = new ArrayList<>();
        List<ToolResultMessage> results = new ArrayList<>();
        for (int j = 0; j < parts.items().size(); j++) {
            String where = at + ".parts[" + j + "]";
            JsonTree.Obj p = part(parts, j, where);
            String type = p.requireString("type");
            if (type.equals("step-start")) {
                flush(step, results, out);
            } else if (type.equals("text")) {
                step.add(TextPart.of(string(p, "text", where)));
            } else if (type.equals("reasoning")) {
                // no seals, no source, no provenance: foreign reasoning to every provider
                step.add(new ReasoningPart(string(p, "text", where), false, null, Seals.NONE));
            } else if (type.equals("dynamic-tool") || type.startsWith("tool-")) {
                String name = type.equals("dynamic-tool") ? string(p, "toolName", where) : type.substring(5);
                String id = string(p, "toolCallId", where);
                Object input = p.get("input");
                step.add(new ToolCallPart(id, name, jsonText(input == null ? JsonTree.NULL : input), true, Seals.NONE));
                String state = p.string("state");
                if ("output-available".equals(state)) {
                    Object output = p.get("output");
                    String content = output instanceof String s ? s : jsonText(output == null ? JsonTree.NULL : output);
                    results.add(new ToolResultMessage(id, name, content, false));
                } else if ("output-error".equals(state)) {
                    String error = p.string("errorText");
                    results.add(new ToolResultMessage(id, name, error == null ? "The tool failed." : error, true));
                }
            } else if (type.equals("file")) {
                throw JsonTree.shape(where + ": file parts are not supported");
            }
            // source-url, source-document, data-*, reasoning-file: nothing a provider takes back
        }
        flush(step, results, out);
        return out;
    }

    private static void flush(List<Part> step, List<ToolResultMessage> results, List<Message> out) {
        if (step.isEmpty()) {
            return;
        }
        boolean calls = step.stream().anyMatch(ToolCallPart.class::isInstance);
        out.add(new AssistantMessage(step, null, null, calls ? FinishReason.TOOL_CALLS : FinishReason.STOP, null,
                Usage.UNKNOWN));
        out.addAll(results);
        step.clear();
        results.clear();
    }

    private static JsonTree.Obj part(JsonTree.Arr parts, int j, String where) {
        if (!(parts.items().get(j) instanceof JsonTree.Obj p)) {
            throw JsonTree.shape(where + " must be an object");
        }
        return p;
    }

    private static String string(JsonTree.Obj p, String name, String where) {
        Object v = p.get(name);
        if (v instanceof String s) {
            return s;
        }
        throw JsonTree.shape(where + "." + name + " must be a string, was " + JsonTree.kind(v));
    }

    /** A JSON value as JSON text: an object or array exactly as sent, a scalar re-written. */
    private static String jsonText(Object v) {
        if (v instanceof JsonTree.Node n) {
            return n.raw();
        }
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
            if (v instanceof String s) {
                g.writeString(s);
            } else if (v instanceof Boolean b) {
                g.writeBoolean(b);
            } else if (v instanceof Number) {
                g.writeNumber(v.toString());
            } else {
                g.writeNull();
            }
        }
        return out.toString();
    }
}
