package dev.ruminate.gateway.responses;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.serving.ClientRequestException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code POST /v1/responses} request body as the gateway uses it: the fields that steer the
 * call, the input items as JSON texts, and what the upstream request is built from.
 *
 * <p>Immutable and thread-safe.
 *
 * @param model the model (route) name
 * @param stream whether to answer with a stream of events
 * @param store whether to store the response for {@code previous_response_id}
 * @param previousResponseId the response this one continues, if any
 * @param instructions the instructions, if any
 * @param includeEncryptedContent whether the client asked for {@code reasoning.encrypted_content}
 * @param inputItems the input items, as JSON texts, in order (a string input is one user message)
 * @param referencedItemIds the ids of {@code item_reference} items, by their index in {@code inputItems}
 * @param tools the function tools
 * @param reasoning the reasoning options
 * @param sampling the sampling options
 * @since 0.2
 */
public record ClientCall(String model, boolean stream, boolean store, @Nullable String previousResponseId,
                         @Nullable String instructions, boolean includeEncryptedContent, List<String> inputItems,
                         Map<Integer, String> referencedItemIds, List<ToolDefinition> tools, ReasoningOptions reasoning,
                         SamplingOptions sampling) {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> ITEM_TYPES = Set.of("message", "reasoning", "function_call",
            "function_call_output", "item_reference");

    /**
     * Creates the value, copying its lists.
     *
     * @param model see {@link #model()}
     * @param stream see {@link #stream()}
     * @param store see {@link #store()}
     * @param previousResponseId see {@link #previousResponseId()}
     * @param instructions see {@link #instructions()}
     * @param includeEncryptedContent see {@link #includeEncryptedContent()}
     * @param inputItems see {@link #inputItems()}
     * @param referencedItemIds see {@link #referencedItemIds()}
     * @param tools see {@link #tools()}
     * @param reasoning see {@link #reasoning()}
     * @param sampling see {@link #sampling()}
     */
    public ClientCall {
        inputItems = List.copyOf(inputItems);
        referencedItemIds = Map.copyOf(referencedItemIds);
        tools = List.copyOf(tools);
    }

    /**
     * Reads a request body.
     *
     * @param body the JSON text
     * @return the call
     * @throws ClientRequestException a 400 naming the place at fault, for malformed JSON, a missing
     *     or mistyped field, or an unknown item type
     */
    public static ClientCall read(String body) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            throw ClientRequestException.invalid("The request body is not valid JSON.", null, "invalid_json");
        }
        if (root == null || !root.isObject()) {
            throw ClientRequestException.invalid("The request body must be a JSON object.", null, "invalid_type");
        }
        String model = requiredString(root, "model");
        boolean stream = bool(root, "stream", false);
        boolean store = bool(root, "store", true);
        String previous = optionalString(root, "previous_response_id");
        String instructions = optionalString(root, "instructions");
        boolean include = false;
        JsonNode includes = root.get("include");
        if (includes != null && !includes.isNull()) {
            if (!includes.isArray()) {
                throw invalidType("include", "an array of strings");
            }
            for (JsonNode i : includes) {
                include |= i.isString() && "reasoning.encrypted_content".equals(i.stringValue());
            }
        }
        List<String> items = new ArrayList<>();
        Map<Integer, String> references = new LinkedHashMap<>();
        JsonNode input = root.get("input");
        if (input == null || input.isNull()) {
            throw ClientRequestException.invalid("Missing required parameter: 'input'.", "input", "missing_required_parameter");
        } else if (input.isString()) {
            ObjectNode user = JsonNodeFactory.instance.objectNode();
            user.put("role", "user");
            user.put("content", input.stringValue());
            items.add(user.toString());
        } else if (input.isArray()) {
            for (int i = 0; i < input.size(); i++) {
                JsonNode item = input.get(i);
                String where = "input[" + i + "]";
                if (!item.isObject()) {
                    throw invalidType(where, "an object");
                }
                String type = item.path("type").isString() ? item.path("type").stringValue() : null;
                if (type == null) {
                    if (!item.path("role").isString()) {
                        throw ClientRequestException.invalid("Missing required parameter: '" + where + ".type'.",
                                where + ".type", "missing_required_parameter");
                    }
                } else if (!ITEM_TYPES.contains(type)) {
                    throw ClientRequestException.invalid("Invalid value for '" + where + ".type': this gateway accepts "
                            + ITEM_TYPES.stream().sorted().toList() + ".", where + ".type", "invalid_value");
                }
                if ("item_reference".equals(type)) {
                    references.put(i, requiredString(item, "id", where + ".id"));
                }
                items.add(item.toString());
            }
        } else {
            throw invalidType("input", "a string or an array of items");
        }
        return new ClientCall(model, stream, store, previous, instructions, include, items, references, tools(root),
                reasoning(root), sampling(root));
    }

    /**
     * Builds the upstream request.
     *
     * @param upstreamModel the model to ask of the provider
     * @param messages the conversation, prepared for the backend
     * @return the request
     */
    public ChatRequest toChatRequest(String upstreamModel, List<Message> messages) {
        ChatRequest.Builder b = ChatRequest.builder(upstreamModel).messages(messages).reasoning(reasoning).sampling(sampling);
        tools.forEach(b::tool);
        return b.build();
    }

    private static List<ToolDefinition> tools(JsonNode root) {
        JsonNode tools = root.get("tools");
        if (tools == null || tools.isNull()) {
            return List.of();
        }
        if (!tools.isArray()) {
            throw invalidType("tools", "an array");
        }
        List<ToolDefinition> out = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode t = tools.get(i);
            String where = "tools[" + i + "]";
            String type = t.path("type").isString() ? t.path("type").stringValue() : null;
            if (!"function".equals(type)) {
                throw ClientRequestException.invalid("Invalid value for '" + where + ".type': this gateway serves function "
                        + "tools only.", where + ".type", "invalid_value");
            }
            String name = requiredString(t, "name", where + ".name");
            JsonNode params = t.get("parameters");
            String schema = params == null || params.isNull() ? "{\"type\":\"object\",\"properties\":{}}" : params.toString();
            String description = t.path("description").isString() ? t.path("description").stringValue() : "";
            out.add(new ToolDefinition(name, description, schema));
        }
        return out;
    }

    private static ReasoningOptions reasoning(JsonNode root) {
        JsonNode r = root.get("reasoning");
        if (r == null || r.isNull()) {
            return ReasoningOptions.DEFAULT;
        }
        if (!r.isObject()) {
            throw invalidType("reasoning", "an object");
        }
        String effort = optionalString(r, "effort", "reasoning.effort");
        String summary = optionalString(r, "summary", "reasoning.summary");
        ReasoningEffort e = null;
        if (effort != null) {
            try {
                e = ReasoningEffort.valueOf(effort.toUpperCase(Locale.ROOT).replace("XHIGH", "MAX"));
            } catch (IllegalArgumentException ex) {
                throw ClientRequestException.invalid("Invalid value for 'reasoning.effort'.", "reasoning.effort",
                        "invalid_value");
            }
        }
        Boolean include = summary == null ? null : !"none".equals(summary);
        Boolean enabled = e == null ? null : e != ReasoningEffort.NONE;
        return new ReasoningOptions(enabled, e, null, include);
    }

    private static SamplingOptions sampling(JsonNode root) {
        Double temperature = number(root, "temperature");
        Double topP = number(root, "top_p");
        Double max = number(root, "max_output_tokens");
        if (max != null && (max < 1 || max != Math.floor(max))) {
            throw ClientRequestException.invalid("Invalid value for 'max_output_tokens': a positive integer is required.",
                    "max_output_tokens", "invalid_value");
        }
        return new SamplingOptions(temperature, topP, max == null ? null : max.intValue(), List.of(), null);
    }

    private static @Nullable Double number(JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isNumber()) {
            throw invalidType(field, "a number");
        }
        return n.asDouble();
    }

    private static boolean bool(JsonNode root, String field, boolean absent) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return absent;
        }
        if (!n.isBoolean()) {
            throw invalidType(field, "a boolean");
        }
        return n.asBoolean();
    }

    private static String requiredString(JsonNode node, String field) {
        return requiredString(node, field, field);
    }

    private static String requiredString(JsonNode node, String field, String where) {
        JsonNode n = node.get(field);
        if (n == null || n.isNull()) {
            throw ClientRequestException.invalid("Missing required parameter: '" + where + "'.", where,
                    "missing_required_parameter");
        }
        if (!n.isString() || n.stringValue().isEmpty()) {
            throw invalidType(where, "a non-empty string");
        }
        return n.stringValue();
    }

    private static @Nullable String optionalString(JsonNode node, String field) {
        return optionalString(node, field, field);
    }

    private static @Nullable String optionalString(JsonNode node, String field, String where) {
        JsonNode n = node.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isString()) {
            throw invalidType(where, "a string");
        }
        return n.stringValue();
    }

    private static ClientRequestException invalidType(String where, String expected) {
        return ClientRequestException.invalid("Invalid type for '" + where + "': expected " + expected + ".", where,
                "invalid_type");
    }
}
