package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.json.SseFrame;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Encodes Ruminate events, from any provider, as an OpenAI Chat Completions answer (a stream of
 * {@code chat.completion.chunk}s, or one {@code chat.completion} body), so that a service can expose a
 * Chat Completions endpoint in front of any model and its clients see that model's reasoning.
 *
 * <p><b>The stream.</b> Every chunk has {@code id} ({@code chatcmpl-…}), {@code object}, {@code created},
 * {@code model} and one choice (index 0) with a {@code delta}, {@code logprobs: null} and
 * {@code finish_reason}; {@code system_fingerprint} is left out, as OpenAI does for models without
 * one. The first chunk's delta is {@code {"role":"assistant","content":""}}; reasoning goes in
 * {@code delta.reasoning_content} (or {@code delta.reasoning}, or both:
 * {@link ChatCompletionsStreamOptions#reasoningField()}), whatever the upstream's form (a
 * {@code reasoning_content} field, {@code <think>} tags once split, Anthropic or Bedrock thinking,
 * Gemini thoughts, Responses reasoning text or summaries): the texts of several reasoning parts
 * follow each other as they came. Answer text goes in {@code delta.content}; a tool call in
 * {@code delta.tool_calls[{index, id, type:"function", function:{name, arguments}}]}, announced with
 * its name (arguments that arrive before the name wait for it) and its arguments streamed in later
 * fragments of the same index; a call the upstream gave no id (Gemini) gets
 * {@code call_<completion id>_<index>}. The last choice chunk has an empty delta and the
 * {@code finish_reason}: {@code stop}, {@code length}, {@code tool_calls} (also for a response that
 * called tools and reports a plain stop) or {@code content_filter}. With
 * {@link ChatCompletionsStreamOptions#includeUsage()}, every chunk before has {@code "usage": null}
 * and a last chunk with {@code "choices": []} carries {@code usage} ({@code prompt_tokens},
 * {@code completion_tokens}, {@code total_tokens}, {@code prompt_tokens_details.cached_tokens},
 * {@code completion_tokens_details.reasoning_tokens}, 0 for a count the upstream did not report,
 * since typed clients declare every one). Then {@code data: [DONE]}. Every frame's event name is
 * {@code message}, the SSE default: OpenAI writes no {@code event:} line, and a service may leave it
 * out.
 *
 * <p><b>Failures.</b> When the upstream fails, before any event or after some, when it ends without
 * {@code ResponseCompleted}, or when it completes with {@code FinishReason.ERROR}, the stream's last
 * frame is {@code data: {"error": {"message","type","param","code"}}} from
 * {@link dev.ruminate.providers.serving.OpenAiError#ofUpstreamFailure}, with no excerpt of the
 * upstream's payload, and no {@code [DONE]} follows. The encoded flux itself never fails for an
 * upstream failure. What clients do with that chunk (read from their sources, and tried against
 * these chunks served over HTTP):
 * <ul>
 *   <li>openai-node 6.x ({@code core/streaming.js}, {@code Stream.fromSSEResponse}) parses each
 *       {@code data:} line and, when the object has an {@code error}, throws
 *       {@code new APIError(undefined, data.error, …)}: the iteration fails with an {@code APIError}
 *       whose {@code message}, {@code type}, {@code code} and {@code param} are this error's (its
 *       {@code status} is undefined, a stream having no status of its own).</li>
 *   <li>{@code @ai-sdk/openai} 3.x ({@code OpenAIChatLanguageModel}) reads chunks against a union of
 *       the chunk schema and {@code {error:{message,type?,param?,code?}}}. An error before any text or
 *       tool call makes {@code doStream} reject with an {@code APICallError} whose status it derives
 *       from the code and type (429 for {@code rate_limit_exceeded}, else 500) and which it marks
 *       retryable; an error after output becomes an {@code error} stream part, finish reason
 *       {@code error}. {@code @ai-sdk/openai-compatible} 2.x always makes it an {@code error} part.</li>
 * </ul>
 *
 * <p><b>Reasoning and the AI SDK.</b> {@code @ai-sdk/openai}'s chat model (3.0.x) reads neither
 * {@code reasoning_content} nor {@code reasoning}: its chunk schema declares only {@code role},
 * {@code content}, {@code refusal}, {@code tool_calls} and {@code annotations}, so the reasoning is
 * dropped there (its Responses model is the way to reasoning with that package).
 * {@code @ai-sdk/openai-compatible} reads {@code delta.reasoning_content ?? delta.reasoning} as
 * reasoning parts, and sends it back as {@code reasoning_content} on assistant messages.
 * openai-node passes unknown delta fields through untyped, so its users read
 * {@code chunk.choices[0].delta.reasoning_content}. openai-java 4.x accepts these chunks and bodies
 * with {@code validate()}, and gives the reasoning as
 * {@code delta()._additionalProperties().get("reasoning_content")}.
 *
 * <p><b>Left out on purpose</b>: opaque provider state ({@code Seal}s: Anthropic signatures, another
 * server's encrypted reasoning, item ids), because Chat Completions has no field that brings it back
 * to the service, it means nothing to the client, and browsers must not receive it; and server tool
 * blocks, which name the upstream provider's own tools and have no Chat Completions form.
 *
 * <p>Stateless and thread-safe; each subscription encodes independently. <b>Backpressure</b> is
 * honoured and <b>cancellation</b> propagates upstream.
 *
 * @since 0.2
 */
public final class ChatCompletionsStreamEncoder {

    private ChatCompletionsStreamEncoder() {
    }

    /**
     * Encodes events as a Chat Completions stream.
     *
     * @param events the events of one response
     * @param options the completion id, creation time, model, usage chunk and reasoning field
     * @return the SSE frames: event name {@code message}, data a chunk's JSON, or {@code [DONE]} last.
     *     The flux completes after {@code [DONE]} or after an error chunk, and never signals an error
     *     for an upstream failure
     */
    public static Flux<SseFrame> encode(Flux<ChatEvent> events, ChatCompletionsStreamOptions options) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(options, "options");
        return Flux.defer(() -> {
            CompletionChunkWriter writer = new CompletionChunkWriter(options);
            return events.concatMapIterable(writer::onEvent)
                    .concatWith(Flux.defer(() -> Flux.fromIterable(writer.onComplete())))
                    .onErrorResume(e -> Flux.fromIterable(writer.onError(e)));
        });
    }

    /**
     * Encodes events as one non-streaming {@code chat.completion} body: {@code id}, {@code object},
     * {@code created}, {@code model}, one choice whose {@code message} has {@code role},
     * {@code content} (null when the answer is only tool calls), {@code reasoning_content} (or
     * {@code reasoning}, or both; left out when there is no reasoning), {@code refusal: null} and
     * {@code tool_calls} (when there are any), with {@code logprobs: null} and the
     * {@code finish_reason}; and {@code usage} as in the stream's usage chunk. Seals and server tool
     * blocks are left out, as in the stream.
     *
     * @param events the events of one response
     * @param options the completion id, creation time, model and reasoning field
     *     ({@code includeUsage} is ignored: a body always has usage)
     * @return the JSON body. It fails with the upstream's own exception when the upstream fails (map
     *     it with {@link dev.ruminate.providers.serving.OpenAiError#ofUpstreamFailure}), with
     *     {@link dev.ruminate.core.error.IncompleteStreamException} when the upstream ends before
     *     {@code ResponseCompleted}, and with {@link dev.ruminate.core.error.ProviderStreamException}
     *     when the upstream completes with {@code FinishReason.ERROR}
     */
    public static Mono<String> encodeBody(Flux<ChatEvent> events, ChatCompletionsStreamOptions options) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(options, "options");
        return Mono.defer(() -> {
            CompletionBodyWriter writer = new CompletionBodyWriter(options);
            return events.doOnNext(writer::onEvent).then(Mono.fromCallable(writer::body));
        });
    }
}
