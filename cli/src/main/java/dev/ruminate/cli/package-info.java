/**
 * The {@code ruminate} command line: {@code demo}, {@code replay} and {@code chat}. Not a library
 * API.
 */
@NullMarked
package dev.ruminate.cli;

import org.jspecify.annotations.NullMarked;
