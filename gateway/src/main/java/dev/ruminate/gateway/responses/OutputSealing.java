package dev.ruminate.gateway.responses;

import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Puts sealed state on a finished response's output items: each reasoning item gets the
 * {@code encrypted_content} sealing its parts as the backend produced them (signatures, encrypted
 * blobs, redacted data and raw text); reasoning that made no item (redacted or encrypted only) and
 * the seals of answer text and tool calls (a Gemini thought signature) go into one trailing
 * state-only reasoning item.
 *
 * <p>Output items are matched to the reduced parts in order, the way the stream encoder makes them:
 * one reasoning item per reasoning part with text, one message per text part with text, one
 * function call per tool call.
 *
 * <p>Stateless and thread-safe.
 */
final class OutputSealing {

    private OutputSealing() {
    }

    /**
     * Returns the output items with sealed state.
     *
     * @param output the response's output items as written by the encoder
     * @param parts the reduced parts of the response
     * @param seal seals an item's parts into its {@code encrypted_content}
     * @param stateItemId the id of the trailing state-only item, if one is needed
     * @return new items, the given ones untouched
     */
    static List<ObjectNode> seal(ArrayNode output, List<Part> parts, Function<List<Part>, String> seal, String stateItemId) {
        List<ObjectNode> items = new ArrayList<>(output.size());
        for (JsonNode item : output) {
            items.add((ObjectNode) item.deepCopy());
        }
        List<Part> trailing = new ArrayList<>();
        List<Part> pendingReasoning = new ArrayList<>();
        int cursor = 0;
        for (Part p : parts) {
            if (p instanceof ReasoningPart r) {
                if (r.text().isEmpty()) {
                    if (!r.seals().isEmpty()) {
                        pendingReasoning.add(r);
                    }
                    continue;
                }
                int at = next(items, cursor, "reasoning");
                if (at < 0) {
                    trailing.add(r);
                    continue;
                }
                List<Part> itemParts = new ArrayList<>(pendingReasoning);
                itemParts.add(r);
                pendingReasoning.clear();
                items.get(at).put("encrypted_content", seal.apply(itemParts));
                cursor = at + 1;
            } else if (p instanceof TextPart t) {
                if (t.text().isEmpty()) {
                    continue;
                }
                int at = next(items, cursor, "message");
                cursor = at < 0 ? cursor : at + 1;
                if (hasState(t.seals())) {
                    trailing.add(t);
                }
            } else if (p instanceof ToolCallPart c) {
                int at = next(items, cursor, "function_call");
                cursor = at < 0 ? cursor : at + 1;
                if (hasState(c.seals())) {
                    trailing.add(c);
                }
            }
        }
        trailing.addAll(0, pendingReasoning);
        if (!trailing.isEmpty()) {
            ObjectNode state = JsonNodeFactory.instance.objectNode();
            state.put("id", stateItemId);
            state.put("type", "reasoning");
            state.putArray("summary");
            state.put("encrypted_content", seal.apply(trailing));
            items.add(state);
        }
        return items;
    }

    private static boolean hasState(Seals seals) {
        return seals.signature() != null || seals.encrypted() != null || seals.redacted() != null;
    }

    private static int next(List<ObjectNode> items, int from, String type) {
        for (int i = from; i < items.size(); i++) {
            if (type.equals(items.get(i).path("type").asString(""))) {
                return i;
            }
        }
        return -1;
    }
}
