package dev.ruminate.providers.chatcompletions;

import static dev.ruminate.providers.internal.ClientFields.array;
import static dev.ruminate.providers.internal.ClientFields.bool;
import static dev.ruminate.providers.internal.ClientFields.element;
import static dev.ruminate.providers.internal.ClientFields.fieldNames;
import static dev.ruminate.providers.internal.ClientFields.integer;
import static dev.ruminate.providers.internal.ClientFields.invalidType;
import static dev.ruminate.providers.internal.ClientFields.invalidValue;
import static dev.ruminate.providers.internal.ClientFields.missing;
import static dev.ruminate.providers.internal.ClientFields.number;
import static dev.ruminate.providers.internal.ClientFields.object;
import static dev.ruminate.providers.internal.ClientFields.positiveInt;
import static dev.ruminate.providers.internal.ClientFields.requireArray;
import static dev.ruminate.providers.internal.ClientFields.requireObject;
import static dev.ruminate.providers.internal.ClientFields.requireString;
import static dev.ruminate.providers.internal.ClientFields.string;
import static dev.ruminate.providers.internal.ClientFields.strings;
import static dev.ruminate.providers.internal.ClientFields.unsupported;

import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.ClientFields;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads the body of a client's {@code POST /v1/chat/completions} into a {@link ChatCompletionsCall},
 * for a service that answers Chat Completions clients with any provider.
 *
 * <p><b>Messages.</b> {@code system} and {@code developer} become {@link SystemMessage}s, {@code user}
 * a {@link UserMessage}; their {@code content} is a string or an array of {@code text} parts, joined
 * with a line feed. {@code assistant} becomes an {@link AssistantMessage} with no provider, its parts
 * in this order: the reasoning ({@code reasoning_content}, else {@code reasoning}: clients send back
 * one or the other, and both hold the same text where a server sends both; the part's source is the
 * field it came from), the text ({@code content} as a string or {@code text}/{@code refusal} parts; a
 * top-level {@code refusal} when there is no content), then its {@code tool_calls}. {@code tool}
 * becomes a {@link ToolResultMessage} for its {@code tool_call_id}, named after the call it answers
 * when an earlier assistant turn holds it. Fields a client echoes back from a response
 * ({@code refusal: null}, {@code annotations}, {@code name}, {@code audio: null}) are accepted.
 *
 * <p><b>Parameters read</b>: {@code model}, {@code messages}, {@code tools} (functions),
 * {@code tool_choice}, {@code reasoning_effort}, {@code max_completion_tokens} / {@code max_tokens},
 * {@code temperature}, {@code top_p}, {@code stop}, {@code seed}, {@code stream},
 * {@code stream_options.include_usage}, {@code parallel_tool_calls}, {@code user}, {@code metadata},
 * {@code n} (1 only).
 *
 * <p><b>Accepted and ignored</b>, so that no client is turned away for what its SDK sends
 * (openai-node, {@code @ai-sdk/openai}, openai-java): {@code frequency_penalty},
 * {@code presence_penalty}, {@code logit_bias}, {@code logprobs}, {@code top_logprobs}, {@code store},
 * {@code service_tier}, {@code prompt_cache_key}, {@code prompt_cache_retention},
 * {@code safety_identifier}, {@code verbosity}, {@code prediction}, {@code modalities: ["text"]},
 * {@code response_format: {"type":"text"}}, and any parameter this reader does not know (another
 * server's extension such as {@code top_k}); {@link ChatCompletionsCall#ignoredParameters()} names them.
 * These change how an answer is sampled or billed, not what it is made of, so ignoring them keeps
 * the answer honest.
 *
 * <p><b>Refused</b> with 400, because ignoring them would answer a different question: {@code n}
 * above 1, image, audio and file content parts, {@code response_format} {@code json_object} or
 * {@code json_schema}, audio output, non-function tools, and the deprecated {@code functions} /
 * {@code function_call} and {@code function} messages.
 *
 * <p><b>Errors</b> are {@link ClientRequestException}s carrying OpenAI's error shape: status 400, type
 * {@code invalid_request_error}, {@code param} the path of the value at fault
 * ({@code messages[2].role}, {@code tools[0].function.name}), and a code from OpenAI's usage
 * ({@code missing_required_parameter}, {@code invalid_type}, {@code invalid_value},
 * {@code unsupported_value}, {@code unsupported_parameter}, {@code empty_array}; {@code invalid_json}
 * for a body that is not JSON). Messages name the place, never the client's values. A body over the size limit is refused with 413
 * {@code request_too_large} before it is parsed; the default limit,
 * {@value #DEFAULT_MAX_BODY_CHARS} characters (8 MiB), holds a long conversation with a
 * million-token context model, since images are not taken.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class ChatCompletionsRequestReader {

    /** The size limit of {@link #read(String)}, in characters: 8 MiB. */
    public static final int DEFAULT_MAX_BODY_CHARS = 8 * 1024 * 1024;

    private static final String NOT_YET = " is not supported by this gateway yet";

    /** Top-level parameters accepted and ignored, beside those unknown to this reader. */
    private static final Set<String> READ = Set.of("model", "messages", "tools", "tool_choice", "reasoning_effort",
            "max_tokens", "max_completion_tokens", "temperature", "top_p", "stop", "seed", "stream", "stream_options",
            "parallel_tool_calls", "user", "metadata", "n", "response_format", "modalities", "audio", "functions",
            "function_call");

    private ChatCompletionsRequestReader() {
    }

    /**
     * Reads a request body with the {@linkplain #DEFAULT_MAX_BODY_CHARS default size limit}.
     *
     * @param body the request body
     * @return the call
     * @throws ClientRequestException for a body that is too large, not JSON, or not a request this
     *     reader takes; its error names the place, never a value
     */
    public static ChatCompletionsCall read(String body) {
        return read(body, DEFAULT_MAX_BODY_CHARS);
    }

    /**
     * Reads a request body.
     *
     * @param body the request body
     * @param maxBodyChars the largest body taken, in characters; at least 1
     * @return the call
     * @throws ClientRequestException for a body that is too large, not JSON, or not a request this
     *     reader takes; its error names the place, never a value
     * @throws IllegalArgumentException when {@code maxBodyChars} is below 1
     */
    public static ChatCompletionsCall read(String body, int maxBodyChars) {
        Objects.requireNonNull(body, "body");
        if (maxBodyChars < 1) {
            throw new IllegalArgumentException("maxBodyChars must be at least 1, was " + maxBodyChars);
        }
        ClientFields.checkChars(body, maxBodyChars);
        JsonTree.Obj request = ClientFields.parseObject(body);
        return new Reader().call(request);
    }

    /** One read: the tool calls seen so far, to name the results that answer them. */
    private static final class Reader {
        private final Map<String, String> callNames = new HashMap<>();

        ChatCompletionsCall call(JsonTree.Obj r) {
            List<String> ignored = new ArrayList<>();
            for (String name : fieldNames(r)) {
                if (!READ.contains(name)) {
                    ignored.add(name);
                }
            }
            String model = requireString(r, "model");
            if (model.isBlank()) {
                throw invalidValue(r.where("model"), "must not be blank");
            }
            Long n = integer(r, "n");
            if (n != null && n > 1) {
                throw unsupported(r.where("n"), "Choosing more than one completion (n above 1)" + NOT_YET + ".");
            }
            if (n != null && n < 1) {
                throw invalidValue(r.where("n"), "must be at least 1");
            }
            refuseLegacy(r, "functions");
            refuseLegacy(r, "function_call");
            if (responseFormat(r)) {
                ignored.add("response_format");
            }
            if (modalities(r)) {
                ignored.add("modalities");
            }
            if (r.has("audio")) {
                throw unsupported(r.where("audio"), "Audio output" + NOT_YET + ".");
            }
            List<Message> messages = messages(r);
            List<ToolDefinition> tools = tools(r);
            ChatCompletionsToolChoice toolChoice = toolChoice(r, tools);
            Long maxCompletion = positiveInt(r, "max_completion_tokens");
            Long max = maxCompletion != null ? maxCompletion : positiveInt(r, "max_tokens");
            boolean includeUsage = false;
            JsonTree.Obj streamOptions = object(r, "stream_options");
            if (streamOptions != null) {
                includeUsage = bool(streamOptions, "include_usage", false);
            }
            return new ChatCompletionsCall(model, messages, tools, toolChoice, effort(r),
                    max == null ? null : max.intValue(), number(r, "temperature"), number(r, "top_p"), stop(r),
                    integer(r, "seed"), bool(r, "stream", false), includeUsage, bool(r, "parallel_tool_calls"),
                    string(r, "user"), metadata(r), ignored);
        }

        // ---- messages

        private List<Message> messages(JsonTree.Obj r) {
            JsonTree.Arr items = requireArray(r, "messages");
            if (items.items().isEmpty()) {
                throw ClientRequestException.invalid("Invalid 'messages': empty array. Expected at least one message.",
                        "messages", "empty_array");
            }
            List<Message> out = new ArrayList<>(items.items().size());
            for (int i = 0; i < items.items().size(); i++) {
                out.add(message(element(items, i)));
            }
            return out;
        }

        private Message message(JsonTree.Obj m) {
            String role = requireString(m, "role");
            return switch (role) {
                case "system", "developer" -> new SystemMessage(text(m, false));
                case "user" -> new UserMessage(text(m, false));
                case "assistant" -> assistant(m);
                case "tool" -> toolResult(m);
                case "function" -> throw unsupported(m.where("role"),
                        "Function messages are deprecated and not supported by this gateway; use tool messages.");
                default -> throw invalidValue(m.where("role"),
                        "must be one of 'system', 'developer', 'user', 'assistant' or 'tool'");
            };
        }

        private Message assistant(JsonTree.Obj m) {
            if (m.has("function_call")) {
                throw unsupported(m.where("function_call"),
                        "The deprecated function_call is not supported by this gateway; use tool_calls.");
            }
            if (m.has("audio")) {
                throw unsupported(m.where("audio"), "Audio in assistant messages" + NOT_YET + ".");
            }
            List<Part> parts = new ArrayList<>();
            String reasoningContent = string(m, "reasoning_content");
            String reasoning = string(m, "reasoning");
            if (reasoningContent != null && !reasoningContent.isEmpty()) {
                parts.add(new ReasoningPart(reasoningContent, false, "reasoning_content", Seals.NONE));
            } else if (reasoning != null && !reasoning.isEmpty()) {
                parts.add(new ReasoningPart(reasoning, false, "reasoning", Seals.NONE));
            }
            String text = text(m, true);
            if (text.isEmpty()) {
                String refusal = string(m, "refusal");
                text = refusal == null ? "" : refusal;
            }
            if (!text.isEmpty()) {
                parts.add(TextPart.of(text));
            }
            JsonTree.Arr calls = array(m, "tool_calls");
            if (calls != null) {
                for (int i = 0; i < calls.items().size(); i++) {
                    parts.add(toolCall(element(calls, i)));
                }
            }
            boolean hasCalls = parts.stream().anyMatch(ToolCallPart.class::isInstance);
            if (parts.isEmpty()) {
                parts.add(TextPart.of(""));
            }
            return new AssistantMessage(parts, null, null, hasCalls ? FinishReason.TOOL_CALLS : FinishReason.STOP, null,
                    Usage.UNKNOWN);
        }

        private ToolCallPart toolCall(JsonTree.Obj c) {
            String type = string(c, "type");
            if (type != null && !"function".equals(type)) {
                throw unsupported(c.where("type"), "Tool calls other than functions are" + NOT_YET.substring(3) + ".");
            }
            String id = requireString(c, "id");
            JsonTree.Obj function = requireObject(c, "function");
            String name = requireString(function, "name");
            String arguments = string(function, "arguments");
            String args = arguments == null ? "" : arguments;
            callNames.put(id, name);
            return new ToolCallPart(id, name, args, args.isBlank() || JsonValidity.problem(args) == null, Seals.NONE);
        }

        private Message toolResult(JsonTree.Obj m) {
            String id = requireString(m, "tool_call_id");
            return new ToolResultMessage(id, callNames.get(id), text(m, false), false);
        }

        /**
         * Reads {@code content}: a string, or the text of its parts joined with a line feed.
         *
         * @param optional whether the content may be absent or null (an assistant turn's)
         */
        private static String text(JsonTree.Obj m, boolean optional) {
            Object content = m.get("content");
            if (content == null || content == JsonTree.NULL) {
                if (optional) {
                    return "";
                }
                throw missing(m.where("content"));
            }
            if (content instanceof String s) {
                return s;
            }
            if (!(content instanceof JsonTree.Arr parts)) {
                throw invalidType(m.where("content"), "a string or an array of content parts", content);
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < parts.items().size(); i++) {
                JsonTree.Obj p = element(parts, i);
                String type = requireString(p, "type");
                String text = switch (type) {
                    case "text" -> requireString(p, "text");
                    // a refusal the client echoes back is what the model said
                    case "refusal" -> {
                        if (!optional) {
                            throw invalidValue(p.where("type"), "may be 'refusal' only in assistant messages");
                        }
                        yield requireString(p, "refusal");
                    }
                    case "image_url", "input_image", "image" -> throw unsupported(p.where("type"),
                            "Image content" + NOT_YET + ".");
                    case "input_audio", "audio" -> throw unsupported(p.where("type"), "Audio content" + NOT_YET + ".");
                    case "file", "input_file" -> throw unsupported(p.where("type"), "File content" + NOT_YET + ".");
                    default -> throw invalidValue(p.where("type"), "must be 'text'");
                };
                if (i > 0) {
                    sb.append('\n');
                }
                sb.append(text);
            }
            return sb.toString();
        }

        // ---- tools

        private static List<ToolDefinition> tools(JsonTree.Obj r) {
            JsonTree.Arr items = array(r, "tools");
            if (items == null) {
                return List.of();
            }
            List<ToolDefinition> out = new ArrayList<>(items.items().size());
            for (int i = 0; i < items.items().size(); i++) {
                JsonTree.Obj t = element(items, i);
                String type = requireString(t, "type");
                if (!"function".equals(type)) {
                    throw unsupported(t.where("type"), "Tools other than functions are" + NOT_YET.substring(3) + ".");
                }
                JsonTree.Obj f = requireObject(t, "function");
                String name = requireString(f, "name");
                if (name.isBlank()) {
                    throw invalidValue(f.where("name"), "must not be blank");
                }
                String description = string(f, "description");
                JsonTree.Obj parameters = object(f, "parameters");
                out.add(new ToolDefinition(name, description == null ? "" : description,
                        parameters == null ? "{\"type\":\"object\",\"properties\":{}}" : parameters.raw()));
            }
            return out;
        }

        private static ChatCompletionsToolChoice toolChoice(JsonTree.Obj r, List<ToolDefinition> tools) {
            Object value = r.get("tool_choice");
            if (value == null || value == JsonTree.NULL) {
                return ChatCompletionsToolChoice.AUTO;
            }
            ChatCompletionsToolChoice choice;
            if (value instanceof String s) {
                choice = switch (s) {
                    case "auto" -> ChatCompletionsToolChoice.AUTO;
                    case "none" -> ChatCompletionsToolChoice.NONE;
                    case "required" -> ChatCompletionsToolChoice.REQUIRED;
                    default -> throw invalidValue("tool_choice", "must be 'auto', 'none', 'required' or a function");
                };
            } else if (value instanceof JsonTree.Obj o) {
                String type = requireString(o, "type");
                if (!"function".equals(type)) {
                    throw unsupported(o.where("type"), "A tool choice other than a function" + NOT_YET + ".");
                }
                JsonTree.Obj f = requireObject(o, "function");
                String name = requireString(f, "name");
                if (tools.stream().noneMatch(t -> t.name().equals(name))) {
                    throw invalidValue(f.where("name"), "must name one of the tools");
                }
                choice = ChatCompletionsToolChoice.function(name);
            } else {
                throw invalidType("tool_choice", "a string or an object", value);
            }
            if (tools.isEmpty() && choice.mode() != ChatCompletionsToolChoice.Mode.AUTO
                    && choice.mode() != ChatCompletionsToolChoice.Mode.NONE) {
                throw invalidValue("tool_choice", "requires tools");
            }
            return choice;
        }

        // ---- other parameters

        private static @Nullable ReasoningEffort effort(JsonTree.Obj r) {
            String effort = string(r, "reasoning_effort");
            if (effort == null) {
                return null;
            }
            return switch (effort) {
                case "none" -> ReasoningEffort.NONE;
                case "minimal" -> ReasoningEffort.MINIMAL;
                case "low" -> ReasoningEffort.LOW;
                case "medium" -> ReasoningEffort.MEDIUM;
                case "high" -> ReasoningEffort.HIGH;
                case "xhigh" -> ReasoningEffort.XHIGH;
                case "max" -> ReasoningEffort.MAX;
                default -> throw invalidValue("reasoning_effort",
                        "must be one of 'none', 'minimal', 'low', 'medium', 'high', 'xhigh' or 'max'");
            };
        }

        private static List<String> stop(JsonTree.Obj r) {
            Object value = r.get("stop");
            if (value == null || value == JsonTree.NULL) {
                return List.of();
            }
            if (value instanceof String s) {
                return List.of(s);
            }
            if (!(value instanceof JsonTree.Arr a)) {
                throw invalidType("stop", "a string or an array of strings", value);
            }
            return strings(a);
        }

        private static Map<String, String> metadata(JsonTree.Obj r) {
            JsonTree.Obj m = object(r, "metadata");
            if (m == null) {
                return Map.of();
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (String name : fieldNames(m)) {
                Object v = m.get(name);
                if (!(v instanceof String s)) {
                    throw invalidType(m.where(name), "a string", v);
                }
                out.put(name, s);
            }
            return out;
        }

        /** Accepts {@code {"type":"text"}}; refuses structured output. Returns whether one was given. */
        private static boolean responseFormat(JsonTree.Obj r) {
            JsonTree.Obj f = object(r, "response_format");
            if (f == null) {
                return false;
            }
            String type = requireString(f, "type");
            switch (type) {
                case "text" -> {
                    return true;
                }
                case "json_object", "json_schema" -> throw unsupported(f.where("type"),
                        "Structured output (response_format " + type + ")" + NOT_YET + ".");
                default -> throw invalidValue(f.where("type"), "must be 'text', 'json_object' or 'json_schema'");
            }
        }

        /** Accepts text output; refuses audio. Returns whether modalities were given. */
        private static boolean modalities(JsonTree.Obj r) {
            JsonTree.Arr m = array(r, "modalities");
            if (m == null) {
                return false;
            }
            for (int i = 0; i < m.items().size(); i++) {
                Object v = m.items().get(i);
                if (!"text".equals(v)) {
                    throw unsupported("modalities[" + i + "]", "Output other than text" + NOT_YET + ".");
                }
            }
            return true;
        }

        private static void refuseLegacy(JsonTree.Obj r, String name) {
            if (r.has(name)) {
                throw new ClientRequestException(OpenAiError.invalidRequest("The deprecated '" + name
                        + "' parameter is not supported by this gateway; use 'tools' and 'tool_choice'.", name,
                        "unsupported_parameter"));
            }
        }
    }
}
