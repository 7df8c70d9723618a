package dev.ruminate.providers;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * What a recorded response body is, told from its bytes alone: how it is framed, and which API
 * family's wire format it looks like, with the evidence. For tools that are handed a body without
 * its headers (replaying a recording, explaining why a decoder gave up on it): a body given to the
 * wrong family's decoder fails as a stream that ended early, and this says which family it is.
 *
 * <p>The family is a guess from the first frames' top-level fields (a JSON parse of each, never of
 * text inside them): {@code message_start} events are Anthropic's, {@code response.*} events
 * Responses', {@code candidates} (or an {@code interaction.*} event) Gemini's, {@code choices} Chat
 * Completions', {@code done} with a {@code message} or {@code response} Ollama's, and AWS
 * event-stream frames (or a body with {@code output} and {@code stopReason}, or Converse stream
 * events such as {@code messageStart} as JSON) Bedrock's. It is null
 * when nothing tells (an error object, an empty body, bytes of no known format).
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param framing how the body is framed
 * @param family the API family whose wire format the body looks like, or null when unknown
 * @param evidence what in the body told the family (such as {@code event: message_start}), or
 *     what it was when nothing did; for messages
 * @since 0.1
 */
public record WireFormat(Framing framing, @Nullable ApiFamily family, String evidence) {

    private static final JsonFactory JSON = new JsonFactory();
    /** How many of a stream's first frames are read for a family before giving up. */
    private static final int FRAMES_READ = 8;

    /**
     * Creates the value, checking its components.
     *
     * @param framing see {@link #framing()}
     * @param family see {@link #family()}
     * @param evidence see {@link #evidence()}
     */
    public WireFormat {
        Objects.requireNonNull(framing, "framing");
        Objects.requireNonNull(evidence, "evidence");
    }

    /**
     * How a body is framed, and the content type a server would give it.
     *
     * @since 0.1
     */
    public enum Framing {
        /** Server-Sent Events, {@code text/event-stream}. */
        SSE("text/event-stream", true, "an SSE stream"),
        /** Newline-delimited JSON, {@code application/x-ndjson}. */
        NDJSON("application/x-ndjson", true, "an NDJSON stream"),
        /** AWS event-stream binary frames, {@code application/vnd.amazon.eventstream}. */
        EVENT_STREAM("application/vnd.amazon.eventstream", true, "an AWS event stream"),
        /** One JSON array streamed element by element ({@code application/json}). */
        JSON_ARRAY("application/json", true, "a streamed JSON array"),
        /** One JSON document: a whole (non-streaming) response. */
        JSON("application/json", false, "a whole JSON response");

        private final String contentType;
        private final boolean streaming;
        private final String description;

        Framing(String contentType, boolean streaming, String description) {
            this.contentType = contentType;
            this.streaming = streaming;
            this.description = description;
        }

        /**
         * Returns the content type a server sends such a body with.
         *
         * @return the media type
         */
        public String contentType() {
            return contentType;
        }

        /**
         * Tells whether such a body answers a streaming call.
         *
         * @return true for a stream
         */
        public boolean streaming() {
            return streaming;
        }

        /**
         * Returns a short description, such as {@code an SSE stream}.
         *
         * @return the description
         */
        public String description() {
            return description;
        }
    }

    /**
     * Tells what a body is.
     *
     * @param body the response body, as recorded; not modified
     * @return its framing, and its family when anything tells it
     */
    public static WireFormat recognise(byte[] body) {
        Objects.requireNonNull(body, "body");
        if (isEventStream(body)) {
            return new WireFormat(Framing.EVENT_STREAM, ApiFamily.BEDROCK, "binary :event-type frames");
        }
        int start = 0;
        while (start < body.length && isSpace(body[start])) {
            start++;
        }
        if (start < body.length && body[start] == '[') {
            return fromJson(Framing.JSON_ARRAY, body, start, body.length);
        }
        if (start < body.length && body[start] == '{') {
            int[] lines = jsonLines(body, start);
            if (lines.length > 0) {
                return fromJson(Framing.NDJSON, body, lines[0], lines[1]);
            }
            return fromJson(Framing.JSON, body, start, body.length);
        }
        return fromSse(body);
    }

