/**
 * The event model: a sealed hierarchy of immutable records that every provider's stream is decoded
 * into.
 *
 * <p>Every event that contributes to the message names the <em>part</em> it belongs to: a dense,
 * zero-based index in the order the provider produced its output. Part indices are assigned by the
 * decoder (never reused within a response), so a reducer or a UI never has to guess boundaries:
 * a new index is a new part, and {@link dev.ruminate.core.event.PartEnded} says when a part is over.
 */
@NullMarked
package dev.ruminate.core.event;

import org.jspecify.annotations.NullMarked;
