/**
 * Ruminate's provider-neutral entry points: the {@link dev.ruminate.core.ChatProvider} SPI that every
 * provider implements.
 *
 * <p>Everything in this module is provider-neutral: no class here names a provider. Types are
 * non-null unless annotated {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package dev.ruminate.core;

import org.jspecify.annotations.NullMarked;
