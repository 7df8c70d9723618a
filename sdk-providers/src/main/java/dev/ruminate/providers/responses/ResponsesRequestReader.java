package dev.ruminate.providers.responses;

import static dev.ruminate.providers.internal.ClientFields.array;
import static dev.ruminate.providers.internal.ClientFields.bool;
import static dev.ruminate.providers.internal.ClientFields.element;
import static dev.ruminate.providers.internal.ClientFields.invalidType;
import static dev.ruminate.providers.internal.ClientFields.invalidValue;
import static dev.ruminate.providers.internal.ClientFields.number;
import static dev.ruminate.providers.internal.ClientFields.object;
import static dev.ruminate.providers.internal.ClientFields.oneOf;
import static dev.ruminate.providers.internal.ClientFields.positiveInt;
import static dev.ruminate.providers.internal.ClientFields.requireString;
import static dev.ruminate.providers.internal.ClientFields.string;
import static dev.ruminate.providers.internal.ClientFields.strings;

import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.providers.internal.ClientFields;
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
 * (400, {@code invalid_request_error}; 413 for a body over the limit) whose {@code param} is the path
 * of the fault ({@code input[3].type}, {@code tools[0].name}), whose code is OpenAI's
 * ({@code missing_required_parameter}, {@code invalid_type}, {@code invalid_value},
 * {@code unsupported_value}, {@code invalid_json}) and whose message names the place, never the
 * client's values; nothing has been sent anywhere when it is thrown.
 *
 * <p>Checked: malformed JSON; the shape and kind of every field read; {@code model} present;
 * {@code input} a string or an array of objects, every item as {@link ResponsesInput#readItems}
 * would read it (known item types, text content parts), {@code item_reference} items with an
 * {@code id}; function tools only ({@code type} {@code function} with a {@code name}); a
 * {@code tool_choice} of {@code auto}, {@code none}, {@code required} or one function; a known
 * {@code reasoning.effort} and {@code reasoning.summary}; {@code max_output_tokens} at least 1,
 * {@code temperature} in [0, 2], {@code top_p} in [0, 1]; a {@code text.format} of type
 * {@code text}, or {@code json_schema} with its name and object schema (structured output, carried
 * as {@link ResponsesCall#outputSchema()}); {@code json_object} is refused. Input images and files as
 * {@link ResponsesInput} reads them.
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
    private static final Set<String> EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "xhigh", "max");
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
     * @throws ClientRequestException (400) for a body that is not a valid Responses request, (413) for
     *     one over the size limit
     */
    public static ResponsesCall read(String body) {
        return DEFAULTS.readBody(body);
    }

    /**
     * Reads a body with this reader's limits.
     *
     * @param body the request body
     * @return the call
     * @throws ClientRequestException (400) for a body that is not a valid Responses request, (413) for
     *     one over the size limit
     */
    public ResponsesCall readBody(String body) {
        Objects.requireNonNull(body, "body");
        ClientFields.checkUtf8Bytes(body, maxBytes);
        return call(ClientFields.parseObject(body));
    }

    private ResponsesCall call(JsonTree.Obj r) {
        unsupported(r);
        String model = requireString(r, "model");
        if (model.isEmpty()) {
            throw invalidValue("model", "must not be empty");
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
        Long max = positiveInt(r, "max_output_tokens");
        Double temperature = number(r, "temperature", 0, 2);
        Double topP = number(r, "top_p", 0, 1);
        JsonTree.Arr includeArray = array(r, "include");
        List<String> include = includeArray == null ? List.of() : strings(includeArray);
        JsonTree.Obj metadata = object(r, "metadata");
        JsonTree.Obj text = object(r, "text");
        checkText(text);
        JsonTree.Obj format = text == null ? null : object(text, "format");
        if (format != null && "json_schema".equals(format.get("type"))
                && tools.functions.stream().anyMatch(t -> t.name().equals(format.get("name")))) {
            // the schema may travel as a tool named after it: a function of that name could not be told apart
            throw invalidValue(format.where("name"), "must not be the name of one of the tools");
        }
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
            throw ClientFields.unsupported("background", "Background responses are not supported by this service.");
        }
        if (r.has("conversation")) {
            throw ClientFields.unsupported("conversation",
                    "Conversations are not supported by this service; use previous_response_id.");
        }
        if (r.has("prompt")) {
            throw ClientFields.unsupported("prompt", "Prompt templates are not supported by this service.");
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
            throw invalidType("input", "a string or an array of items", input);
        }
        if (arr.items().size() > maxItems) {
            throw ClientRequestException.invalid("input has more items than this service accepts (" + maxItems + ").",
                    "input", "too_many_items");
        }
        for (int i = 0; i < arr.items().size(); i++) {
            JsonTree.Obj item = element(arr, i);
            items.add(item.raw());
            if ("item_reference".equals(item.get("type"))) {
                String id = requireString(item, "id");
                if (id.isEmpty()) {
                    throw invalidValue(item.where("id"), "must not be empty");
                }
                references.add(id);
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
        JsonTree.Arr arr = array(r, "tools");
        if (arr == null) {
            return new Tools(List.of(), "[]");
        }
        List<FunctionTool> out = new ArrayList<>(arr.items().size());
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < arr.items().size(); i++) {
            JsonTree.Obj tool = element(arr, i);
            if (!"function".equals(tool.get("type"))) {
                throw ClientFields.unsupported(tool.where("type"), "Tools other than functions are not supported by"
                        + " this service.");
            }
            String name = requireString(tool, "name");
            if (name.isBlank()) {
                throw invalidValue(tool.where("name"), "must not be blank");
            }
            if (!names.add(name)) {
                throw invalidValue(tool.where("name"), "must not repeat the name of an earlier tool");
            }
            String description = string(tool, "description");
            JsonTree.Obj parameters = object(tool, "parameters");
            out.add(new FunctionTool(name, description == null ? "" : description,
                    parameters == null ? "{\"type\":\"object\",\"properties\":{}}" : parameters.raw(),
                    bool(tool, "strict")));
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
                default -> throw invalidValue("tool_choice", "must be 'auto', 'none', 'required' or a function");
            };
        }
        if (value instanceof JsonTree.Obj o && "function".equals(o.get("type"))) {
            String name = requireString(o, "name");
            if (name.isEmpty()) {
                throw invalidValue(o.where("name"), "must not be empty");
            }
            return ToolChoice.function(name);
        }
        throw ClientFields.unsupported("tool_choice", "A tool choice other than auto, none, required or a function is"
                + " not supported by this service.");
    }

    /**
     * A {@code text.format} of type {@code text}, or {@code json_schema} with a {@code name} (1 to 64
     * letters, digits, {@code _} or {@code -}), an object {@code schema}, and optional boolean
     * {@code strict} and string {@code description}: what {@link ResponsesCall#outputSchema()} carries.
     * {@code json_object} (JSON mode without a schema) has no neutral form and is refused.
     */
    private static void checkText(JsonTree.@Nullable Obj text) {
        if (text == null) {
            return;
        }
        JsonTree.Obj format = object(text, "format");
        if (format == null || "text".equals(format.get("type"))) {
            return;
        }
        if (!"json_schema".equals(format.get("type"))) {
            throw ClientFields.unsupported(format.where("type"),
                    "A text.format other than text or json_schema is not supported by this service.");
        }
        String name = requireString(format, "name");
        if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
            throw invalidValue(format.where("name"), "must be 1 to 64 letters, digits, underscores or dashes");
        }
        ClientFields.requireObject(format, "schema");
        bool(format, "strict");
        string(format, "description");
    }
}
