package dev.ruminate.providers.responses;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.providers.internal.JsonWriting;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a conversation as a Responses {@code input} array, and its leading system messages as
 * {@code instructions}.
 *
 * <p>An earlier assistant message goes back item by item, in the order of its parts: reasoning items
 * (consecutive reasoning parts with the same item id regrouped into one item, with its summary and
 * raw text, and its {@code encrypted_content}), each immediately followed by the item that followed
 * it; answer text as an assistant message ({@code role}, {@code content}); function calls with their
 * {@code call_id} (and their item id, when own);
 * built-in tool items as the exact JSON they came in. Reasoning goes back only when it is this
 * server's own: the part carries an item id and the message came from a provider of this profile's
 * name (or names none), and, for a stateless profile ({@code store: false}), it has its encrypted
 * content, since such a server keeps nothing to find an id in. Other reasoning (another provider's,
 * or one whose item id or state was lost) is dropped, since the server would reject an item it did
 * not issue; the items after it in the message then go without their item ids (a function call's
 * {@code call_id} is enough) and built-in tool items are left out, so the server finds no item that
 * needs the missing reasoning. Tool results become {@code function_call_output} items. Images and
 * documents go as content parts ({@link ResponsesMedia}), before the text.
 */
final class InputWriter {

    private InputWriter() {
    }

    /** Returns how many messages at the start are system messages, which become {@code instructions}. */
    static int leadingSystem(List<Message> messages) {
        int n = 0;
        while (n < messages.size() && messages.get(n) instanceof SystemMessage) {
            n++;
        }
        return n;
    }

