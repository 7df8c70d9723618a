package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.StructuredOutputs;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * The one decision of how a Chat Completions request carries its output schema, which both the
 * encoder and {@link ChatCompletionsCodec#structuredOutputMethod} use, and the fields it writes.
 *
 * <p>The decision is {@link StructuredOutputs#method} over the profile's capabilities, with one
 * Chat Completions refinement for {@link OutputSchema.Strategy#AUTO}: where a tool could only be
 * offered with {@code tool_choice: "auto"} (reasoning on at DeepSeek or Qwen, GLM always) and the
 * server has a JSON mode, JSON mode is taken, because it guarantees a JSON object where an unforced
 * tool guarantees nothing (and DeepSeek documents JSON mode as its structured output).
 */
final class ChatCompletionsStructuredOutput {

    private ChatCompletionsStructuredOutput() {
    }

    /**
     * Decides the method for a request.
     *
     * @return the method, or null when the request has no output schema
     * @throws dev.ruminate.providers.spi.UnsupportedInput when the strategy asks for a form the profile lacks
     */
    static @Nullable StructuredOutputMethod method(CompatProfile profile, ChatRequest request) {
        OutputSchema output = request.output();
        if (output == null) {
            return null;
        }
        boolean forced = forcedToolAccepted(profile, request);
        boolean offerTool = profile.tools()
                && (output.strategy() != OutputSchema.Strategy.AUTO || forced || !profile.jsonObject());
        return new StructuredOutputs(profile.jsonSchema(), offerTool, forced, profile.jsonObject()).method(output);
    }

    /** Whether the profile accepts a forced tool choice for this request. */
    static boolean forcedToolAccepted(CompatProfile profile, ChatRequest request) {
        return switch (profile.forcedToolChoice()) {
            case ALWAYS -> true;
            case NEVER -> false;
            case NOT_WHILE_THINKING -> !thinkingOn(profile, request);
        };
    }

    /**
     * Whether the model will reason: on unless the request turns it off, by its options or by an
     * extra, because the servers that refuse a forced tool while thinking think by default (DeepSeek
     * V4, Qwen3, Kimi K2 thinking); DeepSeek's {@code deepseek-chat} is its non-thinking model, off
     * unless asked.
     */
    static boolean thinkingOn(CompatProfile profile, ChatRequest request) {
        Map<String, @Nullable Object> extras = request.extras();
        if (extras.get("thinking") instanceof Map<?, ?> thinking && thinking.get("type") instanceof String type) {
            return !type.equals("disabled");
        }
        if (extras.get("enable_thinking") instanceof Boolean enabled) {
            return enabled;
        }
        if (extras.get("chat_template_kwargs") instanceof Map<?, ?> kwargs && kwargs.get("enable_thinking") instanceof Boolean b) {
            return b;
        }
        ReasoningOptions r = request.reasoning();
        if (r.enabled() != null) {
            return r.enabled();
        }
        if (r.effort() != null) {
            return r.effort() != ReasoningEffort.NONE;
        }
        if (r.budgetTokens() != null) {
            return true;
        }
        return !(profile.reasoningStyle() == ReasoningRequestStyle.DEEPSEEK_THINKING && request.model().equals("deepseek-chat"));
    }

    /**
     * Returns the index in the request's messages before which the instruction goes (after the
     * leading system messages, so it follows the user's own system text), or -1 when the method
     * needs none.
     */
    static int instructionAt(ChatRequest request, @Nullable StructuredOutputMethod method) {
        if (StructuredOutputs.instruction(request, method) == null) {
            return -1;
        }
        List<Message> messages = request.messages();
        int at = 0;
        while (at < messages.size() && messages.get(at) instanceof SystemMessage) {
            at++;
        }
        return at;
    }

    /**
     * Writes {@code tool_choice} for a tool method and {@code response_format} for the native and
     * JSON methods, each unless an extra replaces it.
     */
    static void writeControls(JsonGenerator g, OutputSchema output, StructuredOutputMethod method, Set<String> taken) {
        if (!taken.contains("tool_choice")) {
            if (method == StructuredOutputMethod.TOOL_FORCED) {
                g.writeObjectPropertyStart("tool_choice");
                g.writeStringProperty("type", "function");
                g.writeObjectPropertyStart("function");
                g.writeStringProperty("name", output.name());
                g.writeEndObject();
                g.writeEndObject();
            } else if (method == StructuredOutputMethod.TOOL_AUTO) {
                g.writeStringProperty("tool_choice", "auto");
            }
        }
        if (taken.contains("response_format")) {
            return;
        }
        if (method == StructuredOutputMethod.NATIVE) {
            g.writeObjectPropertyStart("response_format");
            g.writeStringProperty("type", "json_schema");
            g.writeObjectPropertyStart("json_schema");
            g.writeStringProperty("name", output.name());
            if (output.description() != null) {
                g.writeStringProperty("description", output.description());
            }
            g.writeName("schema");
            JsonWriting.copyJson(g, output.schema(), "the output schema " + output.name());
            g.writeBooleanProperty("strict", output.strict());
            g.writeEndObject();
            g.writeEndObject();
        } else if (method == StructuredOutputMethod.JSON_MODE) {
            g.writeObjectPropertyStart("response_format");
            g.writeStringProperty("type", "json_object");
            g.writeEndObject();
        }
    }
}
