/**
 * Opaque state for stateless clients: what a backend needs back on the next turn (signatures,
 * encrypted blobs, raw reasoning), sealed under the gateway's key into the {@code encrypted_content}
 * of a Responses reasoning item, and opened, checked and restored byte for byte when it comes back.
 */
@NullMarked
package dev.ruminate.gateway.state;

import org.jspecify.annotations.NullMarked;
