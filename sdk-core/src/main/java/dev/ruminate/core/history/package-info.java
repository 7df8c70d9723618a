/**
 * The provider-neutral half of sending a conversation back: which earlier reasoning is kept
 * (retention), what happens to reasoning and opaque state that another provider or another
 * endpoint identity produced (switching, boundaries), which opaque values are sound enough to send
 * (integrity), and the explained plan of it all ({@link dev.ruminate.core.history.SendBackPlan}).
 * Each provider's request encoder then writes what is left in its own shape.
 */
@NullMarked
package dev.ruminate.core.history;

import org.jspecify.annotations.NullMarked;
