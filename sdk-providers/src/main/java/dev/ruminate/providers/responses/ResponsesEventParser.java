package dev.ruminate.providers.responses;

import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.ShapeException;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads streamed Responses events and whole {@code response} bodies with Jackson's streaming parser:
 * no tree, unknown subtrees skipped. An output item's exact JSON is copied from its byte range in
 * the input (never re-serialized), so opaque content stays byte-identical.
 *
 * @throws tools.jackson.core.JacksonException for malformed JSON (callers map it)
 * @throws ShapeException for JSON of a shape the protocol does not allow
 */
final class ResponsesEventParser {

    /** Knows the names of Responses stream events (see {@link StreamParser#factoryKnowing}). */
    static final JsonFactory JSON = StreamParser.factoryKnowing(
            "type", "sequence_number", "response", "id", "object", "created_at", "status", "model", "output",
            "output_index", "item", "item_id", "content_index", "summary_index", "delta", "text", "part", "content",
            "role", "summary", "encrypted_content", "arguments", "call_id", "name", "usage", "input_tokens",
            "output_tokens", "total_tokens", "input_tokens_details", "cached_tokens", "output_tokens_details",
            "reasoning_tokens", "incomplete_details", "reason", "error", "code", "message", "logprobs", "obfuscation",
            "annotations", "reasoning", "effort");

    /** A summary entry without a text. */
    private static final WireText NO_TEXT = WireText.of("");

    private ResponsesEventParser() {
    }

    /**
     * Reads one event's data, which must be one JSON object, from the stream's parser just fed
     * {@code length} bytes of {@code array} from {@code offset}. An item's source range
     * ({@link WireItem#json()}) and the event's {@link WireText}s then point into {@code array}:
     * read them before the array is reused (for a lent frame, within the decode call); the
     * event's strings are copies.
     */
    static WireEvent event(StreamParser p, byte[] array, int offset, int length) {
        Source data = new Source(array, offset, length);
        WireEvent e = new WireEvent();
        requireObject(p.nextToken(), "an event");
        String name;
        while ((name = p.nextName()) != null) {
            // never null: inside an object the parser throws on a cut-short event rather than ending
            JsonToken value = Objects.requireNonNull(p.nextToken(), name);
            switch (name) {
                case "type" -> e.type = JsonReading.text(p, value);
                case "output_index" -> e.outputIndex = index(p, value);
                case "summary_index" -> e.summaryIndex = index(p, value);
                case "content_index" -> e.contentIndex = index(p, value);
                case "item_id" -> e.itemId = JsonReading.text(p, value);
                case "delta" -> e.delta = JsonReading.text(p, value);
                case "text" -> e.text = data.text(p, value);
                case "refusal" -> e.refusal = data.text(p, value);
                case "arguments" -> e.arguments = data.text(p, value);
                case "input" -> e.input = data.text(p, value);
                case "part" -> part(p, value, e, data);
                case "item" -> e.item = value == JsonToken.START_OBJECT ? item(p, data) : skipNull(p, value, "item");
                case "response" -> e.response = value == JsonToken.START_OBJECT ? response(p, data)
                        : skipNull(p, value, "response");
                default -> p.skipChildren();
            }
        }
        JsonReading.requireEnd(p);
        return e;
    }

