/**
 * The reasoning gateway: OpenAI Responses ({@code POST /v1/responses}) and Chat Completions
 * ({@code POST /v1/chat/completions}) endpoints, with {@code GET /v1/models}, served on Spring
 * WebFlux in front of any Ruminate provider, routed by model name. Each backend receives earlier
 * turns' reasoning by its own send-back rules; opaque state the gateway hands to stateless clients
 * is sealed ({@link dev.ruminate.gateway.state}); stored responses and items live in an
 * {@link dev.ruminate.gateway.store.ItemStore}.
 */
@NullMarked
package dev.ruminate.gateway;

import org.jspecify.annotations.NullMarked;
