/**
 * The OpenAI Chat Completions API and the family of servers that speak it (DeepSeek, vLLM,
 * llama.cpp, Ollama, OpenRouter, Groq, xAI, Z.ai GLM, Chutes, Perplexity, DashScope Qwen, Cerebras,
 * Snowflake Cortex, Mistral with its thinking chunks, …), as one codec configured by a
 * {@link dev.ruminate.providers.chatcompletions.CompatProfile}.
 *
 * <p>A profile says where the server is, how it authenticates, which fields carry reasoning, how
 * reasoning is requested and how it goes back on later turns. {@link dev.ruminate.providers.chatcompletions.Profiles}
 * holds the known ones; a user adds a server by building a profile, without writing a decoder.
 * {@link dev.ruminate.providers.chatcompletions.ChatCompletionsCodec} is the entry point that turns a
 * request into JSON and a response (streamed or whole) into {@link dev.ruminate.core.event.ChatEvent}s.
 *
 * <p>The server side answers Chat Completions clients from any provider:
 * {@link dev.ruminate.providers.chatcompletions.ChatCompletionsRequestReader} reads a client's request
 * into a {@link dev.ruminate.providers.chatcompletions.ChatCompletionsCall}, and
 * {@link dev.ruminate.providers.chatcompletions.ChatCompletionsStreamEncoder} writes the answer's
 * events as chunks or as one body, with the reasoning of any provider as {@code reasoning_content}.
 *
 * @see <a href="https://platform.openai.com/docs/api-reference/chat">OpenAI Chat Completions</a>
 */
@NullMarked
package dev.ruminate.providers.chatcompletions;

import org.jspecify.annotations.NullMarked;
