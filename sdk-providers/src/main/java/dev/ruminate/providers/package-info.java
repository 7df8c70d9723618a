/**
 * Ruminate's provider APIs: one package per API, and here what their clients share.
 */
@NullMarked
package dev.ruminate.providers;

import org.jspecify.annotations.NullMarked;