    /**
     * Describes the body for a person, such as {@code an SSE stream in the Anthropic Messages format
     * (event: message_start)}.
     *
     * @return the description
     */
    public String describe() {
        return framing.description() + (family != null ? " in the " + familyName(family) + " format" : " of no known format")
                + " (" + evidence + ")";
    }

    /**
     * Names a family for a person.
     *
     * @param family the family
     * @return the name, such as {@code Anthropic Messages}
     */
    public static String familyName(ApiFamily family) {
        return switch (family) {
            case CHAT_COMPLETIONS -> "OpenAI Chat Completions";
            case RESPONSES -> "OpenAI Responses";
            case ANTHROPIC -> "Anthropic Messages";
            case GEMINI -> "Google Gemini";
            case OLLAMA -> "Ollama";
            case BEDROCK -> "Amazon Bedrock Converse";
        };
    }

    private static WireFormat fromJson(Framing framing, byte[] body, int from, int to) {
        Fields fields = Fields.read(body, from, to - from);
        if (fields == null) {
            return new WireFormat(framing, null, "not well-formed JSON");
        }
        Guess guess = fields.guess(null);
        return guess != null ? new WireFormat(framing, guess.family, guess.evidence)
                : new WireFormat(framing, null, fields.describe());
    }

    private static WireFormat fromSse(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        String event = null;
        int read = 0;
        boolean anyData = false;
        for (String raw : text.split("\r\n|\r|\n", -1)) {
            String line = raw;
            if (line.isEmpty()) {
                event = null;
                continue;
            }
            if (line.startsWith("event:")) {
                event = line.substring("event:".length()).strip();
                Guess guess = Fields.byEvent(event);
                if (guess != null) {
                    return new WireFormat(Framing.SSE, guess.family, guess.evidence);
                }
            } else if (line.startsWith("data:")) {
                anyData = true;
                byte[] data = line.substring("data:".length()).strip().getBytes(StandardCharsets.UTF_8);
                Fields fields = data.length > 0 && data[0] == '{' ? Fields.read(data, 0, data.length) : null;
                Guess guess = fields != null ? fields.guess(event) : null;
                if (guess != null) {
                    return new WireFormat(Framing.SSE, guess.family, "data: " + guess.evidence);
                }
                if (++read == FRAMES_READ) {
                    break;
                }
            }
        }
        return new WireFormat(Framing.SSE, null, anyData ? "no known fields in its first events"
                : body.length == 0 ? "an empty body" : "no data: lines");
    }

    /** Returns the bounds of the first line when the body is several lines that each hold one JSON object, else none. */
    private static int[] jsonLines(byte[] body, int start) {
        String text = new String(body, start, body.length - start, StandardCharsets.UTF_8);
        String[] lines = text.strip().split("\n");
        if (lines.length < 2) {
            return new int[0];
        }
        for (String line : lines) {
            String t = line.strip();
            if (!t.isEmpty() && (!t.startsWith("{") || !t.endsWith("}"))) {
                return new int[0];
            }
        }
        int end = start;
        while (end < body.length && body[end] != '\n') {
            end++;
        }
        return new int[] {start, end};
    }

