/**
 * Gateway keys (bearer tokens compared in constant time, never logged) and the per-key rate limit.
 */
@NullMarked
package dev.ruminate.gateway.auth;

import org.jspecify.annotations.NullMarked;