    /** Reads a whole non-streaming body: one {@code response} object. */
    static WireResponse body(byte[] body) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), body)) {
            requireObject(p.nextToken(), "a response body");
            WireResponse r = response(p, new Source(body, 0, body.length));
            JsonReading.requireEnd(p);
            return r;
        }
    }

    private static void part(JsonParser p, JsonToken value, WireEvent e, Source data) {
        if (value != JsonToken.START_OBJECT) {
            skipNull(p, value, "part");
            return;
        }
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (name) {
                case "type" -> e.partType = JsonReading.text(p, v);
                case "text" -> e.partText = data.text(p, v);
                case "refusal" -> {
                    WireText refusal = data.text(p, v);
                    if (refusal != null) {
                        e.partText = refusal;
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    /** Reads an item; the parser is on its START_OBJECT. */
    private static WireItem item(JsonParser p, Source data) {
        int from = (int) p.currentTokenLocation().getByteOffset();
        WireItem item = new WireItem();
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (name) {
                case "type" -> item.type = JsonReading.text(p, v);
                case "id" -> item.id = JsonReading.text(p, v);
                case "call_id" -> item.callId = JsonReading.text(p, v);
                case "name" -> item.name = JsonReading.text(p, v);
                case "arguments" -> item.arguments = data.text(p, v);
                case "input" -> item.input = data.text(p, v);
                case "encrypted_content" -> item.encryptedContent = JsonReading.text(p, v);
                case "summary" -> summary(p, v, item, data);
                case "content" -> content(p, v, item, data);
                default -> p.skipChildren();
            }
        }
        int to = (int) p.currentLocation().getByteOffset();
        if (from >= 0 && to > from && to <= data.length) {
            item.source = data.array;
            item.from = data.offset + from;
            item.to = data.offset + to;
        }
        return item;
    }

    private static void summary(JsonParser p, JsonToken v, WireItem item, Source data) {
        if (v != JsonToken.START_ARRAY) {
            skipNull(p, v, "summary");
            return;
        }
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_OBJECT) {
                throw new ShapeException("a summary entry must be an object, was " + t);
            }
            WireText text = null;
            String name;
            while ((name = p.nextName()) != null) {
                JsonToken fv = p.nextToken();
                if ("text".equals(name)) {
                    text = data.text(p, fv);
                } else {
                    p.skipChildren();
                }
            }
            item.summary.add(text == null ? NO_TEXT : text);
        }
    }

    private static void content(JsonParser p, JsonToken v, WireItem item, Source data) {
        if (v == JsonToken.VALUE_STRING) {
            // an input-style message whose content is a plain string
            item.content.add(new WireItem.ContentPart("output_text", data.text(p, v)));
            return;
        }
        if (v != JsonToken.START_ARRAY) {
            skipNull(p, v, "content");
            return;
        }
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_OBJECT) {
                throw new ShapeException("a content entry must be an object, was " + t);
            }
            String type = null;
            WireText text = null;
            String name;
            while ((name = p.nextName()) != null) {
                JsonToken fv = p.nextToken();
                switch (name) {
                    case "type" -> type = JsonReading.text(p, fv);
                    case "text" -> text = data.text(p, fv);
                    case "refusal" -> {
                        WireText refusal = data.text(p, fv);
                        if (refusal != null) {
                            text = refusal;
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            item.content.add(new WireItem.ContentPart(type, text));
        }
    }

    /** Reads a response object; the parser is on its START_OBJECT. */
    private static WireResponse response(JsonParser p, Source data) {
        WireResponse r = new WireResponse();
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken v = p.nextToken();
            switch (name) {
                case "id" -> r.id = JsonReading.text(p, v);
                case "model" -> r.model = JsonReading.text(p, v);
                case "status" -> r.status = JsonReading.text(p, v);
                case "incomplete_details" -> incompleteDetails(p, v, r);
                case "error" -> r.error = rawObject(p, v, data);
                case "usage" -> usage(p, v, r);
                case "output" -> output(p, v, r, data);
                default -> p.skipChildren();
            }
        }
        return r;
    }

    private static void incompleteDetails(JsonParser p, JsonToken v, WireResponse r) {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (JsonReading.nextPropertyNamed(p, "reason")) {
            r.incompleteReason = JsonReading.text(p, p.currentToken());
        }
    }

    private static byte @Nullable [] rawObject(JsonParser p, JsonToken v, Source data) {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        int from = (int) p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        int to = (int) p.currentLocation().getByteOffset();
        return from >= 0 && to > from && to <= data.length
                ? Arrays.copyOfRange(data.array, data.offset + from, data.offset + to) : new byte[0];
    }

    private static void usage(JsonParser p, JsonToken v, WireResponse r) {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken fv = p.nextToken();
            switch (name) {
                case "input_tokens" -> r.inputTokens = count(p, fv);
                case "output_tokens" -> r.outputTokens = count(p, fv);
                case "input_tokens_details" -> r.cachedTokens = detail(p, fv, "cached_tokens", r.cachedTokens);
                case "output_tokens_details" -> r.reasoningTokens = detail(p, fv, "reasoning_tokens", r.reasoningTokens);
                default -> p.skipChildren();
            }
        }
    }

    private static @Nullable Long detail(JsonParser p, JsonToken v, String field, @Nullable Long previous) {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return previous;
        }
        Long found = previous;
        while (JsonReading.nextPropertyNamed(p, field)) {
            found = count(p, p.currentToken());
        }
        return found;
    }

    private static void output(JsonParser p, JsonToken v, WireResponse r, Source data) {
        if (v != JsonToken.START_ARRAY) {
            skipNull(p, v, "output");
            return;
        }
        r.hasOutput = true;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_OBJECT) {
                throw new ShapeException("an output item must be an object, was " + t);
            }
            r.output.add(item(p, data));
        }
    }

    private static @Nullable Long count(JsonParser p, JsonToken v) {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            return p.getLongValue();
        }
        p.skipChildren();
        return null;
    }

    private static int index(JsonParser p, JsonToken v) {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            int i = p.getIntValue();
            if (i < 0) {
                throw new ShapeException("an index must not be negative, was " + i);
            }
            return i;
        }
        if (v == JsonToken.VALUE_NULL) {
            return -1;
        }
        throw new ShapeException("an index must be an integer, was " + v);
    }

    private static <T> @Nullable T skipNull(JsonParser p, JsonToken v, String what) {
        if (v == JsonToken.VALUE_NULL) {
            return null;
        }
        throw new ShapeException(what + " has an unexpected value: " + v);
    }

    /**
     * The bytes JSON is read from: {@code length} bytes of {@code array} from {@code offset}; the
     * parser's locations are relative to {@code offset}.
     */
    private record Source(byte[] array, int offset, int length) {

        /** Reads a text that decoding may not need: see {@link WireText}. */
        @Nullable WireText text(JsonParser p, JsonToken value) {
            return WireText.read(p, value, array, offset, length);
        }
    }

    private static void requireObject(@Nullable JsonToken t, String what) {
        if (t != JsonToken.START_OBJECT) {
            throw new ShapeException(what + " must be a JSON object, was " + (t == null ? "empty" : t));
        }
    }
}
