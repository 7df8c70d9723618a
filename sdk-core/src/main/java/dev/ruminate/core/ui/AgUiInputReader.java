package dev.ruminate.core.ui;

import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Media;
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
import dev.ruminate.core.request.ToolDefinition;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Reads an AG-UI {@code RunAgentInput} (the JSON body a front end posts to start a run) into an {@link AgUiInput}.
 *
 * <p>Messages map by role: {@code system} and {@code developer} to {@link SystemMessage}, {@code user} to
 * {@link UserMessage} (text parts joined; image and document parts given inline or by URL become {@link Media}),
 * {@code tool} to {@link ToolResultMessage} (named after the call it answers), {@code activity} is dropped (UI
 * state, not conversation). An {@code assistant} message, with the {@code reasoning} messages just before it,
 * becomes one turn:
 * <ul>
 *   <li>when {@link ServerTurns} holds a turn under the thread id and the assistant message's id, that stored
 *       turn is used whole, opaque state included, and the front end's copy (text, reasoning, tool calls) is
 *       ignored;</li>
 *   <li>otherwise an {@link AssistantMessage} is built from what the front end shows: each reasoning message's
 *       text, the text, the tool calls. A reasoning message or tool call whose {@code encryptedValue} is a handle
 *       this server issued for the thread is replaced by the stored part it names; any other
 *       {@code encryptedValue} is ignored, so a front end can never hand a provider opaque state of its own.</li>
 * </ul>
 * Reasoning messages not followed by an assistant message make a turn of their own.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.4
 */
public final class AgUiInputReader {

    private AgUiInputReader() {
    }

