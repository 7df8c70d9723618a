package dev.ruminate.core.think;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.internal.Expanding;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * Splits reasoning that a model writes into its answer between tags ({@code <think>…</think>})
 * out of the {@link ContentDelta} events of a response.
 *
 * <p>Use it on the events of a provider whose models do this (a profile opts in):
 * <pre>{@code
 * Flux<ChatEvent> events = provider.stream(request).transform(ThinkTags.splitter());
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class ThinkTags {

    /** Events requested ahead of demand, as Reactor's default prefetch. */
    private static final int PREFETCH = 256;

    private ThinkTags() {
    }

    /**
     * Returns an operator that splits think tags with the {@linkplain ThinkTagOptions#DEFAULT
     * default} options ({@code <think>}, {@code </think>}, output beginning outside).
     *
     * @return the operator, for {@link Flux#transform}
     * @see #splitter(ThinkTagOptions)
     * @since 0.1
     */
    public static Function<Flux<ChatEvent>, Flux<ChatEvent>> splitter() {
        return splitter(ThinkTagOptions.DEFAULT);
    }

    /**
     * Returns an operator that turns the text between the tags of each {@link ContentDelta} into
     * {@link ReasoningDelta} events (source {@code "tags"}, not a summary) and the rest into
     * content deltas, wherever the tags are split between deltas.
     *
     * <p>Text comes out exactly as the model wrote it, less the tags that open and close reasoning:
     * whitespace around the tags (usually a newline after each) is kept. Text that only looks like
     * a tag ({@code <thinking>}, {@code a < b}) is left alone.
     *
     * <p>Parts are renumbered: one content part becomes one output part per run of reasoning or of
     * text, in order, and the part of each run is ended ({@link PartEnded}) when the next run
     * begins. All other parts keep their events and get the next free index when first seen, so
     * the output indices are dense, zero-based and in the order the output parts first appear.
     * Empty content deltas are dropped.
     *
     * <p><b>Backpressure:</b> honoured; one upstream event may become several, so the operator
     * prefetches a bounded number of upstream events.
     *
     * <p><b>Cancellation:</b> passed upstream; text held back while a tag was undecided is
     * discarded.
     *
     * <p><b>Errors:</b> an upstream error is passed on after any text still held back (a suffix
     * that might have been the start of a tag), so nothing the model produced is lost. At the
     * upstream's completion, or at {@link dev.ruminate.core.event.ResponseCompleted}, held-back
     * text is emitted as text of the current mode: an unclosed reasoning block stays reasoning.
     *
     * <p>Each subscription gets its own state; the returned function is stateless and may be
     * shared.
     *
     * @param options the tags and the starting mode
     * @return the operator, for {@link Flux#transform}
     * @throws NullPointerException if {@code options} is null
     * @since 0.1
     */
    public static Function<Flux<ChatEvent>, Flux<ChatEvent>> splitter(ThinkTagOptions options) {
        Objects.requireNonNull(options, "options");
        // One operator, one reused output list: no list, iterator or inner flux per delta. The held-back text goes
        // out ahead of an upstream error (Expander.error), so events already received are rewritten before it.
        return upstream -> Expanding.expand(upstream, () -> new ThinkTagSplitter(options), PREFETCH);
    }
}
