package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;

/**
 * Wraps each configured provider once it is built: how the Micrometer observations are added, and
 * how you add your own cross-cutting behaviour (logging, auditing, request defaults). Every bean of
 * this type is applied, in {@code @Order}, the first one innermost.
 *
 * <p>Called once per provider at startup. The returned provider must honour the
 * {@link ChatProvider} contract: thread-safe, cold publishers, cancellation passed upstream.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface ChatProviderDecorator {

    /**
     * Wraps one provider.
     *
     * @param name the configured name ({@code ruminate.providers.<name>})
     * @param provider the provider built from the properties (or by an earlier decorator)
     * @return the provider to expose
     */
    ChatProvider decorate(String name, ChatProvider provider);
}
