package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Wraps a provider so that every call ({@code stream} and {@code completeAsEvents}) is measured.
 *
 * <p>Meters, each tagged {@code provider} (the configured name) and {@code model} (the request's):
 * <ul>
 *   <li>{@value #FIRST_EVENT} (timer): from subscription to the first event;</li>
 *   <li>{@value #DURATION} (timer): the whole call, also tagged {@code outcome}
 *       ({@code success}, {@code error}, {@code cancelled}) and {@code exception} (the error's
 *       simple class name, or {@code none});</li>
 *   <li>{@value #TOKENS} (distribution summary, base unit {@code tokens}): the reasoning and
 *       output tokens of the last usage the provider reported, tagged {@code type}
 *       ({@code reasoning}, {@code output});</li>
 *   <li>{@value #ERRORS} (counter): failed calls, tagged {@code exception} (simple class name) and
 *       {@code error.type} (Ruminate's error type, e.g. {@code rate_limited}, {@code timeout}; {@code other}
 *       for a failure that is not Ruminate's).</li>
 * </ul>
 *
 * <p>Observation {@value #OBSERVATION}, with the low-cardinality keys {@code ruminate.provider},
 * {@code ruminate.model} and {@code ruminate.outcome}, an event at the first event, the error if the
 * call fails, and the token counts as high-cardinality keys. It is put in the Reactor context of the
 * call, so Reactor Netty's own observations nest under it.
 *
 * <p>Thread-safe. The registries are read when a provider is decorated; without either, providers
 * are returned unchanged.
 *
 * @since 0.1
 */
public final class ObservingDecorator implements ChatProviderDecorator {

    /** The time-to-first-event timer. */
    public static final String FIRST_EVENT = "ruminate.chat.first.event";
    /** The call duration timer. */
    public static final String DURATION = "ruminate.chat.duration";
    /** The token distribution summary. */
    public static final String TOKENS = "ruminate.chat.tokens";
    /** The failed-call counter. */
    public static final String ERRORS = "ruminate.chat.errors";
    /** The observation name. */
    public static final String OBSERVATION = "ruminate.chat";

    private final Supplier<@Nullable MeterRegistry> meters;
    private final Supplier<@Nullable ObservationRegistry> observations;

    /**
     * Creates a decorator.
     *
     * @param meters supplies the meter registry, or null for no meters
     * @param observations supplies the observation registry, or null for no observations
     */
    public ObservingDecorator(Supplier<@Nullable MeterRegistry> meters,
                              Supplier<@Nullable ObservationRegistry> observations) {
        this.meters = Objects.requireNonNull(meters, "meters");
        this.observations = Objects.requireNonNull(observations, "observations");
    }

    @Override
    public ChatProvider decorate(String name, ChatProvider provider) {
        MeterRegistry meterRegistry = meters.get();
        ObservationRegistry observationRegistry = observations.get();
        if (meterRegistry == null && observationRegistry == null) {
            return provider;
        }
        return new ObservedChatProvider(name, provider, meterRegistry, observationRegistry);
    }
}
