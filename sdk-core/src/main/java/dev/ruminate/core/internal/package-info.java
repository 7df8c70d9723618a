/**
 * Implementation helpers shared by Ruminate's modules. Not an API: anything here may change in any
 * release.
 */
@NullMarked
package dev.ruminate.core.internal;

import org.jspecify.annotations.NullMarked;
