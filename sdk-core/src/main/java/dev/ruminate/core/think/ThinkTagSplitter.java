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
import dev.ruminate.core.internal.Expanding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

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
final class ThinkTagSplitter implements ThinkTagParser.Sink, Expanding.Expander<ChatEvent, ChatEvent> {

    static final String SOURCE = "tags";

    /** Outside a call nothing may be written: the parser only produces pieces while a call runs. */
    private static final List<ChatEvent> NO_OUTPUT = List.of();

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
    /** Where the parser's pieces go: the output list of the call in progress. */
    private List<ChatEvent> out = NO_OUTPUT;

    ThinkTagSplitter(ThinkTagOptions options) {
        this.parser = new ThinkTagParser(options, this);
    }

    /**
     * Rewrites one upstream event into a fresh list (for tests; the operator uses {@link #next}).
     *
     * @param event the event
     * @return the events it becomes, in order; possibly none
     */
    List<ChatEvent> onEvent(ChatEvent event) {
        List<ChatEvent> result = new ArrayList<>(2);
        next(event, result);
        return result;
    }

    /**
     * Rewrites one upstream event.
     *
     * @param event the event
     * @param result receives the events it becomes, in order; possibly none
     */
    @Override
    public void next(ChatEvent event, List<ChatEvent> result) {
        if (event instanceof ContentDelta delta) {
            content(delta, result);
        } else if (event instanceof ReasoningDelta delta) {
            int part = mapped(delta.part(), OTHER);
            result.add(part == delta.part()
                    ? delta : new ReasoningDelta(part, delta.text(), delta.summary(), delta.source()));
        } else if (event instanceof ToolCallDelta delta) {
            int part = mapped(delta.part(), OTHER);
            result.add(part == delta.part() ? delta
                    : new ToolCallDelta(part, delta.toolIndex(), delta.id(), delta.name(), delta.argumentsDelta()));
        } else if (event instanceof ServerToolBlock block) {
            int part = mapped(block.part(), OTHER);
            result.add(part == block.part() ? block
                    : new ServerToolBlock(part, block.type(), block.id(), block.name(), block.json()));
        } else if (event instanceof Seal seal) {
            int part = mapped(seal.part(), NONE);
            result.add(part == seal.part() ? seal : new Seal(part, seal.kind(), seal.value()));
        } else if (event instanceof ReasoningFinal fin) {
            int part = mapped(fin.part(), NONE);
            result.add(part == fin.part() ? fin : new ReasoningFinal(part, fin.text()));
        } else if (event instanceof PartEnded ended) {
            partEnded(ended.part(), result);
        } else if (event instanceof ResponseCompleted) {
            out = result;
            parser.finish();
            out = NO_OUTPUT;
            result.add(event);
        } else if (event instanceof ResponseStarted || event instanceof UsageUpdate || event instanceof Warning
                || event instanceof OutputChecked) {
            // a warning's turn and part index the request's messages, not the response's parts: unchanged; a
            // structured-output verdict names no part (the provider pipeline splits each attempt before checking it)
            result.add(event);
        } else {
            throw new IllegalStateException("unknown event type " + event.getClass().getName());
        }
    }

    /** Releases any held-back text when the upstream completes. */
    @Override
    public void complete(List<ChatEvent> result) {
        flush(result);
    }

    /**
     * Releases any held-back text before the upstream error, so that nothing the model produced is
     * lost to a consumer that keeps partial results; the error follows unchanged.
     */
    @Override
    public void error(Throwable failure, List<ChatEvent> result) {
        flush(result);
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

    private void content(ContentDelta delta, List<ChatEvent> result) {
        if (delta.text().isEmpty()) {
            return;
        }
        out = result;
        if (owner != delta.part()) {
            parser.finish();
            owner = delta.part();
        }
        current = delta;
        parser.feed(delta.text());
        current = null;
        out = NO_OUTPUT;
    }

    private void partEnded(int part, List<ChatEvent> result) {
        if (part == owner) {
            out = result;
            parser.finish();
            out = NO_OUTPUT;
            owner = -1;
        }
        Route route = part < routes.length ? routes[part] : null;
        if (route != null && route.open && route.out >= 0) {
            route.open = false;
            result.add(new PartEnded(route.out));
        }
    }

    private void flush(List<ChatEvent> result) {
        out = result;
        parser.finish();
        out = NO_OUTPUT;
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
