package dev.ruminate.core.loop;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * The state of one subscription to a loop: the conversation so far and the usage summed over its
 * steps.
 *
 * <p><b>Threading.</b> Not thread-safe, and needs not be: the state is touched only between the
 * signals of one sequential chain of steps (each step starts after the previous one completed), and
 * Reactor's operators order those accesses.
 */
final class LoopRun {

    private final ChatProvider provider;
    private final Map<String, Tool> tools;
    private final LoopOptions options;
    private final ToolExecutor executor;
    private final ChatRequest base;
    private final List<Message> conversation;
    private Usage usage = Usage.UNKNOWN;
    private int steps;

    LoopRun(ChatProvider provider, Map<String, Tool> tools, LoopOptions options, @Nullable ApprovalHandler approvals,
            @Nullable ArgumentSchemas schemas, ChatRequest base) {
        this.provider = provider;
        this.tools = tools;
        this.options = options;
        this.executor = new ToolExecutor(tools, options, approvals, schemas);
        this.base = base;
        this.conversation = new ArrayList<>(base.messages());
    }

    Flux<LoopEvent> events() {
        int trailingResults = 0;
        while (trailingResults < conversation.size()
                && conversation.get(conversation.size() - 1 - trailingResults) instanceof ToolResultMessage) {
            trailingResults++;
        }
        int assistantIndex = conversation.size() - 1 - trailingResults;
        if (assistantIndex >= 0 && conversation.get(assistantIndex) instanceof AssistantMessage pending
                && !pending.toolCalls().isEmpty()) {
            return resume(pending, assistantIndex + 1);
        }
        return step(1);
    }

    /**
     * Answers the calls of the conversation's last assistant message that have no result yet, then
     * continues. The results go back in call order (the given ones untouched); a given result that
     * answers no call is kept, after them.
     */
    private Flux<LoopEvent> resume(AssistantMessage pending, int firstResult) {
        List<ToolResultMessage> given = new ArrayList<>();
        for (Message m : conversation.subList(firstResult, conversation.size())) {
            given.add((ToolResultMessage) m);
        }
        List<ToolCallPart> calls = pending.toolCalls();
        AtomicReferenceArray<ToolResultMessage> results = new AtomicReferenceArray<>(calls.size());
        List<Integer> unanswered = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            // calls without a provider id share their name as id: match them one result each, in order
            ToolResultMessage answer = takeFirst(given, ToolExecutor.idOf(calls.get(i)));
            if (answer != null) {
                results.set(i, answer);
            } else {
                unanswered.add(i);
            }
        }
        if (unanswered.isEmpty()) {
            return step(1);
        }
        return executor.run(0, calls, unanswered, results).concatWith(Flux.defer(() -> {
            conversation.subList(firstResult, conversation.size()).clear();
            for (int i = 0; i < calls.size(); i++) {
                conversation.add(results.get(i));
            }
            conversation.addAll(given);
            if (callsStoppingTool(unanswered.stream().map(calls::get).toList())) {
                return Flux.just(completed(pending, StopReason.STOPPING_TOOL));
            }
            return step(1);
        }));
    }

    private static @Nullable ToolResultMessage takeFirst(List<ToolResultMessage> results, String toolCallId) {
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i).toolCallId().equals(toolCallId)) {
                return results.remove(i);
            }
        }
        return null;
    }

    private Flux<LoopEvent> step(int step) {
        return Flux.defer(() -> {
            ChatRequest request = base.withMessages(conversation);
            AtomicReference<@Nullable ChatResult> result = new AtomicReference<>();
            Flux<ChatEvent> response = options.streaming() ? provider.stream(request) : provider.completeAsEvents(request);
            return options.reducer().snapshots(response)
                    .<LoopEvent>map(snapshot -> {
                        ChatResult r = snapshot.result();
                        if (r != null) {
                            result.set(r);
                        }
                        return new LoopEvent.StepChatEvent(step, snapshot.event());
                    })
                    // the reducer fails a stream that ends without its completion, so the result is there
                    .concatWith(Flux.defer(() -> afterResponse(step, Objects.requireNonNull(result.get()))));
        });
    }

    private Flux<LoopEvent> afterResponse(int step, ChatResult result) {
        AssistantMessage message = result.message();
        conversation.add(message);
        usage = sum(usage, message.usage());
        steps = step;
        List<ToolCallPart> calls = message.toolCalls();
        if (calls.isEmpty()) {
            return Flux.just(new LoopEvent.StepCompleted(step, message, result.reasoningCheck(), List.of()),
                    completed(message, StopReason.FINAL_ANSWER));
        }
        if (step >= options.maxSteps()) {
            return Flux.just(new LoopEvent.StepCompleted(step, message, result.reasoningCheck(), List.of()),
                    completed(message, StopReason.STEP_LIMIT));
        }
        AtomicReferenceArray<ToolResultMessage> results = new AtomicReferenceArray<>(calls.size());
        List<Integer> all = IntStream.range(0, calls.size()).boxed().toList();
        return executor.run(step, calls, all, results).concatWith(Flux.defer(() -> {
            List<ToolResultMessage> inOrder = new ArrayList<>(calls.size());
            for (int i = 0; i < calls.size(); i++) {
                inOrder.add(results.get(i));
            }
            conversation.addAll(inOrder);
            LoopEvent.StepCompleted completed = new LoopEvent.StepCompleted(step, message, result.reasoningCheck(), inOrder);
            if (callsStoppingTool(calls)) {
                return Flux.just(completed, completed(message, StopReason.STOPPING_TOOL));
            }
            if (options.stopWhen().test(completed)) {
                return Flux.just(completed, completed(message, StopReason.STOP_PREDICATE));
            }
            return Flux.<LoopEvent>just(completed).concatWith(step(step + 1));
        }));
    }

    private boolean callsStoppingTool(List<ToolCallPart> calls) {
        for (ToolCallPart call : calls) {
            Tool tool = tools.get(call.name());
            if (tool != null && tool.endsLoop()) {
                return true;
            }
        }
        return false;
    }

    private LoopEvent.LoopCompleted completed(AssistantMessage last, StopReason reason) {
        return new LoopEvent.LoopCompleted(steps, last, conversation, usage, reason);
    }

    /** Adds two reports count by count; a count unknown in both stays unknown. */
    static Usage sum(Usage a, Usage b) {
        return new Usage(add(a.inputTokens(), b.inputTokens()), add(a.outputTokens(), b.outputTokens()),
                add(a.reasoningTokens(), b.reasoningTokens()), add(a.cachedTokens(), b.cachedTokens()),
                add(a.cacheWriteTokens(), b.cacheWriteTokens()));
    }

    private static @Nullable Long add(@Nullable Long a, @Nullable Long b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + b;
    }
}
