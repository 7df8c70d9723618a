package dev.ruminate.providers.ollama;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.providers.internal.JsonWriting;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

/**
 * Writes the {@code messages} array of an {@code /api/chat} request.
 *
 * <p>Assistant messages carry {@code content} (their text), {@code thinking} (their reasoning, when
 * it is Ollama's own and not empty: Ollama's {@code api.Message} accepts it, and its OpenAI layer
 * forwards input {@code reasoning} into it) and {@code tool_calls} with {@code arguments} as a JSON
 * object. Reasoning is sent on every turn, not only in tool loops: a recorded Ollama request with
 * the reasoning of a plain answer was accepted ({@code sendback/ollama}). Reasoning of another
 * provider is dropped; messages from this provider or from Ollama's OpenAI-compatible endpoint
 * ({@code ollama}), and messages without a provider (built by hand), count as Ollama's own.
 * Tool results go as role {@code tool} with {@code tool_name} (the result's name, else the name of
 * the call with that id) and {@code tool_call_id}; servers that do not know a field ignore it.
 * A user message's images go in its {@code images} array, base64 ({@link OllamaMedia}).
 */
final class OllamaMessagesWriter {

    private OllamaMessagesWriter() {
    }

    /**
     * Writes the messages; an instruction (the structured-output one) as a system message after the
     * leading system messages.
     */
    static void write(JsonGenerator g, String provider, List<Message> messages, @Nullable String instruction) {
        Map<String, String> callNames = new HashMap<>();
        g.writeStartArray();
        boolean instructed = instruction == null;
        for (Message m : messages) {
            if (!instructed && !(m instanceof SystemMessage)) {
                JsonWriting.writeTextMessage(g, "system", Objects.requireNonNull(instruction));
                instructed = true;
            }
            if (m instanceof UserMessage u && !u.media().isEmpty()) {
                g.writeStartObject();
                g.writeStringProperty("role", "user");
                g.writeStringProperty("content", u.text());
                OllamaMedia.write(g, u.media());
                g.writeEndObject();
            } else if (m instanceof AssistantMessage a) {
                assistant(g, a, isOwn(a, provider), callNames);
            } else if (m instanceof ToolResultMessage t) {
                g.writeStartObject();
                g.writeStringProperty("role", "tool");
                g.writeStringProperty("content", t.content());
                String name = t.name() != null ? t.name() : callNames.get(t.toolCallId());
                if (name != null) {
                    g.writeStringProperty("tool_name", name);
                }
                g.writeStringProperty("tool_call_id", t.toolCallId());
                g.writeEndObject();
            } else {
                JsonWriting.writePlainMessage(g, m);
            }
        }
        if (!instructed) {
            JsonWriting.writeTextMessage(g, "system", Objects.requireNonNull(instruction));
        }
        g.writeEndArray();
    }

    /** Tells whether a reasoning part goes into {@code thinking}: own, with text. */
    static boolean sendsThinking(ReasoningPart r, boolean own) {
        return own && !r.text().isEmpty();
    }

    /**
     * Tells whether a message's reasoning is Ollama's own (this provider's, Ollama's OpenAI endpoint's,
     * or built by hand): only then does it go back, as {@code thinking}.
     */
    static boolean isOwn(AssistantMessage a, String provider) {
        return a.provider() == null || a.provider().equals(provider) || a.provider().equals("ollama");
    }

    private static void assistant(JsonGenerator g, AssistantMessage a, boolean own, Map<String, String> callNames) {
        StringBuilder content = new StringBuilder();
        StringBuilder thinking = new StringBuilder();
        boolean calls = false;
        for (Part part : a.parts()) {
            if (part instanceof ReasoningPart r) {
                if (sendsThinking(r, own)) {
                    thinking.append(r.text());
                }
            } else if (part instanceof TextPart t) {
                content.append(t.text());
            } else if (part instanceof ToolCallPart) {
                calls = true;
            }
        }
        g.writeStartObject();
        g.writeStringProperty("role", "assistant");
        g.writeStringProperty("content", content.toString());
        if (thinking.length() > 0) {
            g.writeStringProperty("thinking", thinking.toString());
        }
        if (calls) {
            g.writeArrayPropertyStart("tool_calls");
            for (Part part : a.parts()) {
                if (part instanceof ToolCallPart c) {
                    g.writeStartObject();
                    if (c.id() != null) {
                        g.writeStringProperty("id", c.id());
                        callNames.put(c.id(), c.name());
                    }
                    g.writeObjectPropertyStart("function");
                    g.writeStringProperty("name", c.name());
                    g.writeName("arguments");
                    argumentsObject(g, c);
                    g.writeEndObject();
                    g.writeEndObject();
                }
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /** Writes the arguments as the JSON object Ollama wants (not a string); blank arguments as {@code {}}. */
    private static void argumentsObject(JsonGenerator g, ToolCallPart call) {
        if (call.arguments().isBlank()) {
            g.writeStartObject();
            g.writeEndObject();
            return;
        }
        try (JsonParser p = OllamaLineParser.JSON.createParser(ObjectReadContext.empty(), call.arguments())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("the arguments of tool call " + call.name()
                        + " are not a JSON object, which Ollama requires");
            }
            g.copyCurrentStructure(p);
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("the arguments of tool call " + call.name()
                        + " have text after the JSON object");
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the arguments of tool call " + call.name() + " are not valid JSON: "
                    + e.getOriginalMessage(), e);
        }
    }
}
