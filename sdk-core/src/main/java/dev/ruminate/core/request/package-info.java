/**
 * What to ask a provider: the immutable {@link dev.ruminate.core.request.ChatRequest} with its
 * messages, tools, reasoning and sampling options, and provider-specific extras.
 */
@NullMarked
package dev.ruminate.core.request;

import org.jspecify.annotations.NullMarked;
