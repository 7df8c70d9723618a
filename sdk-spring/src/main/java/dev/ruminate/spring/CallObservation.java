package dev.ruminate.spring;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Usage;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The measurements of one call, from subscription to its end. Reactive Streams signals are serial,
 * but a cancellation may come from another thread than the events, so the end is recorded once
 * ({@link AtomicBoolean}) and the state the end reads is volatile.
 */
final class CallObservation {

    private final Tags tags;
    private final @Nullable MeterRegistry meters;
    private final @Nullable Observation observation;
    private final long start;
    private volatile boolean started;
    private volatile Usage usage = Usage.UNKNOWN;
    /** The usage of attempts whose structured answer was refused (see {@link OutputChecked#retrying()}). */
    private volatile Usage refused = Usage.UNKNOWN;
    private final AtomicBoolean finished = new AtomicBoolean();

    CallObservation(String provider, String model, @Nullable MeterRegistry meters, @Nullable ObservationRegistry observations) {
        this.tags = Tags.of("provider", provider, "model", model);
        this.meters = meters;
        this.start = meters != null ? meters.config().clock().monotonicTime() : System.nanoTime();
        this.observation = observations == null ? null
                : Observation.createNotStarted(ObservingDecorator.OBSERVATION, observations)
                        .contextualName("chat " + provider)
                        .lowCardinalityKeyValue("ruminate.provider", provider)
                        .lowCardinalityKeyValue("ruminate.model", model)
                        .start();
    }

    @Nullable Observation observation() {
        return observation;
    }

    void onEvent(ChatEvent event) {
        if (event instanceof Warning warning) {
            // the SDK's note (a recovered rejection, say), not the model's first output: recorded, not timed
            if (observation != null) {
                observation.event(Observation.Event.of("ruminate.chat.warning", "warning " + warning.code()));
            }
            return;
        }
        if (event instanceof OutputChecked checked) {
            if (observation != null) {
                observation.event(Observation.Event.of("ruminate.chat.output-checked", "output " + checked.schemaName()
                        + (checked.valid() ? " valid" : checked.retrying() ? " invalid, retried" : " invalid")));
            }
            if (checked.retrying()) {
                // the refused attempt was paid for: its usage is kept, the corrective attempt's reports start afresh
                refused = refused.plus(usage);
                usage = Usage.UNKNOWN;
            }
            return;
        }
        if (!started) {
            started = true;
            if (meters != null) {
                Timer.builder(ObservingDecorator.FIRST_EVENT).description("Time from subscription to the first event")
                        .tags(tags).register(meters).record(elapsed(), TimeUnit.NANOSECONDS);
            }
            if (observation != null) {
                observation.event(Observation.Event.of("ruminate.chat.first-event", "first event"));
            }
        }
        if (event instanceof UsageUpdate update) {
            usage = usage.merge(update.usage());
        }
    }

    void succeeded() {
        finish("success", null);
    }

    void failed(Throwable failure) {
        finish("error", failure);
    }

    void cancelled() {
        finish("cancelled", null);
    }

    private void finish(String outcome, @Nullable Throwable failure) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        String exception = failure != null ? failure.getClass().getSimpleName() : "none";
        Usage used = refused.plus(usage);
        if (meters != null) {
            Timer.builder(ObservingDecorator.DURATION).description("Duration of a chat call")
                    .tags(tags).tag("outcome", outcome).tag("exception", exception)
                    .register(meters).record(elapsed(), TimeUnit.NANOSECONDS);
            if (failure != null) {
                // the error type is what alerts key on (rate_limited vs timeout); the class name says where it came from
                String type = failure instanceof RuminateException r ? r.type() : "other";
                meters.counter(ObservingDecorator.ERRORS, tags.and("exception", exception).and("error.type", type)).increment();
            }
            record(meters, "reasoning", used.reasoningTokens());
            record(meters, "output", used.outputTokens());
        }
        if (observation != null) {
            observation.lowCardinalityKeyValue(KeyValue.of("ruminate.outcome", outcome));
            if (used.reasoningTokens() != null) {
                observation.highCardinalityKeyValue("ruminate.tokens.reasoning", String.valueOf(used.reasoningTokens()));
            }
            if (used.outputTokens() != null) {
                observation.highCardinalityKeyValue("ruminate.tokens.output", String.valueOf(used.outputTokens()));
            }
            if (failure != null) {
                observation.error(failure);
            }
            observation.stop();
        }
    }

    private void record(MeterRegistry registry, String type, @Nullable Long tokens) {
        if (tokens != null) {
            DistributionSummary.builder(ObservingDecorator.TOKENS).description("Tokens of a chat call, by type")
                    .baseUnit("tokens").tags(tags).tag("type", type).register(registry).record(tokens);
        }
    }

    private long elapsed() {
        long now = meters != null ? meters.config().clock().monotonicTime() : System.nanoTime();
        return now - start;
    }
}
