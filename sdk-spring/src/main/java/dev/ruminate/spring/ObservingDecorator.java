package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Wraps a provider so that every call ({@code stream} and {@code completeAsEvents}) is observed per
 * the OpenTelemetry semantic conventions for generative AI clients.
 *
 * <p>Observation {@value GenAiAttributes#OBSERVATION} (with the OpenTelemetry bridge a span named
 * e.g. {@code chat deepseek-reasoner}), named and tagged by a {@link GenAiObservationConvention}
 * ({@link DefaultGenAiObservationConvention} unless one is given) from a {@link GenAiObservationContext}.
 * It takes the caller's observation from the Reactor context as its parent, and is put in the Reactor
 * context of the call, so Reactor Netty's own observations nest under it.
 *
 * <p>Meters, tagged with the convention's low-cardinality key values (a key it leaves out, such as
 * {@code error.type} on success, is tagged {@code none}):
 * <ul>
 *   <li>{@value GenAiAttributes#OPERATION_DURATION} (timer): the whole call;</li>
 *   <li>{@value GenAiAttributes#TIME_TO_FIRST_CHUNK} (timer): from subscription to the first chunk;</li>
 *   <li>{@value GenAiAttributes#TOKEN_USAGE} (distribution summary, base unit {@code tokens}): the input
 *       and output tokens of the call, tagged {@code gen_ai.token.type} ({@code input}, {@code output}).</li>
 * </ul>
 *
 * <p>Prompts and completions are recorded only with {@code captureContent}.
 *
 * <p>Thread-safe. The registries are read when a provider is decorated; without either, providers
 * are returned unchanged.
 *
 * @since 0.1
 */
public final class ObservingDecorator implements ChatProviderDecorator {

    private final Supplier<@Nullable MeterRegistry> meters;
    private final Supplier<@Nullable ObservationRegistry> observations;
    private final @Nullable GenAiObservationConvention convention;
    private final boolean captureContent;

    /**
     * Creates a decorator with the default convention that records no content.
     *
     * @param meters supplies the meter registry, or null for no meters
     * @param observations supplies the observation registry, or null for no observations
     */
    public ObservingDecorator(Supplier<@Nullable MeterRegistry> meters,
                              Supplier<@Nullable ObservationRegistry> observations) {
        this(meters, observations, null, false);
    }

    /**
     * Creates a decorator.
     *
     * @param meters supplies the meter registry, or null for no meters
     * @param observations supplies the observation registry, or null for no observations
     * @param convention the convention naming and tagging the observations and meters, or null for
     *     {@link DefaultGenAiObservationConvention}
     * @param captureContent whether prompts and completions may be recorded
     */
    public ObservingDecorator(Supplier<@Nullable MeterRegistry> meters,
                              Supplier<@Nullable ObservationRegistry> observations,
                              @Nullable GenAiObservationConvention convention, boolean captureContent) {
        this.meters = Objects.requireNonNull(meters, "meters");
        this.observations = Objects.requireNonNull(observations, "observations");
        this.convention = convention;
        this.captureContent = captureContent;
    }

    @Override
    public ChatProvider decorate(String name, ChatProvider provider) {
        MeterRegistry meterRegistry = meters.get();
        ObservationRegistry observationRegistry = observations.get();
        if (meterRegistry == null && observationRegistry == null) {
            return provider;
        }
        return new ObservedChatProvider(name, provider, meterRegistry, observationRegistry, convention, captureContent);
    }
}
