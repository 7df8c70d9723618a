/**
 * The provider-neutral conversation model: messages, the parts of an assistant message, usage and
 * finish reasons. All types are immutable records, safe to share across threads.
 */
@NullMarked
package dev.ruminate.core.message;

import org.jspecify.annotations.NullMarked;
