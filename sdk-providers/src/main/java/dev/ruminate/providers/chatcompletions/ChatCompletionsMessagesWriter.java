package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.internal.JsonWriting;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes the {@code messages} array, sending earlier reasoning back as the profile's rule for the
 * request's model says ({@link ReasoningSendBack}).
 *
 * <p>Reasoning of another provider's message is never sent. An assistant message with tool calls
 * and no text has {@code "content": null}; a call without arguments sends {@code "{}"} (servers
 * that render templates parse them).
 */
final class ChatCompletionsMessagesWriter {

    private ChatCompletionsMessagesWriter() {
    }

    /**
     * Writes the array.
     *
     * @param instruction a structured-output instruction, written as a system message before
     *     message {@code instructionAt} (after the leading system messages), or null
     * @param cacheMarks per message, whether its last text part gets {@code cache_control}
     */
    static void write(JsonGenerator g, CompatProfile profile, ChatRequest request, @Nullable String instruction,
                      int instructionAt, boolean[] cacheMarks) {
        ReasoningSendBack sendBack = profile.sendBackFor(request.model());
        List<Message> messages = request.messages();
        boolean[] inToolTurn = toolTurns(messages);
        ThinkTagOptions tags = profile.thinkTags() != null ? profile.thinkTags() : ThinkTagOptions.DEFAULT;
        g.writeStartArray();
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (instruction != null && i == instructionAt) {
                JsonWriting.writeTextMessage(g, "system", instruction);
            }
            boolean cache = i < cacheMarks.length && cacheMarks[i];
            if (m instanceof UserMessage u && (!u.media().isEmpty() || cache)) {
                userParts(g, u, cache);
            } else if (m instanceof SystemMessage s && cache) {
                g.writeStartObject();
                g.writeStringProperty("role", "system");
                g.writeArrayPropertyStart("content");
                textPart(g, s.text(), true);
                g.writeEndArray();
                g.writeEndObject();
            } else if (m instanceof AssistantMessage a) {
                assistant(g, a, sendBack, carries(sendBack, inToolTurn[i]), isOwn(a, profile), tags);
            } else if (m instanceof ToolResultMessage t) {
                g.writeStartObject();
                g.writeStringProperty("role", "tool");
                g.writeStringProperty("tool_call_id", t.toolCallId());
                g.writeStringProperty("content", t.content());
                g.writeEndObject();
            } else {
                JsonWriting.writePlainMessage(g, m);
            }
        }
        if (instruction != null && instructionAt >= messages.size()) {
            JsonWriting.writeTextMessage(g, "system", instruction);
        }
        g.writeEndArray();
    }

    /** Writes a user message whose content is an array: its media first, then its text. */
    private static void userParts(JsonGenerator g, UserMessage u, boolean cache) {
        g.writeStartObject();
        g.writeStringProperty("role", "user");
        g.writeArrayPropertyStart("content");
        for (int j = 0; j < u.media().size(); j++) {
            ChatCompletionsMedia.writePart(g, u.media().get(j), j);
        }
        if (!u.text().isEmpty()) {
            textPart(g, u.text(), cache);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** Writes {@code {"type":"text","text":…}}, with {@code cache_control} when it ends a breakpoint. */
    private static void textPart(JsonGenerator g, String text, boolean cache) {
        g.writeStartObject();
        g.writeStringProperty("type", "text");
        g.writeStringProperty("text", text);
        if (cache) {
            g.writeObjectPropertyStart("cache_control");
            g.writeStringProperty("type", "ephemeral");
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /**
     * Tells whether an assistant message is the profile's own (or built by hand): only then is its
     * reasoning sent.
     */
    static boolean isOwn(AssistantMessage a, CompatProfile profile) {
        return a.provider() == null || a.provider().equals(profile.name());
    }

    /** Tells whether the rule carries reasoning on a message of a user turn with or without tool calls. */
    static boolean carries(ReasoningSendBack sendBack, boolean inToolTurn) {
        return sendBack.mode() != ReasoningSendBack.Mode.DROP
                && (sendBack.scope() == ReasoningSendBack.Scope.ALL_TURNS || inToolTurn);
    }

    /** The mode a message's reasoning goes back in: the rule's, when carried and own, else none. */
    static ReasoningSendBack.Mode modeFor(ReasoningSendBack sendBack, boolean carry, boolean own) {
        return carry && own ? sendBack.mode() : ReasoningSendBack.Mode.DROP;
    }

    /**
     * Tells whether a reasoning part becomes text in a content-borne mode (think tags, Mistral
     * thinking chunks): only a part with text does.
     */
    static boolean hasText(ReasoningPart r) {
        return !r.text().isEmpty();
    }

    /**
     * Finds the part whose thought signature goes back on the message in
     * {@link ReasoningSendBack.Mode#GOOGLE_EXTRA_CONTENT}: the last reasoning or text part with a
     * signature (Gemini signs the last part of a reply; a message has one signature).
     *
     * @return the part's index, or -1 when none has a signature
     */
    static int messageSignaturePart(AssistantMessage a) {
        for (int i = a.parts().size() - 1; i >= 0; i--) {
            Part part = a.parts().get(i);
            if ((part instanceof ReasoningPart || part instanceof TextPart) && part.seals().signature() != null) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Tells whether a tool call's thought signature goes back on the call: in
     * {@link ReasoningSendBack.Mode#GOOGLE_EXTRA_CONTENT}, whenever it has one.
     */
    static boolean signsCall(ReasoningSendBack.Mode mode, ToolCallPart c) {
        return mode == ReasoningSendBack.Mode.GOOGLE_EXTRA_CONTENT && c.seals().signature() != null;
    }

    /**
     * Marks the messages of user turns (the messages between two user messages) in which an
     * assistant message called a tool.
     */
    static boolean[] toolTurns(List<Message> messages) {
        boolean[] result = new boolean[messages.size()];
        int start = 0;
        for (int i = 0; i <= messages.size(); i++) {
            if (i == messages.size() || messages.get(i) instanceof UserMessage) {
                boolean called = false;
                for (int j = start; j < i; j++) {
                    if (messages.get(j) instanceof AssistantMessage a && !a.toolCalls().isEmpty()) {
                        called = true;
                        break;
                    }
                }
                for (int j = start; j < i; j++) {
                    result[j] = called;
                }
                start = i + 1;
            }
        }
        return result;
    }

    private static void assistant(JsonGenerator g, AssistantMessage a, ReasoningSendBack sendBack, boolean carry,
                                  boolean own, ThinkTagOptions tags) {
        ReasoningSendBack.Mode mode = modeFor(sendBack, carry, own);
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<ReasoningPart> detailParts = new ArrayList<>();
        List<ToolCallPart> calls = new ArrayList<>();
        boolean afterThink = false;
        boolean thinkingChunks = false;
        for (Part part : a.parts()) {
            if (part instanceof ReasoningPart r) {
                switch (mode) {
                    case FIELD -> reasoning.append(r.text());
                    case THINK_TAGS -> {
                        if (hasText(r)) {
                            if (content.length() > 0) {
                                content.append("\n\n");
                            }
                            content.append(tags.openTag()).append('\n').append(r.text()).append('\n')
                                    .append(tags.closeTag());
                            afterThink = true;
                        }
                    }
                    case REASONING_DETAILS -> detailParts.add(r);
                    case THINKING_CHUNKS -> thinkingChunks |= hasText(r);
                    // the endpoint has no field for thought text: only the signature goes (below)
                    case GOOGLE_EXTRA_CONTENT, DROP -> { }
                }
            } else if (part instanceof TextPart t) {
                if (!t.text().isEmpty()) {
                    if (afterThink) {
                        content.append("\n\n");
                        afterThink = false;
                    }
                    content.append(t.text());
                }
            } else if (part instanceof ToolCallPart c) {
                calls.add(c);
            }
        }
        g.writeStartObject();
        g.writeStringProperty("role", "assistant");
        if (thinkingChunks) {
            writeChunks(g, a);
        } else if (content.length() == 0 && !calls.isEmpty()) {
            g.writeNullProperty("content");
        } else {
            g.writeStringProperty("content", content.toString());
        }
        if (carry && sendBack.mode() == ReasoningSendBack.Mode.FIELD
                && (reasoning.length() > 0 || sendBack.scope() == ReasoningSendBack.Scope.TOOL_TURNS)) {
            // TOOL_TURNS: the field must be there even when empty (DeepSeek 400s on a missing one)
            g.writeStringProperty(sendBack.field(), reasoning.toString());
        }
        if (!detailParts.isEmpty()) {
            writeDetails(g, detailParts);
        }
        int signed = mode == ReasoningSendBack.Mode.GOOGLE_EXTRA_CONTENT ? messageSignaturePart(a) : -1;
        if (signed >= 0) {
            googleSignature(g, a.parts().get(signed).seals().signature());
        }
        if (!calls.isEmpty()) {
            g.writeArrayPropertyStart("tool_calls");
            for (ToolCallPart c : calls) {
                g.writeStartObject();
                if (c.id() != null) {
                    g.writeStringProperty("id", c.id());
                } else if (sendBack.mode() == ReasoningSendBack.Mode.GOOGLE_EXTRA_CONTENT) {
                    // Gemini may send calls with an empty id, kept as none: the results then quote
                    // the tool's name (ToolCall#id), so the call goes back under that name to pair
                    g.writeStringProperty("id", c.name());
                }
                g.writeStringProperty("type", "function");
                g.writeObjectPropertyStart("function");
                g.writeStringProperty("name", c.name());
                g.writeStringProperty("arguments", c.arguments().isBlank() ? "{}" : c.arguments());
                g.writeEndObject();
                if (signsCall(mode, c)) {
                    googleSignature(g, c.seals().signature());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /** Writes {@code "extra_content": {"google": {"thought_signature": …}}} into the open object. */
    private static void googleSignature(JsonGenerator g, @Nullable String signature) {
        g.writeObjectPropertyStart("extra_content");
        g.writeObjectPropertyStart("google");
        g.writeStringProperty("thought_signature", signature);
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * Writes {@code content} as Mistral chunks, in part order: a thinking chunk per non-empty
     * reasoning part (its text as one text item), a text chunk per run of non-empty text parts
     * (the shape of a Magistral request that was accepted, {@code sendback/mistral}).
     */
    private static void writeChunks(JsonGenerator g, AssistantMessage a) {
        g.writeArrayPropertyStart("content");
        StringBuilder text = new StringBuilder();
        for (Part part : a.parts()) {
            if (part instanceof ReasoningPart r && hasText(r)) {
                textChunk(g, text);
                g.writeStartObject();
                g.writeStringProperty("type", "thinking");
                g.writeArrayPropertyStart("thinking");
                g.writeStartObject();
                g.writeStringProperty("type", "text");
                g.writeStringProperty("text", r.text());
                g.writeEndObject();
                g.writeEndArray();
                g.writeEndObject();
            } else if (part instanceof TextPart t) {
                text.append(t.text());
            }
        }
        textChunk(g, text);
        g.writeEndArray();
    }

    private static void textChunk(JsonGenerator g, StringBuilder text) {
        if (text.length() > 0) {
            g.writeStartObject();
            g.writeStringProperty("type", "text");
            g.writeStringProperty("text", text.toString());
            g.writeEndObject();
            text.setLength(0);
        }
    }

    /**
     * What of a reasoning part goes into {@code reasoning_details}: a text or summary detail, an
     * encrypted detail, and which of the part's seals ride on them.
     *
     * @param text a {@code reasoning.text} or {@code reasoning.summary} detail is written
     * @param encrypted a {@code reasoning.encrypted} detail is written
     * @param signature the signature goes on the text detail
     * @param itemId the item id goes on a detail (the encrypted one when there is one, else the text)
     * @param format the format goes on every detail written
     */
    record DetailShape(boolean text, boolean encrypted, boolean signature, boolean itemId, boolean format) {

        static DetailShape of(ReasoningPart r) {
            Seals s = r.seals();
            boolean text = !r.text().isEmpty() || (s.signature() != null && !r.summary());
            boolean encrypted = s.encrypted() != null;
            return new DetailShape(text, encrypted, text && !r.summary() && s.signature() != null,
                    s.itemId() != null && (encrypted || text), s.format() != null && (encrypted || text));
        }
    }

    /**
     * Writes OpenRouter-style details from reasoning parts: text (with its signature) or summary,
     * then encrypted data; the item id goes on the encrypted detail when there is one, else on the
     * text; {@code index} numbers the parts.
     */
    private static void writeDetails(JsonGenerator g, List<ReasoningPart> parts) {
        boolean any = false;
        for (int index = 0; index < parts.size(); index++) {
            ReasoningPart r = parts.get(index);
            Seals s = r.seals();
            DetailShape shape = DetailShape.of(r);
            if (!any && (shape.text() || shape.encrypted())) {
                g.writeArrayPropertyStart("reasoning_details");
                any = true;
            }
            if (shape.text()) {
                g.writeStartObject();
                if (r.summary()) {
                    g.writeStringProperty("type", "reasoning.summary");
                    g.writeStringProperty("summary", r.text());
                } else {
                    g.writeStringProperty("type", "reasoning.text");
                    g.writeStringProperty("text", r.text());
                    if (shape.signature()) {
                        g.writeStringProperty("signature", s.signature());
                    }
                }
                if (shape.itemId() && !shape.encrypted()) {
                    g.writeStringProperty("id", s.itemId());
                }
                commonDetailFields(g, s, index);
            }
            if (shape.encrypted()) {
                g.writeStartObject();
                g.writeStringProperty("type", "reasoning.encrypted");
                g.writeStringProperty("data", s.encrypted());
                if (shape.itemId()) {
                    g.writeStringProperty("id", s.itemId());
                }
                commonDetailFields(g, s, index);
            }
        }
        if (any) {
            g.writeEndArray();
        }
    }

    private static void commonDetailFields(JsonGenerator g, Seals s, int index) {
        if (s.format() != null) {
            g.writeStringProperty("format", s.format());
        }
        g.writeNumberProperty("index", index);
        g.writeEndObject();
    }
}
