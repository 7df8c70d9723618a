package dev.ruminate.providers.anthropic;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.SystemTexts;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

/**
 * Writes a conversation as Anthropic's top-level {@code system} and {@code messages}.
 *
 * <p>System messages become {@code system} (a string, or text blocks when there are several). User
 * text and tool results become {@code user} messages of content blocks; consecutive messages of one
 * role are merged into one message, so the results of parallel tool calls, and a user's words after
 * them, travel together as the API requires. An earlier assistant message goes back as its parts in
 * their original order: thinking with its signature as {@code thinking}, redacted thinking as
 * {@code redacted_thinking} (both unmodified, as the API demands during a tool loop), text as
 * {@code text} (unless blank, which the API rejects), a tool call as {@code tool_use} with its
 * arguments as {@code input}, a server-tool part as its JSON, verbatim. Reasoning without a signature or redacted data, and anything opaque
 * from another provider's message, is dropped: the API would reject it. An assistant message left
 * with no block is left out.
 *
 * <p>Stateless; kept apart from the request encoder so that history rules can reuse it.
 */
final class AnthropicMessagesWriter {

    private AnthropicMessagesWriter() {
    }

    /**
     * A message to write: its role, the writers of its content blocks and, per block, where it came
     * from ({@code {message, part}} in the conversation; part -1 for a user text or tool result).
     */
    private record Turn(String role, List<Consumer<JsonGenerator>> blocks, List<int[]> origins) {
    }

    /** Writes {@code system}, when there is a system message. */
    static void writeSystem(JsonGenerator g, List<Message> messages) {
        List<String> system = SystemTexts.of(messages);
        if (system.isEmpty()) {
            return;
        }
        if (system.size() == 1) {
            g.writeStringProperty("system", system.get(0));
            return;
        }
        g.writeArrayPropertyStart("system");
        for (String text : system) {
            textBlock(g, text);
        }
        g.writeEndArray();
    }

