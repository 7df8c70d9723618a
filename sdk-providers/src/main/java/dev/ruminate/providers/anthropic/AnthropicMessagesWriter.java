package dev.ruminate.providers.anthropic;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.providers.internal.JsonWriting;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * <p>System texts become {@code system} (a string, or text blocks when there are several or the
 * last is a cache breakpoint). User text and tool results become {@code user} messages of content
 * blocks, a message's images and documents ({@link AnthropicMedia}) before its text; consecutive messages of one
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
    private record Turn(String role, List<Block> blocks, List<int[]> origins) {
    }

    /**
     * One content block: the writer of its fields (inside its object), or its JSON verbatim; and
     * whether it can carry {@code cache_control} (thinking blocks and verbatim blocks cannot).
     */
    private record Block(@Nullable Consumer<JsonGenerator> fields, @Nullable String raw, boolean cacheable) {

        static Block of(Consumer<JsonGenerator> fields) {
            return new Block(fields, null, true);
        }

        void write(JsonGenerator g, @Nullable Consumer<JsonGenerator> cacheControl) {
            if (raw != null) {
                g.writeRawValue(raw);
                return;
            }
            g.writeStartObject();
            Objects.requireNonNull(fields, "fields").accept(g);
            if (cacheControl != null && cacheable) {
                cacheControl.accept(g);
            }
            g.writeEndObject();
        }
    }

    /**
     * Writes {@code system}, when there are system texts: one string, or text blocks when there are
     * several or the last carries {@code cache_control}.
     *
     * @param g the generator, in the request object
     * @param system the system texts (the conversation's, then any the encoder adds)
     * @param cacheControl writes {@code cache_control} on the last block, or null
     */
    static void writeSystem(JsonGenerator g, List<String> system, @Nullable Consumer<JsonGenerator> cacheControl) {
        if (system.isEmpty()) {
            return;
        }
        if (system.size() == 1 && cacheControl == null) {
            g.writeStringProperty("system", system.get(0));
            return;
        }
        g.writeArrayPropertyStart("system");
        for (int i = 0; i < system.size(); i++) {
            String text = system.get(i);
            Block.of(gen -> textFields(gen, text)).write(g, i == system.size() - 1 ? cacheControl : null);
        }
        g.writeEndArray();
    }

    /** Writes the {@code messages} array value, without cache breakpoints. */
    static void writeMessages(JsonGenerator g, List<Message> messages, String provider) {
        writeMessages(g, messages, provider, Set.of(), null);
    }

    /**
     * Writes the {@code messages} array value.
     *
     * @param g the generator
     * @param messages the conversation
     * @param provider the provider it is written for
     * @param cached indexes of the messages whose last content block carries {@code cache_control}
     * @param cacheControl writes {@code cache_control}, or null for none
     */
    static void writeMessages(JsonGenerator g, List<Message> messages, String provider, Set<Integer> cached,
                              @Nullable Consumer<JsonGenerator> cacheControl) {
        List<Turn> turns = turns(messages, provider);
        Map<Integer, int[]> last = lastBlocks(turns);
        g.writeStartArray();
        for (int t = 0; t < turns.size(); t++) {
            Turn turn = turns.get(t);
            g.writeStartObject();
            g.writeStringProperty("role", turn.role());
            g.writeArrayPropertyStart("content");
            for (int b = 0; b < turn.blocks().size(); b++) {
                int message = turn.origins().get(b)[0];
                int[] end = last.get(message);
                boolean marked = cached.contains(message) && end != null && end[0] == t && end[1] == b;
                turn.blocks().get(b).write(g, marked ? cacheControl : null);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /**
     * Tells, for every message that gives at least one content block, whether its last block can
     * carry {@code cache_control} (a thinking block or a server-tool block sent verbatim cannot).
     *
     * @param messages the conversation
     * @param provider the provider it is written for
     * @return message index to cacheable; messages without a block (system messages, empty turns) are absent
     */
    static Map<Integer, Boolean> lastBlockCacheable(List<Message> messages, String provider) {
        List<Turn> turns = turns(messages, provider);
        Map<Integer, Boolean> out = new HashMap<>();
        for (Map.Entry<Integer, int[]> e : lastBlocks(turns).entrySet()) {
            out.put(e.getKey(), turns.get(e.getValue()[0]).blocks().get(e.getValue()[1]).cacheable());
        }
        return out;
    }

    /** Message index to {@code {turn, block}} of its last content block. */
    private static Map<Integer, int[]> lastBlocks(List<Turn> turns) {
        Map<Integer, int[]> last = new HashMap<>();
        for (int t = 0; t < turns.size(); t++) {
            List<int[]> origins = turns.get(t).origins();
            for (int b = 0; b < origins.size(); b++) {
                last.put(origins.get(b)[0], new int[] {t, b});
            }
        }
        return last;
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
                // media go before the text, where the model reads them best; a message of media alone has no text block
                for (Media media : u.media()) {
                    add(turns, "user", Block.of(gen -> AnthropicMedia.writeFields(gen, media)), new int[] {i, -1});
                }
                if (u.media().isEmpty() || !u.text().isEmpty()) {
                    add(turns, "user", Block.of(gen -> textFields(gen, u.text())), new int[] {i, -1});
                }
            } else if (m instanceof ToolResultMessage t) {
                add(turns, "user", Block.of(gen -> toolResult(gen, t)), new int[] {i, -1});
            } else if (m instanceof AssistantMessage a) {
                boolean own = isOwn(a, provider);
                List<Part> parts = a.parts();
                for (int j = 0; j < parts.size(); j++) {
                    Block block = assistantBlock(parts.get(j), own);
                    if (block != null) {
                        add(turns, "assistant", block, new int[] {i, j});
                    }
                }
            }
        }
        return turns;
    }

    private static void add(List<Turn> turns, String role, Block block, int[] origin) {
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

    private static @Nullable Block assistantBlock(Part part, boolean own) {
        if (part instanceof ReasoningPart r) {
            ReasoningBlock block = reasoningBlock(r, own);
            String signature = r.seals().signature();
            String redacted = r.seals().redacted();
            // thinking blocks cannot carry cache_control
            if (block == ReasoningBlock.THINKING && signature != null) {
                return new Block(g -> {
                    g.writeStringProperty("type", "thinking");
                    g.writeStringProperty("thinking", r.text());
                    g.writeStringProperty("signature", signature);
                }, null, false);
            }
            if (block == ReasoningBlock.REDACTED && redacted != null) {
                return new Block(g -> {
                    g.writeStringProperty("type", "redacted_thinking");
                    g.writeStringProperty("data", redacted);
                }, null, false);
            }
            return null;
        }
        if (part instanceof TextPart t) {
            // the API rejects text blocks without non-whitespace text
            return sendsText(t) ? Block.of(g -> textFields(g, t.text())) : null;
        }
        if (part instanceof ToolCallPart c) {
            if (c.id() == null) {
                throw new IllegalArgumentException("tool call " + c.name() + " has no id; Anthropic needs one to match its result");
            }
            String id = c.id();
            checkArguments(c);
            return Block.of(g -> {
                g.writeStringProperty("type", "tool_use");
                g.writeStringProperty("id", id);
                g.writeStringProperty("name", c.name());
                g.writeName("input");
                JsonWriting.writeArguments(g, c);
            });
        }
        if (part instanceof ServerToolPart s) {
            return own ? new Block(null, s.json(), false) : null;
        }
        return null;
    }

    /**
     * Writes a {@code tool_result}'s fields: its content as a string, or, with media, as content
     * blocks (the media, then the text unless empty).
     */
    private static void toolResult(JsonGenerator g, ToolResultMessage t) {
        g.writeStringProperty("type", "tool_result");
        g.writeStringProperty("tool_use_id", t.toolCallId());
        if (t.media().isEmpty()) {
            g.writeStringProperty("content", t.content());
        } else {
            g.writeArrayPropertyStart("content");
            for (Media media : t.media()) {
                AnthropicMedia.write(g, media);
            }
            if (!t.content().isEmpty()) {
                g.writeStartObject();
                textFields(g, t.content());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeBooleanProperty("is_error", t.error());
    }

    private static void textFields(JsonGenerator g, String text) {
        g.writeStringProperty("type", "text");
        g.writeStringProperty("text", text);
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
