package dev.ruminate.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code ruminate.observations.*} properties: what the GenAI observations may record.
 *
 * <pre>{@code
 * ruminate.observations.capture-content=true
 * }</pre>
 *
 * <p>Immutable and thread-safe (bound once at startup).
 *
 * @param captureContent whether the observations record prompts and completions
 *     ({@code gen_ai.system_instructions}, {@code gen_ai.input.messages}, {@code gen_ai.output.messages});
 *     off by default, as they may hold personal or confidential data. Credentials are never recorded.
 * @since 0.4
 */
@ConfigurationProperties("ruminate.observations")
public record RuminateObservationProperties(@DefaultValue("false") boolean captureContent) {
}