    /** Writes the {@code messages} array value. */
    static void writeMessages(JsonGenerator g, List<Message> messages, String provider) {
        g.writeStartArray();
        for (Turn turn : turns(messages, provider)) {
            g.writeStartObject();
            g.writeStringProperty("role", turn.role());
            g.writeArrayPropertyStart("content");
            for (Consumer<JsonGenerator> block : turn.blocks()) {
                block.accept(g);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * Maps a place Anthropic names in an error, {@code messages.N.content.M}, back to the
     * conversation, by grouping the messages exactly as {@link #writeMessages} does.
     *
     * @param messages the conversation that was written
     * @param provider the provider it was written for
     * @param wireMessage N
     * @param wireBlock M
     * @return {@code {message, part}} (part -1 for a user text or tool result), or null when the
     *     place is not in the request or the conversation cannot be written
     */
    static int @Nullable [] origin(List<Message> messages, String provider, int wireMessage, int wireBlock) {
        List<Turn> turns;
        try {
            turns = turns(messages, provider);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (wireMessage < 0 || wireMessage >= turns.size() || wireBlock < 0
                || wireBlock >= turns.get(wireMessage).origins().size()) {
            return null;
        }
        return turns.get(wireMessage).origins().get(wireBlock).clone();
    }

    private static List<Turn> turns(List<Message> messages, String provider) {
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m instanceof UserMessage u) {
                add(turns, "user", gen -> textBlock(gen, u.text()), new int[] {i, -1});
            } else if (m instanceof ToolResultMessage t) {
                add(turns, "user", gen -> toolResult(gen, t), new int[] {i, -1});
            } else if (m instanceof AssistantMessage a) {
                boolean own = isOwn(a, provider);
                List<Part> parts = a.parts();
                for (int j = 0; j < parts.size(); j++) {
                    Consumer<JsonGenerator> block = assistantBlock(parts.get(j), own);
                    if (block != null) {
                        add(turns, "assistant", block, new int[] {i, j});
                    }
                }
            }
        }
        return turns;
    }

    private static void add(List<Turn> turns, String role, Consumer<JsonGenerator> block, int[] origin) {
        Turn last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
        if (last == null || !last.role().equals(role)) {
            last = new Turn(role, new ArrayList<>(), new ArrayList<>());
            turns.add(last);
        }
        last.blocks().add(block);
        last.origins().add(origin);
    }

    /** Tells whether an assistant message is Anthropic's own (or built by hand): only then does its state go back. */
    static boolean isOwn(AssistantMessage a, String provider) {
        return a.provider() == null || a.provider().equals(provider);
    }

    /** The block a reasoning part goes back as. */
    enum ReasoningBlock {
        /** {@code thinking} with its text and signature. */
        THINKING,
        /** {@code redacted_thinking} with its data. */
        REDACTED,
        /** None: the API rejects unsigned thinking and another provider's state. */
        NONE
    }

    /** Decides the block of a reasoning part: a signature wins, then redacted data; nothing else goes. */
    static ReasoningBlock reasoningBlock(ReasoningPart r, boolean own) {
        if (!own) {
            return ReasoningBlock.NONE;
        }
        return r.seals().signature() != null ? ReasoningBlock.THINKING
                : r.seals().redacted() != null ? ReasoningBlock.REDACTED : ReasoningBlock.NONE;
    }

    /** Tells whether a text part is sent: the API rejects text blocks without non-whitespace text. */
    static boolean sendsText(TextPart t) {
        return !t.text().isBlank();
    }

    private static @Nullable Consumer<JsonGenerator> assistantBlock(Part part, boolean own) {
        if (part instanceof ReasoningPart r) {
            ReasoningBlock block = reasoningBlock(r, own);
            String signature = r.seals().signature();
            String redacted = r.seals().redacted();
            if (block == ReasoningBlock.THINKING && signature != null) {
                return g -> {
                    g.writeStartObject();
                    g.writeStringProperty("type", "thinking");
                    g.writeStringProperty("thinking", r.text());
                    g.writeStringProperty("signature", signature);
                    g.writeEndObject();
                };
            }
            if (block == ReasoningBlock.REDACTED && redacted != null) {
                return g -> {
                    g.writeStartObject();
                    g.writeStringProperty("type", "redacted_thinking");
                    g.writeStringProperty("data", redacted);
                    g.writeEndObject();
                };
            }
            return null;
        }
        if (part instanceof TextPart t) {
            // the API rejects text blocks without non-whitespace text
            return sendsText(t) ? g -> textBlock(g, t.text()) : null;
        }
        if (part instanceof ToolCallPart c) {
            if (c.id() == null) {
                throw new IllegalArgumentException("tool call " + c.name() + " has no id; Anthropic needs one to match its result");
            }
            String id = c.id();
            checkArguments(c);
            return g -> {
                g.writeStartObject();
                g.writeStringProperty("type", "tool_use");
                g.writeStringProperty("id", id);
                g.writeStringProperty("name", c.name());
                g.writeName("input");
                JsonWriting.writeArguments(g, c);
                g.writeEndObject();
            };
        }
        if (part instanceof ServerToolPart s) {
            return own ? g -> g.writeRawValue(s.json()) : null;
        }
        return null;
    }

    private static void toolResult(JsonGenerator g, ToolResultMessage t) {
        g.writeStartObject();
        g.writeStringProperty("type", "tool_result");
        g.writeStringProperty("tool_use_id", t.toolCallId());
        g.writeStringProperty("content", t.content());
        g.writeBooleanProperty("is_error", t.error());
        g.writeEndObject();
    }

    private static void textBlock(JsonGenerator g, String text) {
        g.writeStartObject();
        g.writeStringProperty("type", "text");
        g.writeStringProperty("text", text);
        g.writeEndObject();
    }

    /** Fails early (before anything is written) on arguments that are not one JSON object. */
    private static void checkArguments(ToolCallPart c) {
        if (c.arguments().isBlank()) {
            return;
        }
        try (JsonParser p = AnthropicEventParser.JSON.createParser(ObjectReadContext.empty(), c.arguments())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("tool call " + c.id() + " has arguments that are not a JSON object");
            }
            p.skipChildren();
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("tool call " + c.id() + " has text after its JSON arguments");
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("tool call " + c.id() + " has arguments that are not valid JSON: "
                    + e.getOriginalMessage(), e);
        }
    }
}
