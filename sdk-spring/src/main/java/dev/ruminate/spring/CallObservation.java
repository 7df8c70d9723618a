package dev.ruminate.spring;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Usage;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The observation and meters of one call, from subscription to its end: fills a
 * {@link GenAiObservationContext} from the events, stops the observation and records the GenAI
 * meters with the convention's low-cardinality tags. Reactive Streams signals are serial, but a
 * cancellation may come from another thread than the events, so the end is recorded once
 * ({@link AtomicBoolean}) and the state the end reads is volatile (in the context).
 */
final class CallObservation {

    /**
     * The tag keys of every meter, always all present: a registry such as Prometheus's needs one key
     * set per meter name, so a key the convention leaves out (error.type on success) is tagged none.
     */
    private static final List<String> METER_KEYS = List.of(GenAiAttributes.OPERATION_NAME,
            GenAiAttributes.PROVIDER_NAME, GenAiAttributes.REQUEST_MODEL, GenAiAttributes.RESPONSE_MODEL,
            GenAiAttributes.ERROR_TYPE, GenAiAttributes.RUMINATE_PROVIDER, GenAiAttributes.RUMINATE_OUTCOME);

    private final GenAiObservationContext context;
    private final GenAiObservationConvention convention;
    private final @Nullable MeterRegistry meters;
    private final Observation observation;
    private final long start;
    private volatile boolean started;
    private volatile Usage usage = Usage.UNKNOWN;
    /** The usage of attempts whose structured answer was refused (see {@link OutputChecked#retrying()}). */
    private volatile Usage refused = Usage.UNKNOWN;
    private final AtomicBoolean finished = new AtomicBoolean();

    CallObservation(GenAiObservationContext context, GenAiObservationConvention convention,
                    @Nullable GenAiObservationConvention custom, @Nullable MeterRegistry meters,
                    @Nullable ObservationRegistry observations, @Nullable Observation parent) {
        this.context = context;
        // the custom convention names the observation and tags the meters alike
        this.convention = custom != null ? custom : convention;
        this.meters = meters;
        this.start = meters != null ? meters.config().clock().monotonicTime() : System.nanoTime();
        Observation created = Observation.createNotStarted(custom, convention, () -> context,
                observations != null ? observations : ObservationRegistry.NOOP);
        if (parent != null) {
            created.parentObservation(parent);
        }
        this.observation = created.start();
    }

    Observation observation() {
        return observation;
    }

    void onEvent(ChatEvent event) {
        if (event instanceof Warning warning) {
            // the SDK's note (a recovered rejection, say), not the model's output: recorded, not timed
            observation.event(Observation.Event.of("ruminate.chat.warning", "warning " + warning.code()));
            return;
        }
        if (event instanceof OutputChecked checked) {
            observation.event(Observation.Event.of("ruminate.chat.output-checked", "output " + checked.schemaName()
                    + (checked.valid() ? " valid" : checked.retrying() ? " invalid, retried" : " invalid")));
            if (checked.retrying()) {
                // the refused attempt was paid for: its usage is kept, the corrective attempt's reports start afresh
                refused = refused.plus(usage);
                usage = Usage.UNKNOWN;
                context.usage(refused);
            }
            return;
        }
        if (!started) {
            started = true;
            context.timeToFirstChunk(Duration.ofNanos(elapsed()));
            observation.event(Observation.Event.of("ruminate.chat.first-chunk", "first chunk"));
        }
        if (event instanceof ResponseStarted response) {
            if (response.model() != null) {
                context.responseModel(response.model());
            }
            if (response.responseId() != null) {
                context.responseId(response.responseId());
            }
        } else if (event instanceof ContentDelta delta) {
            context.appendText(delta.text());
        } else if (event instanceof ReasoningDelta delta) {
            context.appendReasoning(delta.text());
        } else if (event instanceof UsageUpdate update) {
            usage = usage.merge(update.usage());
            context.usage(refused.plus(usage));
        } else if (event instanceof ResponseCompleted completed) {
            context.finishReason(completed.finishReason().wireName());
        }
    }

    void succeeded() {
        finish(GenAiObservationContext.Outcome.SUCCESS, null);
    }

    void failed(Throwable failure) {
        finish(GenAiObservationContext.Outcome.ERROR, failure);
    }

    void cancelled() {
        finish(GenAiObservationContext.Outcome.CANCELLED, null);
    }

    private void finish(GenAiObservationContext.Outcome outcome, @Nullable Throwable failure) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        long elapsed = elapsed();
        context.outcome(outcome);
        if (failure != null) {
            observation.error(failure);
            // without an observation registry the context is not the noop observation's: set the error for the meters
            context.setError(failure);
        }
        observation.stop();
        if (meters != null) {
            record(meters, elapsed);
        }
    }

    private void record(MeterRegistry registry, long elapsed) {
        Tags tags = meterTags();
        Timer.builder(GenAiAttributes.OPERATION_DURATION).description("Duration of a GenAI client operation")
                .tags(tags).register(registry).record(elapsed, TimeUnit.NANOSECONDS);
        Duration first = context.timeToFirstChunk();
        if (first != null) {
            Timer.builder(GenAiAttributes.TIME_TO_FIRST_CHUNK)
                    .description("Time from the request to the first chunk of the response stream")
                    .tags(tags).register(registry).record(first);
        }
        Usage used = context.usage();
        tokens(registry, tags, "input", used.inputTokens());
        tokens(registry, tags, "output", used.outputTokens());
    }

    private Tags meterTags() {
        Map<String, String> tags = new LinkedHashMap<>();
        for (KeyValue keyValue : convention.getLowCardinalityKeyValues(context)) {
            tags.put(keyValue.getKey(), keyValue.getValue());
        }
        for (String key : METER_KEYS) {
            tags.putIfAbsent(key, "none");
        }
        List<Tag> list = new ArrayList<>();
        tags.forEach((key, value) -> list.add(Tag.of(key, value)));
        return Tags.of(list);
    }

    private static void tokens(MeterRegistry registry, Tags tags, String type, @Nullable Long tokens) {
        if (tokens != null) {
            DistributionSummary.builder(GenAiAttributes.TOKEN_USAGE).description("Tokens used by a GenAI operation")
                    .baseUnit("tokens").tags(tags).tag(GenAiAttributes.TOKEN_TYPE, type).register(registry)
                    .record(tokens);
        }
    }

    private long elapsed() {
        long now = meters != null ? meters.config().clock().monotonicTime() : System.nanoTime();
        return now - start;
    }
}
