/**
 * Reduction: folding a stream of {@link dev.ruminate.core.event.ChatEvent}s into the final
 * {@link dev.ruminate.core.message.AssistantMessage}, with the reasoning check against the
 * provider's own final reasoning.
 */
@NullMarked
package dev.ruminate.core.reduce;

import org.jspecify.annotations.NullMarked;
