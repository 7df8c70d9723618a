package dev.ruminate.core.ui;

import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An AG-UI {@code RunAgentInput} read by {@link AgUiInputReader}: the thread and run it names, its conversation
 * as Ruminate messages (the turns this server issued restored from {@link ServerTurns} with their opaque state),
 * and the tools the front end declares (AG-UI's frontend tools: the model may call them, and the front end runs
 * them and sends the result back on the next run).
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param threadId the conversation, the scope of the turns kept in {@link ServerTurns}
 * @param runId the run, echoed in {@code RUN_STARTED} and {@code RUN_FINISHED}
 * @param messages the conversation in order; the input's {@code context} entries come first, as one system message
 * @param tools the front end's tools, in order
 * @param forwardedProps the input's {@code forwardedProps} as JSON text, or null when absent
 * @since 0.4
 */
public record AgUiInput(String threadId, String runId, List<Message> messages, List<ToolDefinition> tools,
                        @Nullable String forwardedProps) {

    /**
     * Creates the value, checking its components.
     *
     * @param threadId see {@link #threadId()}
     * @param runId see {@link #runId()}
     * @param messages see {@link #messages()}
     * @param tools see {@link #tools()}
     * @param forwardedProps see {@link #forwardedProps()}
     */
    public AgUiInput {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(runId, "runId");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
    }

    /**
     * Builds a chat request for this run: the conversation and the front end's tools.
     *
     * @param model the model to ask
     * @return a builder holding the messages and tools, to which options can be added
     */
    public ChatRequest.Builder request(String model) {
        ChatRequest.Builder b = ChatRequest.builder(model).messages(messages);
        tools.forEach(b::tool);
        return b;
    }

    /**
     * Returns a string the front end forwarded, such as the model it picked ({@code forwardedProps.model}).
     *
     * @param name the property of {@code forwardedProps}
     * @return its value, or null when {@code forwardedProps} is absent, not an object, or has no string under the name
     */
    public @Nullable String forwardedString(String name) {
        Objects.requireNonNull(name, "name");
        if (forwardedProps == null) {
            return null;
        }
        Object props = JsonTree.parse(forwardedProps);
        return props instanceof JsonTree.Obj o && o.get(name) instanceof String s ? s : null;
    }
}
