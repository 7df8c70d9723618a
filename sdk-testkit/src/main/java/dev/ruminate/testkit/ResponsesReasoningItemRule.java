package dev.ruminate.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * OpenAI Responses managed statelessly ({@code "store":false}, or {@code include} asking for
 * {@code reasoning.encrypted_content}): each reasoning item comes back with its
 * {@code encrypted_content}, immediately followed by the item it produced, and a function call
 * that followed a reasoning item in a response comes back after that same reasoning item
 * (PROTOCOLS.md §2 "Send-back": "put the reasoning items back into input exactly as returned …
 * immediately followed by the item that followed them", stateless use replays
 * {@code encrypted_content}, and the documented errors "Item 'rs_…' of type 'reasoning' was
 * provided without its required following item", "… was provided without its required
 * 'reasoning' item" and the 404 "Items are not persisted when store is set to false";
 * RULES-OBSERVED.md "OpenAI Responses" and "Bedrock Mantle": the reasoning item goes back just
 * before that turn's function_call, and a turn that had no reasoning item sends none).
 *
 * <p>Which function calls followed which reasoning item is learnt from the responses served for
 * accepted requests ({@link #served(EmulatorResponse)}, Responses SSE or JSON bodies), so the rule
 * keeps state: one instance per emulator. Thread-safe.
 *
 * @since 0.2
 */
public final class ResponsesReasoningItemRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "responses.reasoning-item-before-function-call";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** call_id of a function call, to the id of the reasoning item that preceded it in its response. */
    private final Map<String, String> reasoningOfCall = new ConcurrentHashMap<>();

    /** Creates the rule, knowing no earlier response yet. */
    public ResponsesReasoningItemRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Remembers that a function call followed a reasoning item, as a served response would teach
     * it; for tests that check hand-written requests without serving a response.
     *
     * @param callId the function call's {@code call_id}
     * @param reasoningId the id of the reasoning item before it
     * @return this rule
     */
    public ResponsesReasoningItemRule remember(String callId, String reasoningId) {
        reasoningOfCall.put(callId, reasoningId);
        return this;
    }

    @Override
    public void served(EmulatorResponse response) {
        if (response.status() != 200) {
            return;
        }
        String text = new String(response.body(), StandardCharsets.UTF_8);
        String trimmed = text.stripLeading();
        if (trimmed.startsWith("{")) {
            learn(parse(trimmed).path("output"));
            return;
        }
        String reasoning = null;
        for (String line : text.split("\n")) {
            if (!line.startsWith("data:")) {
                continue;
            }
            JsonNode event = parse(line.substring("data:".length()).trim());
            if (Nodes.text(event, "type").equals("response.output_item.done")) {
                reasoning = learn(event.path("item"), reasoning);
            }
        }
    }

    private void learn(JsonNode output) {
        String reasoning = null;
        for (JsonNode item : output) {
            reasoning = learn(item, reasoning);
        }
    }

    private @Nullable String learn(JsonNode item, @Nullable String reasoning) {
        String type = Nodes.text(item, "type");
        if (type.equals("reasoning")) {
            return Nodes.text(item, "id");
        }
        if (type.equals("function_call") && reasoning != null) {
            reasoningOfCall.put(Nodes.text(item, "call_id"), reasoning);
        }
        return reasoning;
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JacksonException e) {
            return JSON.missingNode();
        }
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        if (!stateless(body)) {
            return null;
        }
        JsonNode input = body.path("input");
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            String type = Nodes.text(item, "type");
            String id = Nodes.text(item, "id");
            if (type.equals("reasoning")) {
                if (!Nodes.hasText(item, "encrypted_content")) {
                    return new Violation(NAME, 404, "Item with id '" + id + "' not found. Items are not persisted when"
                            + " `store` is set to false. Try again with `store` set to true, or remove this item from"
                            + " your input.", "input");
                }
                if (i + 1 >= input.size() || isInput(input.get(i + 1))) {
                    return new Violation(NAME, 400, "Item '" + id + "' of type 'reasoning' was provided without its"
                            + " required following item.", "input");
                }
            }
            if (type.equals("function_call")) {
                String reasoning = reasoningOfCall.get(Nodes.text(item, "call_id"));
                if (reasoning != null && !reasoningInTurnBefore(input, i, reasoning)) {
                    String name = id.isEmpty() ? Nodes.text(item, "call_id") : id;
                    return new Violation(NAME, 400, "Item '" + name + "' of type 'function_call' was provided without"
                            + " its required 'reasoning' item: '" + reasoning + "'.", "input");
                }
            }
        }
        return null;
    }

    private static boolean stateless(JsonNode body) {
        JsonNode store = body.get("store");
        if (store != null && store.isBoolean() && !store.asBoolean()) {
            return true;
        }
        for (JsonNode include : body.path("include")) {
            if (include.isString() && include.asString().equals("reasoning.encrypted_content")) {
                return true;
            }
        }
        return false;
    }

    /** Searches back from a function call, within its model turn, for the reasoning item it needs (with its blob). */
    private static boolean reasoningInTurnBefore(JsonNode input, int call, String reasoningId) {
        for (int i = call - 1; i >= 0 && !isInput(input.get(i)); i--) {
            JsonNode item = input.get(i);
            if (Nodes.text(item, "type").equals("reasoning") && Nodes.text(item, "id").equals(reasoningId)) {
                return Nodes.hasText(item, "encrypted_content");
            }
        }
        return false;
    }

    /** Items the client writes (messages from user, system or developer, tool outputs): they end a model turn. */
    private static boolean isInput(JsonNode item) {
        String type = Nodes.text(item, "type");
        if (type.endsWith("_output")) {
            return true;
        }
        String role = Nodes.text(item, "role");
        return (type.isEmpty() || type.equals("message")) && !role.isEmpty() && !role.equals("assistant");
    }
}