    /**
     * Reads a {@code RunAgentInput}.
     *
     * @param json the request body
     * @param turns the turns this server issued
     * @return the input
     * @throws dev.ruminate.core.error.ProtocolException {@code MALFORMED_JSON} when the body is not JSON,
     *     {@code UNEXPECTED_SHAPE} when it is not a {@code RunAgentInput} (a required field missing or of the wrong
     *     type, an unknown role, a content part this reader cannot turn into a message); the message names the
     *     place (such as {@code messages[2].toolCalls[0].function.name}), never a value
     */
    public static AgUiInput read(String json, ServerTurns turns) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(turns, "turns");
        JsonTree.Obj input = JsonTree.parseObject(json, "a RunAgentInput");
        String threadId = input.requireString("threadId");
        String runId = input.requireString("runId");
        JsonTree.Arr messages = input.array("messages");
        if (messages == null) {
            throw JsonTree.shape("messages is required");
        }
        List<Message> out = new ArrayList<>();
        String context = context(input.array("context"));
        if (context != null) {
            out.add(new SystemMessage(context));
        }
        new Conversation(threadId, turns, out).read(messages);
        Object props = input.get("forwardedProps");
        String forwarded = props instanceof JsonTree.Node node ? node.raw() : null;
        return new AgUiInput(threadId, runId, out, tools(input.array("tools")), forwarded);
    }

    private static @Nullable String context(JsonTree.@Nullable Arr context) {
        if (context == null || context.items().isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder("Context given by the application:");
        for (int i = 0; i < context.items().size(); i++) {
            JsonTree.Obj entry = context.object(i);
            sb.append("\n- ").append(entry.requireString("description")).append(": ").append(entry.requireString("value"));
        }
        return sb.toString();
    }

    private static List<ToolDefinition> tools(JsonTree.@Nullable Arr tools) {
        List<ToolDefinition> out = new ArrayList<>();
        if (tools == null) {
            return out;
        }
        for (int i = 0; i < tools.items().size(); i++) {
            JsonTree.Obj tool = tools.object(i);
            String name = tool.requireString("name");
            if (name.isBlank()) {
                throw JsonTree.shape(tool.where("name") + " must not be blank");
            }
            Object parameters = tool.get("parameters");
            String schema;
            if (parameters == null || parameters == JsonTree.NULL) {
                schema = "{\"type\":\"object\",\"properties\":{}}";
            } else if (parameters instanceof JsonTree.Obj o) {
                schema = o.raw();
            } else {
                throw JsonTree.shape(tool.where("parameters") + " must be an object, was " + JsonTree.kind(parameters));
            }
            out.add(new ToolDefinition(name, tool.requireString("description"), schema));
        }
        return out;
    }

    /** One pass over the messages, with the reasoning messages waiting for the assistant message they precede. */
    private static final class Conversation {
        private final String threadId;
        private final ServerTurns turns;
        private final List<Message> out;
        private final List<JsonTree.Obj> reasoning = new ArrayList<>();
        /** Tool names by call id, to name each tool result after its call. */
        private final Map<String, String> callNames = new HashMap<>();

        Conversation(String threadId, ServerTurns turns, List<Message> out) {
            this.threadId = threadId;
            this.turns = turns;
            this.out = out;
        }

        void read(JsonTree.Arr messages) {
            for (int i = 0; i < messages.items().size(); i++) {
                JsonTree.Obj m = messages.object(i);
                String role = m.requireString("role");
                m.requireString("id");
                if (role.equals("reasoning")) {
                    m.requireString("content");
                    reasoning.add(m);
                    continue;
                }
                if (role.equals("assistant")) {
                    assistant(m);
                    continue;
                }
                flushReasoning();
                switch (role) {
                    case "system", "developer" -> out.add(new SystemMessage(m.requireString("content")));
                    case "user" -> out.add(user(m));
                    case "tool" -> {
                        String callId = m.requireString("toolCallId");
                        boolean error = m.string("error") != null;
                        String content = text(m, "content");
                        out.add(new ToolResultMessage(callId, callNames.get(callId),
                                content.isEmpty() && error ? Objects.requireNonNull(m.string("error")) : content, error));
                    }
                    case "activity" -> {
                        // UI state the front end keeps for itself: not part of what the model sees
                    }
                    default -> throw JsonTree.shape(m.where("role")
                            + " must be one of user, assistant, tool, reasoning, system, developer, activity");
                }
            }
            flushReasoning();
        }

        private void assistant(JsonTree.Obj m) {
            String id = m.requireString("id");
            Optional<List<Message>> stored = turns.find(threadId, id);
            if (stored.isPresent()) {
                // the server's own copy, opaque state included; the reasoning shown before it belongs to it
                reasoning.clear();
                for (Message message : stored.get()) {
                    if (message instanceof AssistantMessage a) {
                        a.toolCalls().forEach(c -> {
                            if (c.id() != null) {
                                callNames.put(c.id(), c.name());
                            }
                        });
                    }
                    out.add(message);
                }
                return;
            }
            List<Part> parts = reasoningParts();
            String content = m.string("content");
            if (content != null && !content.isEmpty()) {
                parts.add(TextPart.of(content));
            }
            JsonTree.Arr calls = m.array("toolCalls");
            if (calls != null) {
                for (int i = 0; i < calls.items().size(); i++) {
                    parts.add(toolCall(calls.object(i)));
                }
            }
            if (!parts.isEmpty()) {
                out.add(rebuilt(parts));
            }
        }

        private ToolCallPart toolCall(JsonTree.Obj call) {
            String id = call.requireString("id");
            JsonTree.Obj function = call.object("function");
            if (function == null) {
                throw JsonTree.shape(call.where("function") + " is required");
            }
            String name = function.requireString("name");
            String arguments = function.requireString("arguments");
            callNames.put(id, name);
            Optional<Part> stored = AgUiHandles.resolve(turns, threadId, call.string("encryptedValue"));
            if (stored.isPresent() && stored.get() instanceof ToolCallPart part && id.equals(part.id())) {
                return part;
            }
            return new ToolCallPart(id, name, arguments, JsonValidity.problem(arguments) == null, Seals.NONE);
        }

        private List<Part> reasoningParts() {
            List<Part> parts = new ArrayList<>();
            for (JsonTree.Obj r : reasoning) {
                Optional<Part> stored = AgUiHandles.resolve(turns, threadId, r.string("encryptedValue"));
                if (stored.isPresent() && stored.get() instanceof ReasoningPart part) {
                    parts.add(part);
                } else {
                    String text = r.requireString("content");
                    if (!text.isEmpty()) {
                        parts.add(new ReasoningPart(text, false, null, Seals.NONE));
                    }
                }
            }
            reasoning.clear();
            return parts;
        }

        private void flushReasoning() {
            if (reasoning.isEmpty()) {
                return;
            }
            List<Part> parts = reasoningParts();
            if (!parts.isEmpty()) {
                out.add(rebuilt(parts));
            }
        }

        private static AssistantMessage rebuilt(List<Part> parts) {
            boolean calls = parts.stream().anyMatch(ToolCallPart.class::isInstance);
            return new AssistantMessage(parts, null, null, calls ? FinishReason.TOOL_CALLS : FinishReason.STOP, null,
                    Usage.UNKNOWN);
        }

        private static UserMessage user(JsonTree.Obj m) {
            Object content = m.get("content");
            if (content instanceof String s) {
                return new UserMessage(s);
            }
            if (!(content instanceof JsonTree.Arr parts)) {
                throw JsonTree.shape(m.where("content") + " must be a string or an array of parts, was "
                        + JsonTree.kind(content));
            }
            StringBuilder text = new StringBuilder();
            List<Media> media = new ArrayList<>();
            for (int i = 0; i < parts.items().size(); i++) {
                JsonTree.Obj part = parts.object(i);
                String type = part.requireString("type");
                switch (type) {
                    case "text" -> text.append(part.requireString("text"));
                    case "image", "document" -> media.add(media(part, type.equals("image")));
                    default -> throw JsonTree.shape(part.where("type") + " must be text, image or document here");
                }
            }
            return new UserMessage(text.toString(), media);
        }

        private static Media media(JsonTree.Obj part, boolean image) {
            JsonTree.Obj source = part.object("source");
            if (source == null) {
                throw JsonTree.shape(part.where("source") + " is required");
            }
            String kind = source.requireString("type");
            String value = source.requireString("value");
            String mimeType = source.string("mimeType");
            try {
                switch (kind) {
                    case "data" -> {
                        byte[] bytes = Base64.getDecoder().decode(value);
                        String type = source.requireString("mimeType");
                        return image ? Media.image(bytes, type) : Media.document(bytes, type, null);
                    }
                    case "url" -> {
                        return image ? Media.imageUrl(value, mimeType) : Media.documentUrl(value, mimeType, null);
                    }
                    default -> throw JsonTree.shape(source.where("type") + " must be data or url here");
                }
            } catch (IllegalArgumentException e) {
                // the refusal may quote the value (a URL with a token): only the place is kept
                throw JsonTree.shape(source.where("value") + " is not usable as " + (image ? "an image" : "a document"));
            }
        }

        /** A content that is a string or an array of text parts, as its text. */
        private static String text(JsonTree.Obj m, String name) {
            Object content = m.get(name);
            if (content instanceof String s) {
                return s;
            }
            if (!(content instanceof JsonTree.Arr parts)) {
                throw JsonTree.shape(m.where(name) + " must be a string or an array of parts, was " + JsonTree.kind(content));
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < parts.items().size(); i++) {
                JsonTree.Obj part = parts.object(i);
                if (part.requireString("type").equals("text")) {
                    sb.append(part.requireString("text"));
                }
            }
            return sb.toString();
        }
    }
}
