package dev.ruminate.core.loop;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;

/**
 * A provider that answers each call with the next scripted response and records the requests; the
 * last response repeats once the script is used up. Thread-safe.
 */
final class ScriptedProvider implements ChatProvider {

    private final List<Supplier<Flux<ChatEvent>>> responses;
    final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
    /** Whether each request was a streaming call, in order. */
    final List<Boolean> streamed = new CopyOnWriteArrayList<>();

    ScriptedProvider(List<Supplier<Flux<ChatEvent>>> responses) {
        this.responses = List.copyOf(responses);
    }

    static ScriptedProvider of(Turn... turns) {
        List<Supplier<Flux<ChatEvent>>> list = new ArrayList<>();
        for (Turn t : turns) {
            List<ChatEvent> events = t.events();
            list.add(() -> Flux.fromIterable(events));
        }
        return new ScriptedProvider(list);
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public Flux<ChatEvent> stream(ChatRequest request) {
        return respond(request, true);
    }

    private Flux<ChatEvent> respond(ChatRequest request, boolean streaming) {
        return Flux.defer(() -> {
            requests.add(request);
            streamed.add(streaming);
            int i = Math.min(requests.size(), responses.size()) - 1;
            return responses.get(i).get();
        });
    }

    @Override
    public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
        return respond(request, false);
    }

    /** One response's events, built part by part. Not thread-safe. */
    static final class Turn {
        private final List<ChatEvent> events = new ArrayList<>();
        private int part;
        private int toolIndex;
        private long input = 10;
        private long output = 5;

        static Turn create() {
            Turn t = new Turn();
            t.events.add(new ResponseStarted("scripted", "m", null));
            return t;
        }

        Turn reasoning(String text, String signature) {
            events.add(new ReasoningDelta(part, text, false, "thinking"));
            events.add(new Seal(part, Seal.Kind.SIGNATURE, signature));
            part++;
            return this;
        }

        Turn text(String text) {
            events.add(new ContentDelta(part++, text));
            return this;
        }

        Turn toolCall(String id, String name, String arguments) {
            events.add(new ToolCallDelta(part++, toolIndex++, id, name, arguments));
            return this;
        }

        Turn usage(long in, long out) {
            input = in;
            output = out;
            return this;
        }

        List<ChatEvent> events() {
            List<ChatEvent> all = new ArrayList<>(events);
            all.add(new UsageUpdate(new Usage(input, output, null, null)));
            all.add(new ResponseCompleted(toolIndex > 0 ? FinishReason.TOOL_CALLS : FinishReason.STOP, null));
            return all;
        }
    }
}
