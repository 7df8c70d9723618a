/**
 * JSON helpers shared by the provider packages; not exported, not API.
 */
@NullMarked
package dev.ruminate.providers.internal;

import org.jspecify.annotations.NullMarked;
