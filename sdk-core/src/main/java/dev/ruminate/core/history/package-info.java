/**
 * The provider-neutral half of sending a conversation back: which earlier reasoning is kept
 * (retention), and what happens to reasoning and opaque state that another provider produced
 * (switching). Each provider's request encoder then writes what is left in its own shape.
 */
@NullMarked
package dev.ruminate.core.history;

import org.jspecify.annotations.NullMarked;
