package dev.ruminate.core.think;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.event.Warning;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * The state of one subscription to the think-tag operator: rewrites each upstream event into the
 * events it becomes, renumbering parts because one upstream content part can become several
 * alternating reasoning and text parts.
 *
 * <p>Output part indices are given out densely, from zero, in the order the output parts first
 * appear. A part that is not split (reasoning from a field, a tool call, a part known only from a
 * seal) keeps one output index for its whole life. Content parts are split into runs of reasoning
 * and of text; each run is its own output part, and the previous run's part is ended when the next
 * one opens. Events other than {@link ContentDelta} and {@link PartEnded} that name a content part
 * (a seal on a text part) go to the output part currently open for it.
 *
 * <p>One parser serves the whole response, so whether the text is inside a reasoning block carries
 * over from one content part to the next (the model's output is one text, which the decoder may
 * have cut around a tool call). Held-back text is released into its own part before any event of
 * another content part, and before that part's end, the response's completion, or an error.
 *
 * <p>Not thread-safe: Reactor calls it serially, as the Reactive Streams rules require.
 */
final class ThinkTagSplitter implements ThinkTagParser.Sink {

    static final String SOURCE = "tags";

    private static final byte NONE = 0;
    private static final byte TEXT = 1;
    private static final byte TAG_REASONING = 2;
    private static final byte OTHER = 3;

    /** Where one upstream part's events currently go. */
    private static final class Route {
        int out = -1;
        byte kind = NONE;
        boolean open;
    }

    private final ThinkTagParser parser;
    private Route[] routes = new Route[4];
    private int nextOut;
    /** The upstream content part whose text the parser may be holding back, or -1. */
    private int owner = -1;
    /** The event being rewritten, when it is a content delta: reused when its text passes whole. */
    private @Nullable ContentDelta current;
    /** Collects the output of one upstream event. */
    private final ArrayList<ChatEvent> scratch = new ArrayList<>(4);
    private List<ChatEvent> out = List.of();
    private @Nullable Throwable error;

    ThinkTagSplitter(ThinkTagOptions options) {
        this.parser = new ThinkTagParser(options, this);
    }

    /**
     * Rewrites one upstream event.
     *
     * @param event the event
     * @return the events it becomes, in order; possibly none
     */
    List<ChatEvent> onEvent(ChatEvent event) {
        if (event instanceof ContentDelta delta) {
            return content(delta);
        }
        if (event instanceof ReasoningDelta delta) {
            int part = mapped(delta.part(), OTHER);
            return List.of(part == delta.part()
                    ? delta : new ReasoningDelta(part, delta.text(), delta.summary(), delta.source()));
        }
        if (event instanceof ToolCallDelta delta) {
            int part = mapped(delta.part(), OTHER);
            return List.of(part == delta.part() ? delta
                    : new ToolCallDelta(part, delta.toolIndex(), delta.id(), delta.name(), delta.argumentsDelta()));
        }
        if (event instanceof ServerToolBlock block) {
            int part = mapped(block.part(), OTHER);
            return List.of(part == block.part() ? block
                    : new ServerToolBlock(part, block.type(), block.id(), block.name(), block.json()));
        }
        if (event instanceof Seal seal) {
            int part = mapped(seal.part(), NONE);
            return List.of(part == seal.part() ? seal : new Seal(part, seal.kind(), seal.value()));
        }
        if (event instanceof ReasoningFinal fin) {
            int part = mapped(fin.part(), NONE);
            return List.of(part == fin.part() ? fin : new ReasoningFinal(part, fin.text()));
        }
        if (event instanceof PartEnded ended) {
            return partEnded(ended.part());
        }
        if (event instanceof ResponseCompleted) {
            List<ChatEvent> result = begin();
            parser.finish();
            result.add(event);
            return end(result);
        }
        // a warning's turn and part index the request's messages, not the response's parts: unchanged; a
        // structured-output verdict names no part (the provider pipeline splits each attempt before checking it)
        if (event instanceof ResponseStarted || event instanceof UsageUpdate || event instanceof Warning
                || event instanceof OutputChecked) {
            return List.of(event);
        }
        throw new IllegalStateException("unknown event type " + event.getClass().getName());
    }

    /** Remembers the upstream error, so that {@link #onEnd()} can release held-back text before it. */
    void onError(Throwable failure) {
        this.error = failure;
    }

    /**
     * Returns what follows the last upstream event: any held-back text, then the upstream error
     * if there was one. The text goes out before the error so that nothing the model produced is
     * lost to a consumer that keeps partial results.
     */
    Flux<ChatEvent> onEnd() {
        Flux<ChatEvent> rest = Flux.fromIterable(flush());
        Throwable failure = error;
        return failure == null ? rest : rest.concatWith(Flux.error(failure));
    }

    @Override
    public void piece(boolean reasoning, String text) {
        Route route = route(owner);
        byte kind = reasoning ? TAG_REASONING : TEXT;
        if (!route.open || (route.kind != kind && route.kind != NONE)) {
            if (route.open) {
                out.add(new PartEnded(route.out));
            }
            route.out = nextOut++;
            route.open = true;
        }
        route.kind = kind;
        if (reasoning) {
            out.add(new ReasoningDelta(route.out, text, false, SOURCE));
        } else {
            ContentDelta whole = current;
            out.add(whole != null && whole.text() == text && whole.part() == route.out
                    ? whole : new ContentDelta(route.out, text));
        }
    }

    private List<ChatEvent> content(ContentDelta delta) {
        if (delta.text().isEmpty()) {
            return List.of();
        }
        List<ChatEvent> result = begin();
        if (owner != delta.part()) {
            parser.finish();
            owner = delta.part();
        }
        current = delta;
        parser.feed(delta.text());
        current = null;
        return end(result);
    }

    private List<ChatEvent> partEnded(int part) {
        List<ChatEvent> result = begin();
        if (part == owner) {
            parser.finish();
            owner = -1;
        }
        Route route = part < routes.length ? routes[part] : null;
        if (route != null && route.open && route.out >= 0) {
            route.open = false;
            result.add(new PartEnded(route.out));
        }
        return end(result);
    }

    private List<ChatEvent> flush() {
        List<ChatEvent> result = begin();
        parser.finish();
        return end(result);
    }

    private List<ChatEvent> begin() {
        scratch.clear();
        out = scratch;
        return scratch;
    }

    /**
     * Hands out what the call produced as an immutable list sized to it (a delta usually yields one event), so
     * that the reused scratch list is the only growable one.
     */
    private List<ChatEvent> end(List<ChatEvent> result) {
        out = List.of();
        List<ChatEvent> events = switch (result.size()) {
            case 0 -> List.of();
            case 1 -> List.of(result.get(0));
            default -> List.copyOf(result);
        };
        result.clear();
        return events;
    }

    /** Returns the output index for an event of a part that is not split, giving one out on first sight. */
    private int mapped(int part, byte kind) {
        Route route = route(part);
        if (route.out < 0) {
            route.out = nextOut++;
            route.open = true;
            route.kind = kind;
        } else if (route.kind == NONE) {
            route.kind = kind;
        }
        return route.out;
    }

    private Route route(int part) {
        if (part >= routes.length) {
            routes = Arrays.copyOf(routes, Math.max(routes.length * 2, part + 1));
        }
        Route route = routes[part];
        if (route == null) {
            route = new Route();
            routes[part] = route;
        }
        return route;
    }
}
