package dev.ruminate.providers.bedrock;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.spi.BodyDecoding;
import dev.ruminate.providers.spi.ShapeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

/**
 * Decodes a whole Converse response ({@code output.message.content[]}, {@code stopReason},
 * {@code usage}) into the events a stream would give, with a {@code ReasoningFinal} per reasoning
 * part (the body is the provider's final view). A tool call's {@code input} object becomes its
 * arguments as the exact bytes of the body. Content blocks of other kinds (images, documents,
 * guard content) are not chat output and are skipped.
 */
final class BedrockResponseDecoder {

    private BedrockResponseDecoder() {
    }

    /** Decodes a body; throws {@code JacksonException} or {@code ShapeException} for {@link BodyDecoding} to place. */
    static List<ChatEvent> decode(String provider, String model, byte[] body) {
        List<ChatEvent> out = new ArrayList<>();
        out.add(new ResponseStarted(provider, model, null));
        String stopReason = null;
        Usage usage = null;
        boolean output = false;
        try (JsonParser p = JsonWriting.JSON.createParser(ObjectReadContext.empty(), body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new ShapeException("the body is not a JSON object");
            }
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                if (field.equals("output") && t == JsonToken.START_OBJECT) {
                    output = true;
                    readOutput(p, body, out);
                } else if (field.equals("stopReason") && t == JsonToken.VALUE_STRING) {
                    stopReason = p.getString();
                } else if (field.equals("usage") && t == JsonToken.START_OBJECT) {
                    usage = BedrockUsage.read(p);
                } else {
                    p.skipChildren();
                }
            }
        }
        if (!output && stopReason == null) {
            // every Converse answer has both; an object with neither (an error object such as
            // {"message": …} served with a 200) must not pass for an empty answer
            throw new ShapeException("the body has neither output nor stopReason: not a Converse response");
        }
        if (usage != null) {
            out.add(new UsageUpdate(usage));
        }
        String reason = stopReason != null ? stopReason : "";
        out.add(new ResponseCompleted(BedrockFinishReasons.of(reason), stopReason));
        return out;
    }

    private static void readOutput(JsonParser p, byte[] body, List<ChatEvent> out) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("message") && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String f = p.currentName();
                    JsonToken v = p.nextToken();
                    if (f.equals("content") && v == JsonToken.START_ARRAY) {
                        readContent(p, body, out);
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
    }

    private static void readContent(JsonParser p, byte[] body, List<ChatEvent> out) {
        int part = 0;
        int toolIndex = 0;
        while (p.nextToken() == JsonToken.START_OBJECT) {
            List<ChatEvent> block = new ArrayList<>(3);
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String kind = p.currentName();
                JsonToken t = p.nextToken();
                if (kind.equals("text") && t == JsonToken.VALUE_STRING) {
                    block.add(new ContentDelta(part, p.getString()));
                } else if (kind.equals("reasoningContent") && t == JsonToken.START_OBJECT) {
                    readReasoning(p, part, block);
                } else if (kind.equals("toolUse") && t == JsonToken.START_OBJECT) {
                    block.add(readToolUse(p, body, part, toolIndex++));
                } else {
                    p.skipChildren();
                }
            }
            if (!block.isEmpty()) {
                out.addAll(block);
                out.add(new PartEnded(part));
                part++;
            }
        }
    }

    private static void readReasoning(JsonParser p, int part, List<ChatEvent> block) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("reasoningText") && t == JsonToken.START_OBJECT) {
                String text = null;
                String signature = null;
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String f = p.currentName();
                    JsonToken v = p.nextToken();
                    if (f.equals("text") && v == JsonToken.VALUE_STRING) {
                        text = p.getString();
                    } else if (f.equals("signature") && v == JsonToken.VALUE_STRING) {
                        signature = p.getString();
                    } else {
                        p.skipChildren();
                    }
                }
                String reasoning = text != null ? text : "";
                block.add(new ReasoningDelta(part, reasoning, false, "reasoningContent"));
                block.add(new ReasoningFinal(part, reasoning));
                if (signature != null) {
                    block.add(new Seal(part, Seal.Kind.SIGNATURE, signature));
                }
            } else if (field.equals("redactedContent") && t == JsonToken.VALUE_STRING) {
                block.add(new Seal(part, Seal.Kind.REDACTED, p.getString()));
            } else {
                p.skipChildren();
            }
        }
    }

    private static ToolCallDelta readToolUse(JsonParser p, byte[] body, int part, int toolIndex) {
        String id = null;
        String name = null;
        String input = "";
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("toolUseId") && t == JsonToken.VALUE_STRING) {
                id = p.getString();
            } else if (field.equals("name") && t == JsonToken.VALUE_STRING) {
                name = p.getString();
            } else if (field.equals("input")) {
                input = rawValue(p, body);
            } else {
                p.skipChildren();
            }
        }
        return new ToolCallDelta(part, toolIndex, id, name, input);
    }

    /** Returns the exact text of the value the parser is at, and moves past it. */
    private static String rawValue(JsonParser p, byte[] body) {
        long from = p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        long to = p.currentLocation().getByteOffset();
        return new String(body, (int) from, (int) (to - from), StandardCharsets.UTF_8);
    }
}
