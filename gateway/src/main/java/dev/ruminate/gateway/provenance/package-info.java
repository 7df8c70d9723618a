/**
 * Where each assistant turn a client sends came from, and what the backend may therefore receive of its reasoning and opaque state.
 */
@NullMarked
package dev.ruminate.gateway.provenance;

import org.jspecify.annotations.NullMarked;
