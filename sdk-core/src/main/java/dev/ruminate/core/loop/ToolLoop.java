package dev.ruminate.core.loop;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs a chat request as an agent loop: stream the model's response, execute the tools it calls,
 * send their results back, and repeat until the model answers without a tool call or a stop
 * condition holds.
 *
 * <pre>{@code
 * ToolLoop loop = ToolLoop.builder(provider)
 *         .tool(Tool.blocking(weatherDefinition, call -> weather.lookup(call.arguments())))
 *         .options(LoopOptions.builder().maxSteps(5).build())
 *         .build();
 * loop.run(ChatRequest.builder("model").user("Weather in Paris?").build())
 *         .ofType(LoopEvent.LoopCompleted.class)
 *         .map(done -> done.finalMessage().text());
 * }</pre>
 *
 * <p><b>History.</b> Each step sends the request with the conversation so far: every earlier
 * assistant message exactly as the reducer built it (reasoning parts, signatures, encrypted
 * content and item ids untouched, in order), each followed by one tool result per call in the order
 * of its calls. The provider's own history rules decide what goes on the wire; the loop drops and
 * reorders nothing. The registered tools' definitions are added to the request's tools, except
 * those whose name the request already defines.
 *
 * <p><b>Approval.</b> A call of a tool flagged {@link Tool#requiringApproval()} runs only once the
 * builder's {@link ApprovalHandler} approved it; the loop reports the wait with
 * {@link LoopEvent.ApprovalRequested} and {@link LoopEvent.ApprovalResolved}, and a denial's reason
 * goes back to the model as the call's result. The other calls of the step run meanwhile.
 *
 * <p><b>Restart.</b> If the request's conversation ends with an assistant message whose tool calls
 * are not all answered, the loop runs the unanswered calls first (as step 0) and then asks the model.
 *
 * <p><b>Threading.</b> Immutable and thread-safe; one loop serves any number of concurrent runs.
 * {@link #run} returns a cold flux: each subscription makes its own provider calls. Events are
 * delivered on the provider's and the tools' threads, one at a time.
 *
 * <p><b>Cancellation.</b> Cancelling the subscription cancels the provider stream in flight (closing
 * its HTTP exchange) and the tool calls running.
 *
 * <p><b>Errors.</b> A provider error ends the loop with the provider's
 * {@link dev.ruminate.core.error.RuminateException}, with the step's partial message attached. A
 * tool failure goes back to the model unless {@link ToolErrorPolicy#FAIL_LOOP} is set; the loop
 * timeout fails the loop with a {@link ToolLoopException}. Tool arguments are checked to be JSON
 * and, unless {@link LoopOptions#validateArguments()} is off, to satisfy the tool's JSON schema
 * when the optional validator is present (see {@link #validatesSchemas()}).
 *
 * @since 0.1
 */
public final class ToolLoop {

    private final ChatProvider provider;
    private final Map<String, Tool> tools;
    private final LoopOptions options;
    private final @Nullable ApprovalHandler approvals;
    private final @Nullable ArgumentSchemas schemas;

    private ToolLoop(ChatProvider provider, Map<String, Tool> tools, LoopOptions options,
                     @Nullable ApprovalHandler approvals) {
        this.provider = provider;
        this.tools = tools;
        this.options = options;
        this.approvals = approvals;
        this.schemas = options.validateArguments() && VALIDATOR_PRESENT ? ArgumentSchemas.of(tools) : null;
    }

    /** Whether the optional JSON Schema validator (com.networknt:json-schema-validator) can be loaded. */
    private static final boolean VALIDATOR_PRESENT = validatorPresent();

    private static boolean validatorPresent() {
        try {
            Class.forName("com.networknt.schema.SchemaRegistry", false, ToolLoop.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Tells whether loops validate tool arguments against the tools' JSON schemas when
     * {@link LoopOptions#validateArguments()} is on: true when com.networknt:json-schema-validator
     * (3.x, an optional dependency of sdk-core) is on the class path, or resolved on the module path.
     *
     * @return true if the validator is present
     */
    public static boolean validatesSchemas() {
        return VALIDATOR_PRESENT;
    }

    /**
     * Starts building a loop on a provider.
     *
     * @param provider the provider each step calls
     * @return a builder
     */
    public static Builder builder(ChatProvider provider) {
        return new Builder(provider);
    }

    /**
     * Returns the registered tools, by name, in registration order.
     *
     * @return an unmodifiable map
     */
    public Map<String, Tool> tools() {
        return tools;
    }

    /**
     * Returns the options.
     *
     * @return the options
     */
    public LoopOptions options() {
        return options;
    }

    /**
     * Runs the loop.
     *
     * @param request the first step's request: model, conversation, options; its conversation may
     *     end with unanswered tool calls (see the class comment)
     * @return a cold flux of the loop's events, ending with {@link LoopEvent.LoopCompleted} unless it
     *     fails
     */
    public Flux<LoopEvent> run(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        ChatRequest withTools = withToolDefinitions(request);
        Flux<LoopEvent> events = Flux.defer(() -> new LoopRun(provider, tools, options, approvals, schemas, withTools).events());
        Duration limit = options.loopTimeout();
        if (limit == null) {
            return events;
        }
        return Flux.defer(() -> {
            // one deadline for the whole run: each event's timeout is the time left until it
            long deadline = System.nanoTime() + limit.toNanos();
            return events.timeout(Mono.delay(limit),
                    e -> Mono.delay(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))),
                    Mono.error(() -> new ToolLoopException(ToolLoopException.Reason.LOOP_TIMEOUT, null,
                            "the tool loop did not finish within " + limit)));
        });
    }

    private ChatRequest withToolDefinitions(ChatRequest request) {
        Set<String> defined = new HashSet<>();
        request.tools().forEach(t -> defined.add(t.name()));
        List<ToolDefinition> added = new ArrayList<>();
        for (Tool tool : tools.values()) {
            if (!defined.contains(tool.name())) {
                added.add(tool.definition());
            }
        }
        if (added.isEmpty()) {
            return request;
        }
        ChatRequest.Builder b = request.toBuilder();
        added.forEach(b::tool);
        return b.build();
    }

    /**
     * Builds a {@link ToolLoop}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private final ChatProvider provider;
        private final Map<String, Tool> tools = new LinkedHashMap<>();
        private LoopOptions options = LoopOptions.DEFAULTS;
        private @Nullable ApprovalHandler approvals;

        private Builder(ChatProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /**
         * Registers a tool.
         *
         * @param tool the tool
         * @return this builder
         * @throws IllegalArgumentException if a tool of that name is registered already
         */
        public Builder tool(Tool tool) {
            Objects.requireNonNull(tool, "tool");
            if (tools.putIfAbsent(tool.name(), tool) != null) {
                throw new IllegalArgumentException("a tool named " + tool.name() + " is registered already");
            }
            return this;
        }

        /**
         * Registers a tool with a reactive handler.
         *
         * @param definition the definition
         * @param handler the handler; it must not block the calling thread
         * @return this builder
         */
        public Builder tool(ToolDefinition definition, ToolHandler handler) {
            return tool(Tool.of(definition, handler));
        }

        /**
         * Registers a tool whose handler blocks; its calls run on a bounded scheduler
         * (see {@link Tool#blocking}).
         *
         * @param definition the definition
         * @param function the blocking function returning the result text
         * @return this builder
         */
        public Builder blockingTool(ToolDefinition definition, Function<ToolCall, String> function) {
            return tool(Tool.blocking(definition, function));
        }

        /**
         * Sets the options.
         *
         * @param value the options
         * @return this builder
         */
        public Builder options(LoopOptions value) {
            this.options = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Sets what decides on calls of tools that {@linkplain Tool#requiresApproval() require
         * approval}; required if any registered tool does.
         *
         * @param value the handler
         * @return this builder
         */
        public Builder approvalHandler(ApprovalHandler value) {
            this.approvals = Objects.requireNonNull(value, "value");
            return this;
        }

        /**
         * Builds the loop.
         *
         * @return an immutable loop
         * @throws IllegalStateException if a tool requires approval and no approval handler is set
         * @throws IllegalArgumentException if arguments are validated against schemas and a tool's JSON
         *     schema cannot be compiled
         */
        public ToolLoop build() {
            if (approvals == null) {
                List<String> gated = tools.values().stream().filter(Tool::requiresApproval).map(Tool::name).toList();
                if (!gated.isEmpty()) {
                    throw new IllegalStateException("the tools " + gated + " require approval, but no approval handler is set:"
                            + " call ToolLoop.Builder.approvalHandler(call -> Mono<Approval>)");
                }
            }
            return new ToolLoop(provider, Collections.unmodifiableMap(new LinkedHashMap<>(tools)), options, approvals);
        }
    }
}
