package dev.ruminate.providers.responses;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.serving.ClientRequestException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * Reads a client's {@code POST /responses} body into a {@link ResponsesCall}, for a service that
 * answers Responses requests with any provider. Everything wrong is a {@link ClientRequestException}
 * (400, {@code invalid_request_error}) whose {@code param} is the path of the fault
 * ({@code input[3].type}, {@code tools[0].name}) and whose message names the place, never the
 * client's values; nothing has been sent anywhere when it is thrown.
 *
 * <p>Checked: malformed JSON; the shape and kind of every field read; {@code model} present;
 * {@code input} a string or an array of objects, every item as {@link ResponsesInput#readItems}
 * would read it (known item types, text content parts), {@code item_reference} items with an
 * {@code id}; function tools only ({@code type} {@code function} with a {@code name}); a
 * {@code tool_choice} of {@code auto}, {@code none}, {@code required} or one function; a known
 * {@code reasoning.effort} and {@code reasoning.summary}; {@code max_output_tokens} at least 1,
 * {@code temperature} in [0, 2], {@code top_p} in [0, 1]; a {@code text.format} of type
 * {@code text} (structured output is not supported yet).
 *
 * <p>Rejected as not supported by this reader: {@code background: true}, {@code conversation} and
 * {@code prompt} (server-side state and prompt templates this service does not hold).
 *
 * <p><b>Unknown top-level parameters are ignored, never rejected.</b> Real clients send parameters
 * a service may not know: openai-node 6.x passes every body field its caller gives, the Vercel AI
 * SDK's OpenAI provider sends {@code include}, {@code store}, {@code service_tier},
 * {@code prompt_cache_retention}, {@code text.verbosity}, {@code top_logprobs},
 * {@code max_tool_calls} from provider options, and OpenAI adds parameters often; rejecting them
 * would break those clients for fields that change nothing a gateway does.
 *
 * <p><b>Limits</b> ({@link #DEFAULT_MAX_BYTES}, {@link #DEFAULT_MAX_ITEMS} by default): a body over
 * {@code maxBytes} bytes of UTF-8, or with more than {@code maxItems} input items, is rejected
 * before any item is read.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.2
 */
public final class ResponsesRequestReader {

    /** The default limit on the body: 8 MiB of JSON. */
    public static final long DEFAULT_MAX_BYTES = 8L * 1024 * 1024;

    /** The default limit on the number of input items: 4096. */
    public static final int DEFAULT_MAX_ITEMS = 4096;

    private static final ResponsesRequestReader DEFAULTS = new ResponsesRequestReader(DEFAULT_MAX_BYTES, DEFAULT_MAX_ITEMS);
    private static final Set<String> EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "xhigh");
    private static final Set<String> SUMMARIES = Set.of("auto", "concise", "detailed");

    private final long maxBytes;
    private final int maxItems;

    private ResponsesRequestReader(long maxBytes, int maxItems) {
        this.maxBytes = maxBytes;
        this.maxItems = maxItems;
    }

    /**
     * Returns a reader with its own limits.
     *
     * @param maxBytes the largest body accepted, in bytes of UTF-8; at least 1
     * @param maxItems the most input items accepted; at least 1
     * @return the reader
     */
    public static ResponsesRequestReader withLimits(long maxBytes, int maxItems) {
        if (maxBytes < 1 || maxItems < 1) {
            throw new IllegalArgumentException("limits must be at least 1");
        }
        return new ResponsesRequestReader(maxBytes, maxItems);
    }

    /**
     * Reads a body with the default limits.
     *
     * @param body the request body
     * @return the call
     * @throws ClientRequestException (400) for a body that is not a valid Responses request
     */
    public static ResponsesCall read(String body) {
        return DEFAULTS.readBody(body);
    }

    /**
     * Reads a body with this reader's limits.
     *
     * @param body the request body
     * @return the call
     * @throws ClientRequestException (400) for a body that is not a valid Responses request
     */
    public ResponsesCall readBody(String body) {
        Objects.requireNonNull(body, "body");
        if (utf8Length(body, maxBytes) > maxBytes) {
            throw ClientRequestException.invalid("The request body is larger than this service accepts ("
                    + maxBytes + " bytes).", null, "request_too_large");
        }
        Object root;
        try {
            root = JsonTree.parse(body);
        } catch (ProtocolException e) {
            throw ClientRequestException.invalid("The request body is not valid JSON: " + e.detail() + ".", null,
                    "invalid_json");
        }
        if (!(root instanceof JsonTree.Obj r)) {
            throw invalid("", "The request body must be a JSON object");
        }
        return call(r);
    }

    private ResponsesCall call(JsonTree.Obj r) {
        unsupported(r);
        String model = string(r, "model");
        if (model == null || model.isEmpty()) {
            throw invalid("model", "model is required");
        }
        List<String> items = new ArrayList<>();
        Set<String> references = new LinkedHashSet<>();
        input(r, items, references);
        Tools tools = tools(r);
        ToolChoice choice = toolChoice(r);
        String effort = null;
        String summary = null;
        JsonTree.Obj reasoning = object(r, "reasoning");
        if (reasoning != null) {
            effort = oneOf(reasoning, "effort", EFFORTS);
            summary = oneOf(reasoning, "summary", SUMMARIES);
        }
        Long max = integer(r, "max_output_tokens");
        if (max != null && (max < 1 || max > Integer.MAX_VALUE)) {
            throw invalid("max_output_tokens", "max_output_tokens must be between 1 and " + Integer.MAX_VALUE);
        }
        Double temperature = number(r, "temperature", 0, 2);
        Double topP = number(r, "top_p", 0, 1);
        List<String> include = strings(r, "include");
        JsonTree.Obj metadata = object(r, "metadata");
        JsonTree.Obj text = object(r, "text");
        checkText(text);
        JsonTree.Obj streamOptions = object(r, "stream_options");
        String truncation = oneOf(r, "truncation", Set.of("auto", "disabled"));
        return new ResponsesCall(model, items, references, string(r, "instructions"), tools.functions, tools.json,
                choice, effort, summary, max == null ? null : max.intValue(), temperature, topP,
                bool(r, "store", true), string(r, "previous_response_id"), bool(r, "stream", false), include,
                metadata == null ? null : metadata.raw(), bool(r, "parallel_tool_calls", true), string(r, "user"),
                string(r, "safety_identifier"), string(r, "prompt_cache_key"), text == null ? null : text.raw(),
                truncation, string(r, "service_tier"), streamOptions == null ? null : streamOptions.raw());
    }

    /** Parameters whose meaning this service cannot honour: answering without them would mislead. */
    private static void unsupported(JsonTree.Obj r) {
        if (bool(r, "background", false)) {
            throw invalid("background", "background responses are not supported by this service");
        }
        if (r.has("conversation")) {
            throw invalid("conversation", "conversations are not supported by this service; use previous_response_id");
        }
        if (r.has("prompt")) {
            throw invalid("prompt", "prompt templates are not supported by this service");
        }
    }

    private void input(JsonTree.Obj r, List<String> items, Set<String> references) {
        Object input = r.get("input");
        if (input == null || input == JsonTree.NULL) {
            return;
        }
        if (input instanceof String s) {
            items.add(userMessage(s));
            return;
        }
        if (!(input instanceof JsonTree.Arr arr)) {
            throw invalid("input", "input must be a string or an array of items");
        }
        if (arr.items().size() > maxItems) {
            throw ClientRequestException.invalid("input has more items than this service accepts (" + maxItems + ").",
                    "input", "too_many_items");
        }
        for (int i = 0; i < arr.items().size(); i++) {
            if (!(arr.items().get(i) instanceof JsonTree.Obj item)) {
                throw invalid("input[" + i + "]", "input[" + i + "] must be an object");
            }
            items.add(item.raw());
            Object type = item.get("type");
            if ("item_reference".equals(type)) {
                Object id = item.get("id");
                if (!(id instanceof String s) || s.isEmpty()) {
                    throw invalid("input[" + i + "].id", "input[" + i + "].id is required for an item_reference");
                }
                references.add(s);
            }
        }
        ResponsesInput.validate(arr);
    }

    private static String userMessage(String text) {
        StringWriter w = new StringWriter(text.length() + 48);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), w)) {
            g.writeStartObject();
            g.writeStringProperty("type", "message");
            g.writeStringProperty("role", "user");
            g.writeStringProperty("content", text);
            g.writeEndObject();
        }
        return w.toString();
    }

    /** The function tools, and the array as sent for the echo. */
    private record Tools(List<FunctionTool> functions, String json) {
    }

    private static Tools tools(JsonTree.Obj r) {
        Object value = r.get("tools");
        if (value == null || value == JsonTree.NULL) {
            return new Tools(List.of(), "[]");
        }
        if (!(value instanceof JsonTree.Arr arr)) {
            throw invalid("tools", "tools must be an array");
        }
        List<FunctionTool> out = new ArrayList<>(arr.items().size());
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < arr.items().size(); i++) {
            String at = "tools[" + i + "]";
            if (!(arr.items().get(i) instanceof JsonTree.Obj tool)) {
                throw invalid(at, at + " must be an object");
            }
            if (!"function".equals(tool.get("type"))) {
                throw invalid(at + ".type", at + ".type is not supported by this service: only function tools are");
            }
            String name = string(tool, "name");
            if (name == null || name.isBlank()) {
                throw invalid(at + ".name", at + ".name is required");
            }
            if (!names.add(name)) {
                throw invalid(at + ".name", at + ".name repeats the name of an earlier tool");
            }
            String description = string(tool, "description");
            JsonTree.Obj parameters = object(tool, "parameters");
            Object strict = tool.get("strict");
            if (strict != null && strict != JsonTree.NULL && !(strict instanceof Boolean)) {
                throw invalid(at + ".strict", at + ".strict must be a boolean");
            }
            out.add(new FunctionTool(name, description == null ? "" : description,
                    parameters == null ? "{\"type\":\"object\",\"properties\":{}}" : parameters.raw(),
                    strict instanceof Boolean b ? b : null));
        }
        return new Tools(out, arr.raw());
    }

    private static ToolChoice toolChoice(JsonTree.Obj r) {
        Object value = r.get("tool_choice");
        if (value == null || value == JsonTree.NULL) {
            return ToolChoice.AUTO;
        }
        if (value instanceof String s) {
            return switch (s) {
                case "auto" -> ToolChoice.AUTO;
                case "none" -> ToolChoice.NONE;
                case "required" -> ToolChoice.REQUIRED;
                default -> throw invalid("tool_choice", "tool_choice must be auto, none, required or a function");
            };
        }
        if (value instanceof JsonTree.Obj o && "function".equals(o.get("type"))) {
            String name = string(o, "name");
            if (name == null || name.isEmpty()) {
                throw invalid("tool_choice.name", "tool_choice.name is required for a function");
            }
            return ToolChoice.function(name);
        }
        throw invalid("tool_choice", "tool_choice is not supported by this service: only auto, none, required and"
                + " a function are");
    }

    private static void checkText(JsonTree.@Nullable Obj text) {
        if (text == null) {
            return;
        }
        JsonTree.Obj format = object(text, "format");
        if (format != null && !"text".equals(format.get("type"))) {
            throw invalid("text.format.type", "text.format.type is not supported by this service yet: only text is");
        }
    }

    // ---- field readers that answer a wrong kind with a client error naming the path

    private static ClientRequestException invalid(String param, String message) {
        return ClientRequestException.invalid(message + ".", param.isEmpty() ? null : param,
                param.isEmpty() ? null : "invalid_value");
    }

    private static String path(JsonTree.Obj o, String name) {
        return o.where(name);
    }

    private static @Nullable String string(JsonTree.Obj o, String name) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return null;
        }
        if (v instanceof String s) {
            return s;
        }
        throw invalid(path(o, name), path(o, name) + " must be a string");
    }

    private static boolean bool(JsonTree.Obj o, String name, boolean absent) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return absent;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw invalid(path(o, name), path(o, name) + " must be a boolean");
    }

    private static @Nullable Long integer(JsonTree.Obj o, String name) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return null;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        throw invalid(path(o, name), path(o, name) + " must be an integer");
    }

    private static @Nullable Double number(JsonTree.Obj o, String name, double min, double max) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return null;
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (d >= min && d <= max) {
                return d;
            }
            throw invalid(path(o, name), path(o, name) + " must be between " + (long) min + " and " + (long) max);
        }
        throw invalid(path(o, name), path(o, name) + " must be a number");
    }

    private static JsonTree.@Nullable Obj object(JsonTree.Obj o, String name) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return null;
        }
        if (v instanceof JsonTree.Obj obj) {
            return obj;
        }
        throw invalid(path(o, name), path(o, name) + " must be an object");
    }

    private static @Nullable String oneOf(JsonTree.Obj o, String name, Set<String> allowed) {
        String s = string(o, name);
        if (s != null && !allowed.contains(s)) {
            throw invalid(path(o, name), path(o, name) + " must be one of " + String.join(", ", allowed.stream().sorted().toList()));
        }
        return s;
    }

    private static List<String> strings(JsonTree.Obj o, String name) {
        Object v = o.get(name);
        if (v == null || v == JsonTree.NULL) {
            return List.of();
        }
        if (!(v instanceof JsonTree.Arr arr)) {
            throw invalid(path(o, name), path(o, name) + " must be an array of strings");
        }
        List<String> out = new ArrayList<>(arr.items().size());
        for (int i = 0; i < arr.items().size(); i++) {
            if (!(arr.items().get(i) instanceof String s)) {
                throw invalid(path(o, name) + "[" + i + "]", path(o, name) + "[" + i + "] must be a string");
            }
            out.add(s);
        }
        return out;
    }

    /** The UTF-8 length of a text, counted no further than past a limit. */
    private static long utf8Length(String s, long limit) {
        if (s.length() > limit) {
            return s.length();
        }
        long n = 0;
        for (int i = 0; i < s.length() && n <= limit; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
