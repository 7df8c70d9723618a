package dev.ruminate.providers.responses;

/**
 * How {@link ResponsesStreamEncoder} writes raw reasoning (DeepSeek's {@code reasoning_content},
 * think tags, Anthropic thinking, Gemini thoughts, …): as reasoning <em>summary</em>, which every
 * client reads, or as reasoning <em>text</em>, which only some do.
 *
 * <p>Why: the Vercel AI SDK's OpenAI provider ({@code @ai-sdk/openai} 3.0.x, checked in its
 * {@code dist/index.js}) reads reasoning only from {@code response.reasoning_summary_part.added},
 * {@code response.reasoning_summary_text.delta} and {@code response.reasoning_summary_part.done}
 * while streaming (from {@code response.output_item.done} it takes only {@code encrypted_content}),
 * and only from {@code summary[]} in a whole response; it ignores {@code response.reasoning_text.*}
 * and {@code content[]}. Raw reasoning written as reasoning text reaches its users as one empty
 * reasoning part. The official OpenAI SDKs (openai-node 6.x's {@code ResponseAccumulator}) read
 * both families and replace each item with the one of {@code response.output_item.done}.
 *
 * <p>Why not both at once: a client that reads both families (Ruminate's own Responses decoder, and
 * UIs that show reasoning text and summary) would show the text twice, and an item holding it in
 * {@code summary[]} and {@code content[]} would hold it twice in the response object.
 *
 * @since 0.2
 */
public enum ReasoningSummaries {

    /**
     * Raw reasoning goes out as summary: {@code response.reasoning_summary_part.*} and
     * {@code response.reasoning_summary_text.*} events (summary index 0), and the item holds it in
     * {@code summary[]} (type {@code summary_text}) with no {@code content}. Every client finds the
     * text, once; what a client cannot tell is whether the upstream's reasoning was raw or a summary.
     * The default.
     */
    MIRROR,

    /**
     * Raw reasoning goes out as {@code response.content_part.*} and {@code response.reasoning_text.*}
     * events and stays in the item's {@code content[]} (type {@code reasoning_text}), {@code summary}
     * empty, as OpenAI's open-weight model servers write it: for clients that tell raw reasoning from
     * summaries.
     */
    OFF
}
