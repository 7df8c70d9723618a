/**
 * Splitting of reasoning that a model writes into its answer text between tags
 * ({@code <think>…</think>}) into {@link dev.ruminate.core.event.ReasoningDelta} events.
 *
 * <p>The entry point is {@link dev.ruminate.core.think.ThinkTags#splitter(ThinkTagOptions)}, a
 * {@code Flux} operator applied with {@code transform}; profiles of models that do this opt in.
 */
@NullMarked
package dev.ruminate.core.think;

import org.jspecify.annotations.NullMarked;