    /** Returns the {@code instructions} text of the leading system messages, or null when there are none. */
    static @Nullable String instructions(List<Message> messages) {
        int n = leadingSystem(messages);
        if (n == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append("\n\n");
            }
            sb.append(((SystemMessage) messages.get(i)).text());
        }
        return sb.toString();
    }

    /**
     * Writes the {@code input} array of the messages after the leading system messages. A user
     * message with media has a content array, its media ({@link ResponsesMedia}) before its
     * {@code input_text}; a tool result with media has an {@code output} array the same way; both
     * are plain strings otherwise.
     *
     * @param g the generator
     * @param profile the server's profile
     * @param messages the messages to send
     * @param offset the index of {@code messages}' first in the request, for the names of nameless files
     */
    static void write(JsonGenerator g, ResponsesProfile profile, List<Message> messages, int offset) {
        g.writeStartArray();
        for (int i = leadingSystem(messages); i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m instanceof AssistantMessage a) {
                assistant(g, profile, a);
            } else if (m instanceof ToolResultMessage t) {
                g.writeStartObject();
                g.writeStringProperty("type", "function_call_output");
                g.writeStringProperty("call_id", t.toolCallId());
                if (t.media().isEmpty()) {
                    g.writeStringProperty("output", t.content());
                } else {
                    g.writeArrayPropertyStart("output");
                    mediaThenText(g, t.media(), t.content(), offset + i);
                    g.writeEndArray();
                }
                g.writeEndObject();
            } else if (m instanceof UserMessage u && !u.media().isEmpty()) {
                g.writeStartObject();
                g.writeStringProperty("role", "user");
                g.writeArrayPropertyStart("content");
                mediaThenText(g, u.media(), u.text(), offset + i);
                g.writeEndArray();
                g.writeEndObject();
            } else {
                JsonWriting.writePlainMessage(g, m);
            }
        }
        g.writeEndArray();
    }

    /** Media first, where models read them best, then the text unless it is empty. */
    private static void mediaThenText(JsonGenerator g, List<Media> media, String text, int message) {
        ResponsesMedia.writeParts(g, media, message);
        if (!text.isEmpty()) {
            ResponsesMedia.writeText(g, text);
        }
    }

    /** Why a reasoning item, or the items after it, go without their state. */
    enum Omission {
        /** The message came from another provider. */
        FOREIGN,
        /** The reasoning has no item id to send it under. */
        NO_ITEM_ID,
        /** A stateless server cannot resolve a reasoning item without its encrypted content. */
        NO_ENCRYPTED_CONTENT
    }

    /**
     * What becomes of the parts of an assistant message, told in part order by {@link #walk}: the one
     * place the decisions are made, for the encoder and for the send-back plan alike.
     */
    interface Items {
        /** A run of reasoning parts sharing one item id goes as one reasoning item. */
        void reasoningItem(int from, List<Part> group);

        /** A run of reasoning parts is left out. */
        void reasoningLeftOut(int from, List<Part> group, Omission why);

        /** A run of text parts goes as one assistant message. */
        void text(int from, List<Part> texts);

        /** A function call goes, with its item id unless {@code withoutId} says why not. */
        void functionCall(int index, ToolCallPart call, @Nullable Omission withoutId);

        /** A built-in tool item goes as its JSON, unless {@code leftOut} says why not. */
        void serverTool(int index, ServerToolPart part, @Nullable Omission leftOut);
    }

    /** Decides, part by part, what of an assistant message goes back, telling {@code items}. */
    static void walk(ResponsesProfile profile, AssistantMessage message, Items items) {
        boolean own = message.provider() == null || profile.name().equals(message.provider());
        // once a reasoning item is left out, later items of the message go without their item ids:
        // the server rejects an item it knows to need a reasoning item that is not there
        Omission dropped = own ? null : Omission.FOREIGN;
        List<Part> parts = message.parts();
        int i = 0;
        while (i < parts.size()) {
            Part part = parts.get(i);
            if (part instanceof ReasoningPart r) {
                int end = reasoningGroup(parts, i, r.seals().itemId());
                List<Part> group = parts.subList(i, end);
                Omission why = !own ? Omission.FOREIGN : r.seals().itemId() == null ? Omission.NO_ITEM_ID
                        : profile.statelessReasoning() && encrypted(group) == null ? Omission.NO_ENCRYPTED_CONTENT : null;
                if (why == null) {
                    items.reasoningItem(i, group);
                } else {
                    items.reasoningLeftOut(i, group, why);
                    if (dropped == null) {
                        dropped = why;
                    }
                }
                i = end;
            } else if (part instanceof TextPart) {
                int end = i;
                while (end < parts.size() && parts.get(end) instanceof TextPart) {
                    end++;
                }
                items.text(i, parts.subList(i, end));
                i = end;
            } else if (part instanceof ToolCallPart c) {
                items.functionCall(i, c, dropped);
                i++;
            } else if (part instanceof ServerToolPart s) {
                items.serverTool(i, s, dropped);
                i++;
            } else {
                i++;
            }
        }
    }

    private static void assistant(JsonGenerator g, ResponsesProfile profile, AssistantMessage message) {
        walk(profile, message, new Items() {
            @Override
            public void reasoningItem(int from, List<Part> group) {
                InputWriter.reasoningItem(g, group);
            }

            @Override
            public void reasoningLeftOut(int from, List<Part> group, Omission why) {
            }

            @Override
            public void text(int from, List<Part> texts) {
                assistantText(g, texts);
            }

            @Override
            public void functionCall(int index, ToolCallPart call, @Nullable Omission withoutId) {
                InputWriter.functionCall(g, call, withoutId == null);
            }

            @Override
            public void serverTool(int index, ServerToolPart part, @Nullable Omission leftOut) {
                if (leftOut == null) {
                    g.writeRawValue(part.json());
                }
            }
        });
    }

    /** Returns the first encrypted content of a group of reasoning parts, or null. */
    static @Nullable String encrypted(List<Part> group) {
        for (Part p : group) {
            String encrypted = ((ReasoningPart) p).seals().encrypted();
            if (encrypted != null) {
                return encrypted;
            }
        }
        return null;
    }

    /** Returns the end of the run of reasoning parts starting at {@code from} that share one item id. */
    private static int reasoningGroup(List<Part> parts, int from, @Nullable String itemId) {
        int end = from + 1;
        while (itemId != null && end < parts.size() && parts.get(end) instanceof ReasoningPart next
                && itemId.equals(next.seals().itemId())) {
            end++;
        }
        return end;
    }

    private static void reasoningItem(JsonGenerator g, List<Part> group) {
        ReasoningPart first = (ReasoningPart) group.get(0);
        String encrypted = encrypted(group);
        boolean raw = false;
        for (Part p : group) {
            ReasoningPart r = (ReasoningPart) p;
            raw |= !r.summary() && !r.text().isEmpty();
        }
        g.writeStartObject();
        g.writeStringProperty("type", "reasoning");
        g.writeStringProperty("id", Objects.requireNonNull(first.seals().itemId()));
        g.writeArrayPropertyStart("summary");
        for (Part p : group) {
            ReasoningPart r = (ReasoningPart) p;
            if (r.summary() && !r.text().isEmpty()) {
                textEntry(g, "summary_text", r.text());
            }
        }
        g.writeEndArray();
        if (raw) {
            g.writeArrayPropertyStart("content");
            for (Part p : group) {
                ReasoningPart r = (ReasoningPart) p;
                if (!r.summary() && !r.text().isEmpty()) {
                    textEntry(g, "reasoning_text", r.text());
                }
            }
            g.writeEndArray();
        }
        if (encrypted != null) {
            g.writeStringProperty("encrypted_content", encrypted);
        }
        g.writeEndObject();
    }

    /** Writes a run of answer text as one assistant message, in the short form every server accepts. */
    private static void assistantText(JsonGenerator g, List<Part> texts) {
        StringBuilder text = new StringBuilder();
        for (Part p : texts) {
            text.append(((TextPart) p).text());
        }
        JsonWriting.writeTextMessage(g, "assistant", text.toString());
    }

    private static void functionCall(JsonGenerator g, ToolCallPart call, boolean own) {
        if (call.id() == null) {
            throw new IllegalArgumentException("the tool call to " + call.name()
                    + " has no id; the Responses API needs its call_id to pair it with its result");
        }
        g.writeStartObject();
        g.writeStringProperty("type", "function_call");
        String itemId = call.seals().itemId();
        if (own && itemId != null) {
            g.writeStringProperty("id", itemId);
        }
        g.writeStringProperty("call_id", call.id());
        g.writeStringProperty("name", call.name());
        g.writeStringProperty("arguments", call.arguments());
        g.writeEndObject();
    }

    private static void textEntry(JsonGenerator g, String type, String text) {
        g.writeStartObject();
        g.writeStringProperty("type", type);
        g.writeStringProperty("text", text);
        g.writeEndObject();
    }
}
