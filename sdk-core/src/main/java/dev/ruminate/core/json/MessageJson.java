package dev.ruminate.core.json;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes and reads {@link Message}s, and whole conversations, as Ruminate's JSON wire format.
 *
 * <p>A message is a JSON object with a {@code role}: {@code system}, {@code user}, {@code tool} or
 * {@code assistant}. An assistant message keeps what older readers expect: the answer as a plain
 * string {@code content}, the reasoning as an optional string {@code reasoning_content} (left out
 * when empty), the calls in {@code tool_calls}; beside them, the ordered {@code parts} make the round
 * trip lossless (interleaved reasoning and calls, summaries, sources, opaque state). Opaque state
 * is written only under a part's {@code provider_state}, and never counts as reasoning text.
 * {@link #writeForClient(Message)} leaves it out entirely, for front ends, together with the
 * provider JSON ({@code block}) of server tool parts, which may hold encrypted content too. The format is
 * documented in {@code docs/wire-format.md}.
 *
 * <p>Reading an assistant message without {@code parts} (older or hand-written JSON) builds one
 * reasoning part, one text part and the tool calls, in that order. The reasoning is the first
 * non-empty of: {@code reasoning_content}; the {@code reasoning_content}, then the {@code text}, of a
 * {@code thought} object; a {@code thought} string. Several of these are never concatenated: older
 * writers repeated one text under several names.
 *
 * <p>Stateless and thread-safe. Arguments must not be null.
 *
 * @since 0.1
 */
public final class MessageJson {

    private MessageJson() {
    }

    /**
     * Writes a message, opaque state included: the form for server-side storage.
     *
     * @param m the message
     * @return one line of JSON
     */
    public static String write(Message m) {
        return write(m, ProviderState.INCLUDE);
    }

    /**
     * Writes a message without opaque state: the form for front ends.
     *
     * @param m the message
     * @return one line of JSON
     */
    public static String writeForClient(Message m) {
        return write(m, ProviderState.OMIT);
    }

    /**
     * Writes a message in the given form.
     *
     * @param m the message
     * @param state whether opaque state is written
     * @return one line of JSON
     */
    public static String write(Message m, ProviderState state) {
        Objects.requireNonNull(m, "m");
        Objects.requireNonNull(state, "state");
        return JsonOut.write(g -> message(g, m, state));
    }

    /**
     * Writes a conversation as a JSON array of messages, opaque state included.
     *
     * @param messages the messages, oldest first
     * @return one line of JSON
     */
    public static String writeAll(List<Message> messages) {
        return writeAll(messages, ProviderState.INCLUDE);
    }

    /**
     * Writes a conversation as a JSON array of messages in the given form.
     *
     * @param messages the messages, oldest first
     * @param state whether opaque state is written
     * @return one line of JSON
     */
    public static String writeAll(List<Message> messages, ProviderState state) {
        Objects.requireNonNull(messages, "messages");
        Objects.requireNonNull(state, "state");
        return JsonOut.write(g -> {
            g.writeStartArray();
            for (Message m : messages) {
                message(g, m, state);
            }
            g.writeEndArray();
        });
    }

    /**
     * Writes a reduction's result with opaque state included: same as
     * {@code write(r, ProviderState.INCLUDE)}.
     *
     * @param r the result
     * @return one line of JSON
     */
    public static String write(ChatResult r) {
        return write(r, ProviderState.INCLUDE);
    }

    /**
     * Writes a reduction's result: {@code {"message": …, "reasoning_check": {…}}}; {@code part}
     * and {@code offset} of the check are written only when the check names a place.
     *
     * @param r the result
     * @param state whether the message's opaque state is written
     * @return one line of JSON
     */
    public static String write(ChatResult r, ProviderState state) {
        Objects.requireNonNull(r, "r");
        Objects.requireNonNull(state, "state");
        return JsonOut.write(g -> {
            g.writeStartObject();
            g.writeName("message");
            message(g, r.message(), state);
            reasoningCheck(g, r.reasoningCheck());
            g.writeEndObject();
        });
    }

    /** Writes {@code reasoning_check}: shared with the loop's {@code step.completed}. */
    static void reasoningCheck(JsonGenerator g, ReasoningCheck c) {
        g.writeObjectPropertyStart("reasoning_check");
        g.writeStringProperty("verdict", c.verdict().name().toLowerCase(java.util.Locale.ROOT));
        g.writeNumberProperty("checked_parts", c.checkedParts());
        if (c.part() >= 0) {
            g.writeNumberProperty("part", c.part());
            g.writeNumberProperty("offset", c.offset());
        }
        g.writeEndObject();
    }

    /** Writes a message as the value of a property, in the given form. */
    static void message(JsonGenerator g, String name, Message m, ProviderState state) {
        g.writeName(name);
        message(g, m, state);
    }

    /** Reads a message from a parsed object (the loop events embed messages). */
    static Message read(JsonTree.Obj o) {
        return message(o);
    }

    /**
     * Reads one message, in the current shape or an older one (see the class comment).
     *
     * @param json the message's JSON
     * @return the message
     * @throws ProtocolException {@code MALFORMED_JSON} for text that is not one JSON value,
     *     {@code UNEXPECTED_SHAPE} for JSON that is not a message; the message names the field,
     *     never a value
     */
    public static Message read(String json) {
        JsonTree.Obj o = JsonTree.parseObject(json, "a message");
        try {
            return message(o);
        } catch (IllegalArgumentException e) {
            // the shape was right, but a value the message refuses (a negative block, a blank media name)
            throw JsonTree.invalid("a message", e);
        }
    }

    /**
     * Reads a conversation: a JSON array of messages.
     *
     * @param json the array's JSON
     * @return the messages, in order, as an unmodifiable list
     * @throws ProtocolException as {@link #read(String)}, or when the value is not an array
     */
    public static List<Message> readAll(String json) {
        Object v = JsonTree.parse(json);
        if (!(v instanceof JsonTree.Arr a)) {
            throw JsonTree.shape("a conversation must be a JSON array of messages, was " + JsonTree.kind(v));
        }
        List<Message> out = new ArrayList<>(a.items().size());
        for (int i = 0; i < a.items().size(); i++) {
            try {
                out.add(message(a.object(i)));
            } catch (IllegalArgumentException e) {
                throw JsonTree.invalid("message " + i, e);
            }
        }
        return List.copyOf(out);
    }

    // ---- writing

    private static void message(JsonGenerator g, Message m, ProviderState state) {
        g.writeStartObject();
        if (m instanceof SystemMessage s) {
            g.writeStringProperty("role", "system");
            g.writeStringProperty("content", s.text());
        } else if (m instanceof UserMessage u) {
            g.writeStringProperty("role", "user");
            g.writeStringProperty("content", u.text());
        } else if (m instanceof ToolResultMessage t) {
            g.writeStringProperty("role", "tool");
            g.writeStringProperty("tool_call_id", t.toolCallId());
            JsonOut.optString(g, "name", t.name());
            g.writeStringProperty("content", t.content());
            if (t.error()) {
                g.writeBooleanProperty("is_error", true);
            }
        } else if (m instanceof AssistantMessage a) {
            assistant(g, a, state);
        }
        g.writeEndObject();
    }

    private static void assistant(JsonGenerator g, AssistantMessage a, ProviderState state) {
        g.writeStringProperty("role", "assistant");
        g.writeStringProperty("content", a.text());
        String reasoning = a.reasoning();
        if (!reasoning.isEmpty()) {
            g.writeStringProperty("reasoning_content", reasoning);
        }
        List<ToolCallPart> calls = a.toolCalls();
        if (!calls.isEmpty()) {
            g.writeArrayPropertyStart("tool_calls");
            for (ToolCallPart c : calls) {
                g.writeStartObject();
                JsonOut.optString(g, "id", c.id());
                g.writeStringProperty("type", "function");
                g.writeObjectPropertyStart("function");
                g.writeStringProperty("name", c.name());
                g.writeStringProperty("arguments", c.arguments());
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeArrayPropertyStart("parts");
        for (Part p : a.parts()) {
            part(g, p, state);
        }
        g.writeEndArray();
        JsonOut.optString(g, "provider", a.provider());
        JsonOut.optString(g, "model", a.model());
        g.writeStringProperty("finish_reason", a.finishReason().wireName());
        JsonOut.optString(g, "raw_finish_reason", a.rawFinishReason());
        if (!a.usage().isUnknown()) {
            g.writeObjectPropertyStart("usage");
            JsonOut.usageFields(g, a.usage());
            g.writeEndObject();
        }
    }

    private static void part(JsonGenerator g, Part p, ProviderState state) {
        g.writeStartObject();
        if (p instanceof ReasoningPart r) {
            g.writeStringProperty("type", "reasoning");
            g.writeStringProperty("text", r.text());
            if (r.summary()) {
                g.writeBooleanProperty("summary", true);
            }
            JsonOut.optString(g, "source", r.source());
        } else if (p instanceof TextPart t) {
            g.writeStringProperty("type", "text");
            g.writeStringProperty("text", t.text());
        } else if (p instanceof ToolCallPart c) {
            g.writeStringProperty("type", "tool_call");
            JsonOut.optString(g, "id", c.id());
            g.writeStringProperty("name", c.name());
            g.writeStringProperty("arguments", c.arguments());
            if (!c.argumentsValid()) {
                g.writeBooleanProperty("arguments_valid", false);
            }
        } else if (p instanceof ServerToolPart s) {
            g.writeStringProperty("type", "server_tool");
            g.writeStringProperty("block_type", s.type());
            JsonOut.optString(g, "id", s.id());
            JsonOut.optString(g, "name", s.name());
            if (state == ProviderState.INCLUDE) {
                // a provider's tool result may hold encrypted content (Anthropic web search results)
                JsonOut.embedded(g, "block", s.json());
            }
        }
        JsonOut.providerState(g, p.seals(), state);
        g.writeEndObject();
    }

    // ---- reading

    private static Message message(JsonTree.Obj o) {
        String role = o.requireString("role");
        switch (role) {
            case "system":
            case "developer":
                return new SystemMessage(text(o));
            case "user":
                return new UserMessage(text(o));
            case "tool":
                return new ToolResultMessage(o.requireString("tool_call_id"), o.string("name"), text(o),
                        o.bool("is_error", false));
            case "assistant":
                return assistant(o);
            default:
                throw JsonTree.shape(o.where("role") + " must be one of system, developer, user, assistant, tool");
        }
    }

    /** Reads {@code content}: a string, null or absent (empty), or an array of text parts (joined). */
    private static String text(JsonTree.Obj o) {
        Object v = o.get("content");
        if (v == null || v == JsonTree.NULL) {
            return "";
        }
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof JsonTree.Arr a) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < a.items().size(); i++) {
                String t = a.object(i).string("text");
                if (t != null) {
                    sb.append(t);
                }
            }
            return sb.toString();
        }
        throw JsonTree.shape(o.where("content") + " must be a string or an array of text parts, was " + JsonTree.kind(v));
    }

    private static AssistantMessage assistant(JsonTree.Obj o) {
        JsonTree.Arr partsJson = o.array("parts");
        List<Part> parts = partsJson != null ? parts(partsJson) : legacyParts(o);
        JsonTree.Obj usage = o.object("usage");
        return new AssistantMessage(parts, o.string("provider"), o.string("model"),
                o.has("finish_reason") ? EventJson.finishReason(o.string("finish_reason")) : FinishReason.STOP,
                o.string("raw_finish_reason"), usage == null ? Usage.UNKNOWN : JsonOut.readUsage(usage));
    }

    private static List<Part> parts(JsonTree.Arr a) {
        List<Part> out = new ArrayList<>(a.items().size());
        for (int i = 0; i < a.items().size(); i++) {
            JsonTree.Obj p = a.object(i);
            Seals seals = JsonOut.readProviderState(p);
            String type = p.requireString("type");
            switch (type) {
                case "reasoning":
                    out.add(new ReasoningPart(orEmpty(p.string("text")), p.bool("summary", false), p.string("source"), seals));
                    break;
                case "text":
                    out.add(new TextPart(orEmpty(p.string("text")), seals));
                    break;
                case "tool_call":
                    out.add(new ToolCallPart(p.string("id"), p.requireString("name"), orEmpty(p.string("arguments")),
                            p.bool("arguments_valid", true), seals));
                    break;
                case "server_tool":
                    out.add(new ServerToolPart(p.requireString("block_type"), p.string("id"), p.string("name"),
                            JsonOut.readEmbedded(p, "block"), seals));
                    break;
                default:
                    throw JsonTree.shape(p.where("type") + " must be one of reasoning, text, tool_call, server_tool");
            }
        }
        return out;
    }

    /** Builds the parts of an assistant message written without {@code parts}. */
    private static List<Part> legacyParts(JsonTree.Obj o) {
        List<Part> out = new ArrayList<>(3);
        String reasoning = legacyReasoning(o);
        if (!reasoning.isEmpty()) {
            out.add(new ReasoningPart(reasoning, false, "reasoning_content", Seals.NONE));
        }
        String content = text(o);
        if (!content.isEmpty()) {
            out.add(TextPart.of(content));
        }
        JsonTree.Arr calls = o.array("tool_calls");
        if (calls != null) {
            for (int i = 0; i < calls.items().size(); i++) {
                out.add(toolCall(calls.object(i)));
            }
        }
        return out;
    }

    private static String legacyReasoning(JsonTree.Obj o) {
        String top = o.string("reasoning_content");
        if (top != null && !top.isEmpty()) {
            return top;
        }
        Object thought = o.get("thought");
        if (thought instanceof String s) {
            return s;
        }
        if (thought instanceof JsonTree.Obj t) {
            String inner = t.string("reasoning_content");
            if (inner != null && !inner.isEmpty()) {
                return inner;
            }
            return orEmpty(t.string("text"));
        }
        if (thought != null && thought != JsonTree.NULL) {
            throw JsonTree.shape(o.where("thought") + " must be a string or an object, was " + JsonTree.kind(thought));
        }
        return "";
    }

    /** Reads a call in the OpenAI shape ({@code function: {name, arguments}}) or flat ({@code name, arguments}). */
    private static ToolCallPart toolCall(JsonTree.Obj c) {
        JsonTree.Obj fn = c.object("function");
        JsonTree.Obj src = fn != null ? fn : c;
        String name = src.requireString("name");
        Object args = src.get("arguments");
        String arguments;
        if (args == null || args == JsonTree.NULL) {
            arguments = "";
        } else if (args instanceof String s) {
            arguments = s;
        } else if (args instanceof JsonTree.Obj obj) {
            arguments = obj.raw();
        } else {
            throw JsonTree.shape(src.where("arguments") + " must be a string or an object, was " + JsonTree.kind(args));
        }
        boolean valid = arguments.isBlank() || JsonValidity.problem(arguments) == null;
        return new ToolCallPart(c.string("id"), name, arguments, valid, Seals.NONE);
    }

    private static String orEmpty(@Nullable String s) {
        return s == null ? "" : s;
    }
}
