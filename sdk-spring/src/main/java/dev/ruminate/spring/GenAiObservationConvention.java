package dev.ruminate.spring;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observation of a generative AI call from its {@link GenAiObservationContext}.
 * Define a bean of this type to replace {@link DefaultGenAiObservationConvention}, or extend that
 * class to add or change a few key values. The meters Ruminate records take their tags from
 * {@link #getLowCardinalityKeyValues}, so a replacement changes both.
 *
 * <p>Implementations must be thread-safe and must not fail: they are called when the observation
 * starts and when it stops, on whichever thread the call ends.
 *
 * @since 0.4
 */
public interface GenAiObservationConvention extends ObservationConvention<GenAiObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof GenAiObservationContext;
    }
}
