package dev.ruminate.providers.bedrock;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.providers.internal.JsonReading;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.StreamParser;
import dev.ruminate.providers.spi.ShapeException;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.wire.EventStreamMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Decodes the messages of one ConverseStream response into events.
 *
 * <p>Each {@code event} message's {@code :event-type} header names its payload:
 * {@code messageStart}, {@code contentBlockStart} (tool use only), {@code contentBlockDelta}
 * (text, {@code reasoningContent} text / signature / redactedContent, tool-use input),
 * {@code contentBlockStop}, {@code messageStop} (stop reason) and {@code metadata} (usage). Content
 * block indices become dense part indices in order of first use; reasoning and text blocks have no
 * start event, so a part opens at its first delta. Unknown fields and delta kinds are ignored (so is
 * the random {@code p} padding field), but an event type or message type outside the documented
 * union fails with {@link ProtocolException} {@code UNEXPECTED_SHAPE}: ConverseStream's event set is
 * closed, and a stream that says something we cannot read must not pass as complete.
 *
 * <p>The response completes at the end of the body once {@code messageStop} was seen (usage comes
 * after it, in {@code metadata}); a body that ends before is an {@link IncompleteStreamException}.
 * An {@code exception} message ({@code :exception-type} such as {@code throttlingException}, JSON
 * {@code message}) or an {@code error} message ({@code :error-code}, {@code :error-message}) fails
 * with {@link ProviderStreamException}; a payload that is not JSON with {@link ProtocolException}
 * {@code MALFORMED_JSON}.
 *
 * <p>Lent-safe: a message is read only through its payload range, during {@link #decode}, and nothing
 * of it (its array, a parser positioned in it) is used after the call; what is kept is copied (the
 * decoded strings). The dominant payload, a {@code contentBlockDelta} with one piece of text, is read
 * by a byte scanner ({@link DeltaScanner}); anything it does not recognise exactly goes to Jackson,
 * which stays the reference.
 *
 * <p>One instance per response; not thread-safe.
 */
final class BedrockStreamDecoder implements StreamDecoder<EventStreamMessage> {

    /** Knows the names of ConverseStream payloads (see {@link StreamParser#factoryKnowing}). */
    private static final JsonFactory JSON = StreamParser.factoryKnowing(
            "contentBlockIndex", "start", "toolUse", "toolUseId", "name", "delta", "text", "reasoningContent",
            "signature", "redactedContent", "input", "role", "stopReason", "additionalModelResponseFields", "usage",
            "inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokens", "cacheWriteInputTokens", "metrics",
            "latencyMs", "trace", "p", "message");


    private final String provider;
    private final String model;
    /** Content block index to part index. */
    private final Map<Integer, Integer> parts = new HashMap<>();
    private final List<Boolean> ended = new ArrayList<>();
    /** Part index to the call's index among the response's tool calls, in order of first appearance. */
    private final Map<Integer, Integer> toolIndexByPart = new HashMap<>();
    private int toolCalls;
    private boolean started;
    private @Nullable String stopReason;
    private boolean done;
    /** One parser for the stream; a failure ends the stream, so it is never fed after one. */
    private final StreamParser json = StreamParser.create(JSON);
    /** The fast path for text deltas, or null when it is off (the Jackson path alone, for differential tests). */
    private final @Nullable DeltaScanner scanner;

    BedrockStreamDecoder(String provider, String model) {
        this(provider, model, true);
    }

    /**
     * Creates a decoder.
     *
     * @param provider the provider name for events and errors
     * @param model the model the request named
     * @param fastPath false to read every payload with Jackson (the reference the fast path is tested against)
     */
    BedrockStreamDecoder(String provider, String model, boolean fastPath) {
        this.provider = provider;
        this.model = model;
        this.scanner = fastPath ? new DeltaScanner() : null;
    }

    @Override
    public void decode(EventStreamMessage message, List<ChatEvent> out) {
        if (done) {
            return;
        }
        String messageType = message.headerText(":message-type");
        if ("exception".equals(messageType)) {
            throw new ProviderStreamException(provider, exception(message));
        }
        if ("error".equals(messageType)) {
            throw new ProviderStreamException(provider, new ProviderError(message.headerText(":error-code"), null,
                    message.headerText(":error-message"), null));
        }
        if (!"event".equals(messageType)) {
            throw new ShapeException("unknown event-stream message type '" + messageType + "'");
        }
        String type = message.headerText(":event-type");
        if (type == null) {
            throw new ShapeException("an event message without :event-type");
        }
        start(out);
        byte[] array = message.payloadArray();
        int offset = message.payloadOffset();
        int length = message.payloadLength();
        DeltaScanner fast = scanner;
        if (fast != null && type.equals("contentBlockDelta") && fast.scan(array, offset, length)) {
            fastDelta(fast, out);
            return;
        }
        StreamParser p = json.feed(array, offset, length);
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new ShapeException("the payload is not a JSON object");
        }
        switch (type) {
            case "contentBlockStart" -> blockStart(p, out);
            case "contentBlockDelta" -> blockDelta(p, out, message);
            case "contentBlockStop" -> blockStop(p, out);
            case "messageStop" -> messageStop(p);
            case "metadata" -> metadata(p, out);
            case "messageStart" -> p.skipChildren();
            default -> throw new ShapeException("unknown ConverseStream event type '" + type + "'");
        }
        JsonReading.requireEnd(p);
    }

    /** Returns the closing events at the end of the body; throws when the response is incomplete. */
    @Override
    public void end(List<ChatEvent> out) {
        if (done) {
            return;
        }
        if (stopReason == null) {
            throw new IncompleteStreamException(started ? "the body ended without messageStop"
                    : "the body ended before the response started", null);
        }
        done = true;
        endOpenParts(out);
        out.add(new ResponseCompleted(BedrockFinishReasons.of(stopReason), stopReason));
    }

    private void start(List<ChatEvent> out) {
        if (!started) {
            started = true;
            out.add(new ResponseStarted(provider, model, null));
        }
    }

    private void blockStart(JsonParser p, List<ChatEvent> out) {
        int block = -1;
        String id = null;
        String name = null;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("contentBlockIndex")) {
                block = p.getIntValue();
            } else if (field.equals("start") && p.currentToken() == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String kind = p.currentName();
                    p.nextToken();
                    if (kind.equals("toolUse") && p.currentToken() == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                            String f = p.currentName();
                            p.nextToken();
                            if (f.equals("toolUseId")) {
                                id = p.getValueAsString();
                            } else if (f.equals("name")) {
                                name = p.getValueAsString();
                            } else {
                                p.skipChildren();
                            }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        if (block >= 0 && (id != null || name != null)) {
            int part = part(block);
            out.add(new ToolCallDelta(part, toolIndexOf(part), id, name, ""));
        }
    }

    private void blockDelta(JsonParser p, List<ChatEvent> out, EventStreamMessage message) {
        int block = -1;
        List<ChatEvent> deltas = new ArrayList<>(1);
        // The index may follow the delta in the object; deltas are built with a placeholder part.
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("contentBlockIndex")) {
                block = p.getIntValue();
            } else if (field.equals("delta") && p.currentToken() == JsonToken.START_OBJECT) {
                readDelta(p, deltas);
            } else {
                p.skipChildren();
            }
        }
        if (deltas.isEmpty()) {
            return;
        }
        if (block < 0) {
            throw new ShapeException("contentBlockDelta without contentBlockIndex");
        }
        int part = part(block);
        for (ChatEvent d : deltas) {
            out.add(withPart(d, part));
        }
    }

    private void readDelta(JsonParser p, List<ChatEvent> deltas) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String kind = p.currentName();
            JsonToken t = p.nextToken();
            if (kind.equals("text") && t == JsonToken.VALUE_STRING) {
                deltas.add(new ContentDelta(0, p.getString()));
            } else if (kind.equals("reasoningContent") && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String f = p.currentName();
                    JsonToken v = p.nextToken();
                    if (v != JsonToken.VALUE_STRING) {
                        p.skipChildren();
                    } else if (f.equals("text")) {
                        deltas.add(new ReasoningDelta(0, p.getString(), false, "reasoningContent"));
                    } else if (f.equals("signature")) {
                        deltas.add(new Seal(0, Seal.Kind.SIGNATURE, p.getString()));
                    } else if (f.equals("redactedContent")) {
                        deltas.add(new Seal(0, Seal.Kind.REDACTED, p.getString()));
                    }
                }
            } else if (kind.equals("toolUse") && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String f = p.currentName();
                    JsonToken v = p.nextToken();
                    if (f.equals("input") && v == JsonToken.VALUE_STRING) {
                        deltas.add(new ToolCallDelta(0, -1, null, null, p.getString()));
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
    }

    /** Emits what the Jackson path would for the delta the scanner recognised ({@link #blockDelta}, one delta). */
    private void fastDelta(DeltaScanner fast, List<ChatEvent> out) {
        int part = part(fast.block());
        String text = fast.text();
        out.add(switch (fast.kind()) {
            case TEXT -> new ContentDelta(part, text);
            case REASONING -> new ReasoningDelta(part, text, false, "reasoningContent");
            case TOOL_INPUT -> new ToolCallDelta(part, toolIndexOf(part), null, null, text);
        });
    }

    private ChatEvent withPart(ChatEvent d, int part) {
        if (d instanceof ContentDelta c) {
            return new ContentDelta(part, c.text());
        }
        if (d instanceof ReasoningDelta r) {
            return new ReasoningDelta(part, r.text(), r.summary(), r.source());
        }
        if (d instanceof Seal s) {
            return new Seal(part, s.kind(), s.value());
        }
        ToolCallDelta t = (ToolCallDelta) d;
        return new ToolCallDelta(part, toolIndexOf(part), null, null, t.argumentsDelta());
    }

    private int toolIndexOf(int part) {
        Integer known = toolIndexByPart.get(part);
        if (known != null) {
            return known;
        }
        int index = toolCalls++;
        toolIndexByPart.put(part, index);
        return index;
    }

    private void blockStop(JsonParser p, List<ChatEvent> out) {
        int block = -1;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("contentBlockIndex")) {
                block = p.getIntValue();
            } else {
                p.skipChildren();
            }
        }
        Integer part = parts.get(block);
        if (part != null && !ended.get(part)) {
            ended.set(part, true);
            out.add(new PartEnded(part));
        }
    }

    private void messageStop(JsonParser p) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("stopReason") && t == JsonToken.VALUE_STRING) {
                stopReason = p.getString();
            } else {
                p.skipChildren();
            }
        }
        if (stopReason == null) {
            stopReason = "";
        }
    }

    private void metadata(JsonParser p, List<ChatEvent> out) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("usage") && t == JsonToken.START_OBJECT) {
                out.add(new UsageUpdate(BedrockUsage.read(p)));
            } else {
                p.skipChildren();
            }
        }
    }

    private int part(int block) {
        Integer known = parts.get(block);
        if (known != null) {
            return known;
        }
        int part = ended.size();
        parts.put(block, part);
        ended.add(false);
        return part;
    }

    private void endOpenParts(List<ChatEvent> out) {
        for (int i = 0; i < ended.size(); i++) {
            if (!ended.get(i)) {
                ended.set(i, true);
                out.add(new PartEnded(i));
            }
        }
    }

    private ProviderError exception(EventStreamMessage message) {
        String type = message.headerText(":exception-type");
        String text = null;
        byte[] array = message.payloadArray();
        int offset = message.payloadOffset();
        int length = message.payloadLength();
        try (JsonParser p = JsonWriting.JSON.createParser(ObjectReadContext.empty(), array, offset, length)) {
            if (p.nextToken() == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String field = p.currentName();
                    JsonToken t = p.nextToken();
                    if ((field.equals("message") || field.equals("Message")) && t == JsonToken.VALUE_STRING) {
                        text = p.getString();
                    } else {
                        p.skipChildren();
                    }
                }
            }
        } catch (JacksonException e) {
            text = JsonReading.excerpt(array, offset, length);
        }
        return new ProviderError(type, null, text, null);
    }

}
