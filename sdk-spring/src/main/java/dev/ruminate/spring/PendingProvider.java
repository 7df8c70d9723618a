package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.providers.ProviderBuilder;
import java.util.function.Supplier;

/**
 * A provider's builder with the properties applied, and how to build it once the customizers have
 * run (the builders share a base type but each has its own {@code build()}).
 *
 * @param builder the builder, for {@link ChatProviderCustomizer}s
 * @param build builds the provider from that same builder
 */
record PendingProvider(ProviderBuilder<?> builder, Supplier<ChatProvider> build) {
}
