/**
 * The typed errors every Ruminate publisher fails with. All are unchecked subclasses of
 * {@link dev.ruminate.core.error.RuminateException}; an error that ends a stream after some events
 * carries the partial message reduced so far ({@link dev.ruminate.core.error.RuminateException#partial()}).
 * No message, field or {@code toString} of these types ever contains an API key.
 */
@NullMarked
package dev.ruminate.core.error;

import org.jspecify.annotations.NullMarked;
