/**
 * The Anthropic Messages API ({@code POST /v1/messages}): request encoding with extended and
 * adaptive thinking, and decoding of streamed and whole responses into
 * {@link dev.ruminate.core.event.ChatEvent}s, thinking, redacted thinking, tool use and the blocks
 * of server-run tools included.
 *
 * <p>{@link dev.ruminate.providers.anthropic.AnthropicProvider} makes the HTTP calls;
 * {@link dev.ruminate.providers.anthropic.AnthropicCodec} is the codec alone, for callers with their
 * own transport.
 *
 * @see <a href="https://docs.anthropic.com/en/api/messages">Anthropic Messages API</a>
 */
@NullMarked
package dev.ruminate.providers.anthropic;

import org.jspecify.annotations.NullMarked;
