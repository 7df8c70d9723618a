package dev.ruminate.cli;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ReasoningVerdict;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders a reduced message as the replay JSON of DESIGN.md §10: parts in provider order, absent
 * values omitted (never null), tool-call arguments as parsed JSON.
 */
final class ResultJson {

    private static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ResultJson() {
    }

    /**
     * Renders a message.
     *
     * @param message the message (final or partial)
     * @param verdict the reasoning check's verdict
     * @param error the error that ended the stream, if it failed
     * @return pretty-printed JSON
     */
    static String render(AssistantMessage message, ReasoningVerdict verdict, @Nullable RuminateException error) {
        ObjectNode root = MAPPER.createObjectNode();
        putIfPresent(root, "provider", message.provider());
        putIfPresent(root, "model", message.model());
        root.put("finishReason", error != null ? "error" : message.finishReason().wireName());
        ArrayNode parts = root.putArray("parts");
        for (Part part : message.parts()) {
            parts.add(part(part));
        }
        ObjectNode usage = usage(message.usage());
        if (!usage.isEmpty()) {
            root.set("usage", usage);
        }
        root.put("reasoningCheck", verdict.wireName());
        if (error != null) {
            ObjectNode e = root.putObject("error");
            e.put("type", error.type());
            e.put("message", Failures.describe(error));
        }
        return MAPPER.writeValueAsString(root);
    }

    private static ObjectNode part(Part part) {
        ObjectNode node = MAPPER.createObjectNode();
        if (part instanceof ReasoningPart r) {
            node.put("type", "reasoning");
            node.put("text", r.text());
            node.put("summary", r.summary());
            seals(node, r.seals());
            putIfPresent(node, "redacted", r.seals().redacted());
            putIfPresent(node, "encrypted", r.seals().encrypted());
            putIfPresent(node, "id", r.seals().itemId());
            putIfPresent(node, "source", r.source());
        } else if (part instanceof TextPart t) {
            node.put("type", "text");
            node.put("text", t.text());
            seals(node, t.seals());
        } else if (part instanceof ToolCallPart c) {
            node.put("type", "tool_call");
            putIfPresent(node, "id", c.id());
            node.put("name", c.name());
            JsonNode args = c.argumentsValid() ? parse(c.arguments()) : null;
            if (args != null) {
                node.set("arguments", args);
            } else {
                // Not JSON: show the raw text and say so, rather than drop what the model produced.
                node.put("arguments", c.arguments());
                node.put("argumentsValid", false);
            }
            seals(node, c.seals());
        } else if (part instanceof ServerToolPart b) {
            node.put("type", "server_tool");
            node.put("blockType", b.type());
            putIfPresent(node, "id", b.id());
            putIfPresent(node, "name", b.name());
            JsonNode block = parse(b.json());
            if (block != null) {
                node.set("block", block);
            } else {
                node.put("block", b.json());
            }
            seals(node, b.seals());
        }
        return node;
    }

    private static @Nullable JsonNode parse(String arguments) {
        if (arguments.isBlank()) {
            return MAPPER.createObjectNode();
        }
        try {
            return MAPPER.readTree(arguments);
        } catch (JacksonException e) {
            return null;
        }
    }

    private static void seals(ObjectNode node, Seals seals) {
        putIfPresent(node, "signature", seals.signature());
    }

    private static ObjectNode usage(Usage usage) {
        ObjectNode node = MAPPER.createObjectNode();
        putIfPresent(node, "inputTokens", usage.inputTokens());
        putIfPresent(node, "outputTokens", usage.outputTokens());
        putIfPresent(node, "reasoningTokens", usage.reasoningTokens());
        putIfPresent(node, "cachedTokens", usage.cachedTokens());
        putIfPresent(node, "cacheWriteTokens", usage.cacheWriteTokens());
        return node;
    }

    private static void putIfPresent(ObjectNode node, String name, @Nullable String value) {
        if (value != null) {
            node.put(name, value);
        }
    }

    private static void putIfPresent(ObjectNode node, String name, @Nullable Long value) {
        if (value != null) {
            node.put(name, value);
        }
    }
}
