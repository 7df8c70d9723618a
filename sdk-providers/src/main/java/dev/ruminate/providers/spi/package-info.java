/**
 * The provider skeleton, and the service-provider interface a provider family implements. A family
 * writes a {@link dev.ruminate.providers.spi.WireCodec} (endpoint, request encoder, stream decoder,
 * body decoder) and a client class extending {@link dev.ruminate.providers.spi.HttpChatProvider};
 * {@link dev.ruminate.providers.spi.ProviderPipeline} runs everything else the same way for every
 * family: history policy, authentication and signing, the HTTP exchange, framing, decoding with
 * error positions, think tags, timeouts and resilience. See {@code docs/adding-a-provider.md}.
 *
 * <p>An SPI for family authors: it may still change before 1.0.
 */
@NullMarked
package dev.ruminate.providers.spi;

import org.jspecify.annotations.NullMarked;
