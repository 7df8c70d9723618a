package dev.ruminate.providers.anthropic;

import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.ShapeException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads Anthropic event data and message bodies with Jackson's streaming parser: no tree, fields in
 * any order, unknown fields skipped. Byte offsets of blocks are kept so that their JSON can be copied
 * unchanged.
 *
 * <p>Stateless apart from the factory; thread-safe.
 *
 * @throws tools.jackson.core.JacksonException for malformed JSON (callers map it)
 * @throws ShapeException for JSON of a shape the protocol does not allow
 */
final class AnthropicEventParser {

    /** Knows the names of Messages stream events (see {@link StreamParser#factoryKnowing}). */
    static final JsonFactory JSON = StreamParser.factoryKnowing(
            "type", "message", "id", "role", "model", "content", "stop_reason", "stop_sequence", "usage",
            "input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens",
            "cache_creation", "service_tier", "index", "content_block", "delta", "text", "thinking", "signature",
            "data", "partial_json", "name", "input", "tool_use_id", "citations", "error");

    private AnthropicEventParser() {
    }

    /** Reads one streamed event's data, just fed to the stream's parser, into {@code out} (cleared first). */
    static void parseEvent(StreamParser p, WireEvent out) {
        out.clear();
        expectObject(p, p.nextToken(), "event data");
        String name;
        while ((name = p.nextName()) != null) {
            // never null: inside an object the parser throws on a cut-short event rather than ending
            JsonToken value = Objects.requireNonNull(p.nextToken(), name);
            switch (name) {
                case "type" -> out.type = string(p, value, name);
                case "index" -> out.index = index(p, value);
                case "content_block" -> {
                    expectObject(p, value, name);
                    block(p, out.block);
                    out.hasBlock = true;
                }
                case "delta" -> {
                    expectObject(p, value, name);
                    delta(p, out);
                }
                case "message" -> {
                    expectObject(p, value, name);
                    message(p, out, null);
                }
                case "usage" -> out.usage = usage(p, value);
                default -> p.skipChildren();
            }
        }
        JsonReading.requireEnd(p);
    }

