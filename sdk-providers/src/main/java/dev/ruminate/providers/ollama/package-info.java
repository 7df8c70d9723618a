/**
 * Ollama's native API: {@code /api/chat} (and {@code /api/generate}) streamed as newline-delimited
 * JSON, with reasoning in {@code message.thinking} (top-level {@code thinking} on generate), whole
 * tool calls, and a last line {@code "done": true} carrying {@code done_reason} and the eval counts.
 *
 * <p>{@link dev.ruminate.providers.ollama.OllamaProvider} makes the calls;
 * {@link dev.ruminate.providers.ollama.OllamaCodec} encodes requests and decodes lines and bodies
 * into {@link dev.ruminate.core.event.ChatEvent}s without HTTP. Ollama's OpenAI-compatible endpoint
 * is a Chat Completions profile instead ({@code Profiles.OLLAMA}).
 *
 * @see <a href="https://github.com/ollama/ollama/blob/main/docs/api.md">Ollama API</a>
 */
@NullMarked
package dev.ruminate.providers.ollama;

import org.jspecify.annotations.NullMarked;