    private static boolean isEventStream(byte[] body) {
        if (body.length < 16) {
            return false;
        }
        CRC32 crc = new CRC32();
        crc.update(body, 0, 8);
        long prelude = ((body[8] & 0xffL) << 24) | ((body[9] & 0xffL) << 16) | ((body[10] & 0xffL) << 8) | (body[11] & 0xffL);
        return crc.getValue() == prelude;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    /** A family and what told it. */
    private record Guess(ApiFamily family, String evidence) {
    }

    /** The Converse stream's event names, each the one property of its event's JSON. */
    private static final Set<String> BEDROCK_EVENTS = Set.of("messageStart", "contentBlockStart", "contentBlockDelta",
            "contentBlockStop", "messageStop");

    /** The top-level property names of one JSON object, and its {@code type}, {@code object} and {@code event_type} strings. */
    private record Fields(Set<String> names, @Nullable String type, @Nullable String object, @Nullable String eventType) {

        /** Reads the object (or, for an array, its first element); null when the bytes are not well-formed JSON. */
        static @Nullable Fields read(byte[] bytes, int offset, int length) {
            Set<String> names = new HashSet<>();
            String type = null;
            String object = null;
            String eventType = null;
            try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), bytes, offset, length)) {
                JsonToken t = p.nextToken();
                if (t == JsonToken.START_ARRAY) {
                    t = p.nextToken();
                }
                if (t != JsonToken.START_OBJECT) {
                    return null;
                }
                while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
                    String name = p.currentName();
                    names.add(name);
                    JsonToken value = p.nextToken();
                    if (value == JsonToken.VALUE_STRING) {
                        switch (name) {
                            case "type" -> type = p.getString();
                            case "object" -> object = p.getString();
                            case "event_type" -> eventType = p.getString();
                            default -> { }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                return t == JsonToken.END_OBJECT ? new Fields(names, type, object, eventType) : null;
            } catch (JacksonException e) {
                // a stream cut inside its first element still has the fields read before the cut
                return names.isEmpty() ? null : new Fields(names, type, object, eventType);
            }
        }

        static @Nullable Guess byEvent(@Nullable String event) {
            if (event == null) {
                return null;
            }
            if (event.equals("message_start") || event.startsWith("content_block_")) {
                return new Guess(ApiFamily.ANTHROPIC, "event: " + event);
            }
            if (event.startsWith("response.")) {
                return new Guess(ApiFamily.RESPONSES, "event: " + event);
            }
            if (event.startsWith("interaction.")) {
                return new Guess(ApiFamily.GEMINI, "event: " + event);
            }
            return null;
        }

        @Nullable Guess guess(@Nullable String event) {
            Guess byEvent = byEvent(event);
            if (byEvent != null) {
                return byEvent;
            }
            if (type != null && (type.equals("message_start") || type.startsWith("content_block_")
                    || type.equals("message") && names.contains("stop_reason"))) {
                return new Guess(ApiFamily.ANTHROPIC, "\"type\":\"" + type + "\"");
            }
            if (type != null && type.startsWith("response.") || object != null && object.startsWith("response")) {
                return new Guess(ApiFamily.RESPONSES, type != null ? "\"type\":\"" + type + "\"" : "\"object\":\"" + object + "\"");
            }
            if (names.contains("candidates") || names.contains("promptFeedback")) {
                return new Guess(ApiFamily.GEMINI, "{\"candidates\":…}");
            }
            if (eventType != null && eventType.startsWith("interaction.") || "interaction".equals(object)) {
                return new Guess(ApiFamily.GEMINI, "\"event_type\":\"" + eventType + "\"");
            }
            if (names.contains("choices") || object != null && object.startsWith("chat.completion")) {
                return new Guess(ApiFamily.CHAT_COMPLETIONS, "{\"choices\":…}");
            }
            if (names.contains("done") && (names.contains("message") || names.contains("response"))) {
                return new Guess(ApiFamily.OLLAMA, names.contains("message") ? "{\"message\":…,\"done\":…}" : "{\"response\":…,\"done\":…}");
            }
            if (names.contains("output") && names.contains("stopReason")) {
                return new Guess(ApiFamily.BEDROCK, "{\"output\":…,\"stopReason\":…}");
            }
            for (String name : BEDROCK_EVENTS) {
                if (names.contains(name)) {
                    // Converse stream events written as JSON, one per line, without their binary frames
                    return new Guess(ApiFamily.BEDROCK, "{\"" + name + "\":…}");
                }
            }
            return null;
        }

        String describe() {
            if (names.contains("error")) {
                return "an error object";
            }
            return "top-level fields " + String.join(", ", names.stream().sorted().limit(6).toList());
        }
    }
}