    /**
     * Reads a whole (non-streaming) message body: its fields into {@code out} (cleared first), and a
     * copy of each content block into {@code blocks}, in order.
     */
    static void parseMessage(byte[] body, WireEvent out, List<WireBlock> blocks) {
        out.clear();
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), body)) {
            expectObject(p, p.nextToken(), "the response body");
            message(p, out, blocks);
            JsonReading.requireEnd(p);
        }
    }

    private static void message(JsonParser p, WireEvent out, @Nullable List<WireBlock> blocks) {
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken value = p.nextToken();
            switch (name) {
                case "id" -> out.messageId = string(p, value, name);
                case "model" -> out.model = string(p, value, name);
                case "type" -> out.messageType = string(p, value, name);
                case "stop_reason" -> out.stopReason = string(p, value, name);
                case "usage" -> out.usage = usage(p, value);
                case "content" -> {
                    if (blocks == null || value == JsonToken.VALUE_NULL) {
                        p.skipChildren();
                    } else {
                        if (value != JsonToken.START_ARRAY) {
                            throw new ShapeException("content must be an array, was " + value);
                        }
                        JsonToken element;
                        while ((element = p.nextToken()) != JsonToken.END_ARRAY) {
                            expectObject(p, element, "a content block");
                            WireBlock block = new WireBlock();
                            block.clear();
                            block(p, block);
                            blocks.add(block);
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    /** Reads a block object whose START_OBJECT is the current token. */
    private static void block(JsonParser p, WireBlock b) {
        b.from = offset(p);
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken value = p.nextToken();
            switch (name) {
                case "type" -> b.type = string(p, value, name);
                case "id" -> b.id = stringOrSkip(p, value);
                case "tool_use_id" -> b.toolUseId = stringOrSkip(p, value);
                case "name" -> b.name = stringOrSkip(p, value);
                case "text" -> b.text = stringOrSkip(p, value);
                case "thinking" -> b.thinking = stringOrSkip(p, value);
                case "signature" -> b.signature = stringOrSkip(p, value);
                case "data" -> b.data = stringOrSkip(p, value);
                case "input" -> {
                    b.inputFrom = offset(p);
                    if (value == JsonToken.START_OBJECT) {
                        JsonToken t = p.nextToken();
                        b.inputEmpty = t == JsonToken.END_OBJECT;
                        while (t != JsonToken.END_OBJECT) {
                            p.nextToken();
                            p.skipChildren();
                            t = p.nextToken();
                        }
                    } else {
                        b.inputEmpty = false;
                        p.skipChildren();
                    }
                    b.inputTo = end(p);
                }
                case "content" -> {
                    b.contentFrom = offset(p);
                    p.skipChildren();
                    b.contentTo = end(p);
                }
                default -> p.skipChildren();
            }
        }
        b.to = end(p);
        if (b.type == null) {
            throw new ShapeException("a content block has no type");
        }
    }

    private static void delta(JsonParser p, WireEvent out) {
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken value = p.nextToken();
            switch (name) {
                case "type" -> out.deltaType = string(p, value, name);
                case "text", "thinking", "signature", "partial_json" -> out.deltaText = string(p, value, name);
                // compaction_delta; other deltas may give the name another shape
                case "content" -> out.deltaText = stringOrSkip(p, value);
                case "stop_reason" -> out.stopReason = string(p, value, name);
                default -> p.skipChildren();
            }
        }
    }

    private static @Nullable Usage usage(JsonParser p, JsonToken value) {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expectObject(p, value, "usage");
        Long input = null;
        Long output = null;
        Long cached = null;
        Long written = null;
        Long thinking = null;
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken token = p.nextToken();
            switch (name) {
                case "input_tokens" -> input = count(p, token);
                case "output_tokens" -> output = count(p, token);
                case "cache_read_input_tokens" -> cached = count(p, token);
                case "cache_creation_input_tokens" -> written = count(p, token);
                case "output_tokens_details" -> {
                    if (token == JsonToken.START_OBJECT) {
                        while (JsonReading.nextPropertyNamed(p, "thinking_tokens")) {
                            thinking = count(p, p.currentToken());
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        return new Usage(input, output, thinking, cached, written);
    }

    private static @Nullable Long count(JsonParser p, JsonToken token) {
        if (token == JsonToken.VALUE_NUMBER_INT) {
            return p.getLongValue();
        }
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        p.skipChildren();
        throw new ShapeException("a token count must be an integer, was " + token);
    }

    private static int index(JsonParser p, JsonToken token) {
        if (token != JsonToken.VALUE_NUMBER_INT || p.getLongValue() < 0 || p.getLongValue() > Integer.MAX_VALUE) {
            p.skipChildren();
            throw new ShapeException("index must be a non-negative integer, was " + token);
        }
        return p.getIntValue();
    }

    private static @Nullable String string(JsonParser p, JsonToken token, String field) {
        if (token == JsonToken.VALUE_STRING) {
            return p.getString();
        }
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        p.skipChildren();
        throw new ShapeException(field + " must be a string, was " + token);
    }

    /**
     * Returns a string value, or null for any other value (skipped): a block type this decoder does
     * not know may use these names for other things, and the blocks it knows check what they need.
     */
    private static @Nullable String stringOrSkip(JsonParser p, JsonToken token) {
        if (token == JsonToken.VALUE_STRING) {
            return p.getString();
        }
        p.skipChildren();
        return null;
    }

    private static void expectObject(JsonParser p, @Nullable JsonToken token, String what) {
        if (token != JsonToken.START_OBJECT) {
            if (token == null) {
                throw new StreamReadException(p, what + " is empty");
            }
            throw new ShapeException(what + " must be a JSON object, was " + token);
        }
    }

    /**
     * Returns where the current token starts, as a byte offset into the bytes being parsed: where a
     * block or its {@code input} begins, so that its JSON can be kept byte for byte.
     */
    private static int offset(JsonParser p) {
        return (int) p.currentTokenLocation().getByteOffset();
    }

    /** Returns the offset just past the current token, a closing bracket or a scalar. */
    private static int end(JsonParser p) {
        JsonToken t = p.currentToken();
        if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
            return offset(p) + 1;
        }
        p.finishToken();
        return (int) p.currentLocation().getByteOffset();
    }
}
