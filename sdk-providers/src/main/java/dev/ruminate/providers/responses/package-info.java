/**
 * The OpenAI Responses API ({@code POST /responses}) and the servers that speak it (Azure OpenAI,
 * xAI, DeepSeek, OpenRouter, LM Studio, vLLM, Ollama, Bedrock's OpenAI endpoint), as one codec
 * configured by a {@link dev.ruminate.providers.responses.ResponsesProfile}.
 *
 * <p>{@link dev.ruminate.providers.responses.ResponsesProvider} is the HTTP client;
 * {@link dev.ruminate.providers.responses.ResponsesCodec} turns a request into JSON and a response
 * (streamed or whole) into {@link dev.ruminate.core.event.ChatEvent}s; {@link dev.ruminate.providers.responses.ResponsesProfiles}
 * holds the known servers. Output items are keyed by their {@code output_index}, so items that
 * close out of order, or whose ids change mid-stream, still reduce correctly; a reasoning item's id
 * and {@code encrypted_content} (from {@code response.output_item.done}) travel as seals on its
 * reasoning parts and go back on later turns.
 *
 * @see <a href="https://platform.openai.com/docs/api-reference/responses">OpenAI Responses API</a>
 */
@NullMarked
package dev.ruminate.providers.responses;

import org.jspecify.annotations.NullMarked;
