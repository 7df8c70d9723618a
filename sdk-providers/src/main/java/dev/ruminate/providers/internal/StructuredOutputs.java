package dev.ruminate.providers.internal;

import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What an API can do for structured output, and the one decision, from that and the request's
 * {@link OutputSchema.Strategy}, of the method a family's encoder uses (and its
 * {@code WireCodec.structuredOutputMethod} reports): the native form first; else a tool, forced
 * when the API allows a forced tool choice (not with reasoning on at Anthropic, Bedrock, DeepSeek,
 * DashScope), else offered with {@code tool_choice: auto} and an instruction; else JSON mode; else
 * an instruction. Also the tool and the instruction texts every family writes the same.
 *
 * <p>Immutable and thread-safe.
 *
 * @param nativeSchema the API (and model) constrains output to a JSON schema itself
 * @param tools the API takes tool definitions
 * @param forcedTool the API accepts a tool choice that forces one tool, for this request (false
 *     when reasoning is on and the API refuses that)
 * @param jsonMode the API has a JSON mode (any JSON object) without a schema
 */
public record StructuredOutputs(boolean nativeSchema, boolean tools, boolean forcedTool, boolean jsonMode) {

    /**
     * Decides the method for an output schema.
     *
     * @param output the schema and its strategy
     * @return the method
     * @throws UnsupportedInput if the strategy asks for a form this API lacks
     */
    public StructuredOutputMethod method(OutputSchema output) {
        switch (output.strategy()) {
            case NATIVE -> {
                if (!nativeSchema) {
                    throw new UnsupportedInput(UnsupportedInputException.Reason.KIND,
                            "the output schema " + output.name() + " asks for native structured output, which this API "
                                    + "or model does not have (use the AUTO or TOOL strategy)");
                }
                return StructuredOutputMethod.NATIVE;
            }
            case TOOL -> {
                if (!tools) {
                    throw new UnsupportedInput(UnsupportedInputException.Reason.KIND,
                            "the output schema " + output.name() + " asks for a tool, and this API takes no tools");
                }
                return forcedTool ? StructuredOutputMethod.TOOL_FORCED : StructuredOutputMethod.TOOL_AUTO;
            }
            default -> {
                if (nativeSchema) {
                    return StructuredOutputMethod.NATIVE;
                }
                if (tools) {
                    return forcedTool ? StructuredOutputMethod.TOOL_FORCED : StructuredOutputMethod.TOOL_AUTO;
                }
                return jsonMode ? StructuredOutputMethod.JSON_MODE : StructuredOutputMethod.INSTRUCTION;
            }
        }
    }

    /**
     * Tells whether a method carries the schema as a tool ({@link StructuredOutputMethod#TOOL_FORCED}
     * or {@link StructuredOutputMethod#TOOL_AUTO}).
     *
     * @param method the method, or null for a request without an output schema
     * @return true for a tool method
     */
    public static boolean isTool(@Nullable StructuredOutputMethod method) {
        return method == StructuredOutputMethod.TOOL_FORCED || method == StructuredOutputMethod.TOOL_AUTO;
    }

    /**
     * Returns the tools an encoder writes: the request's own, then, for a tool method, the output
     * tool ({@link #tool}).
     *
     * @param request the request
     * @param method the method its encoder decided, or null for a request without an output schema
     * @return a new modifiable list
     */
    public static List<ToolDefinition> tools(ChatRequest request, @Nullable StructuredOutputMethod method) {
        List<ToolDefinition> tools = new ArrayList<>(request.tools());
        OutputSchema output = request.output();
        if (output != null && isTool(method)) {
            tools.add(tool(output));
        }
        return tools;
    }

    /**
     * Returns the tool a tool method offers: the schema's name, its schema as the parameters.
     *
     * @param output the schema
     * @return the tool definition
     */
    public static ToolDefinition tool(OutputSchema output) {
        String about = output.description() != null ? " " + output.description() : "";
        return new ToolDefinition(output.name(),
                "Give the final answer by calling this tool: its arguments are the answer." + about, output.schema());
    }

    /**
     * Returns the instruction a request's output schema adds to the system prompt under a method:
     * what every encoder writes after the user's own system text.
     *
     * @param request the request
     * @param method the method decided for it, or null when it has no schema
     * @return the instruction, or null when there is no schema or the method needs none
     */
    public static @Nullable String instruction(ChatRequest request, @Nullable StructuredOutputMethod method) {
        OutputSchema output = request.output();
        return output == null || method == null ? null : instruction(output, method);
    }

    /**
     * Returns the instruction a method that does not constrain the output adds to the system
     * prompt, or null for one that needs none ({@link StructuredOutputMethod#NATIVE},
     * {@link StructuredOutputMethod#TOOL_FORCED}).
     *
     * @param output the schema
     * @param method the method
     * @return the instruction, or null
     */
    public static @Nullable String instruction(OutputSchema output, StructuredOutputMethod method) {
        return switch (method) {
            case TOOL_AUTO -> "When you have the final answer, call the tool " + output.name()
                    + " with the answer as its arguments, instead of answering in text.";
            // "json" in lower case too: DeepSeek's JSON mode requires the word in the prompt, and its
            // documentation does not say whether the check ignores case
            case JSON_MODE, INSTRUCTION -> "Reply in json only: one JSON value and nothing else (no code fence, no "
                    + "comment) that matches this JSON Schema:\n" + output.schema();
            default -> null;
        };
    }
}
