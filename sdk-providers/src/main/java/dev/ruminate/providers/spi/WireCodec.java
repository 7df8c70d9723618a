package dev.ruminate.providers.spi;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a provider family writes, and all it writes: where a call goes, how a request is encoded,
 * how a streamed response's frames and a whole response body are decoded. Everything else, the
 * history policy before encoding, authentication and signing, the HTTP exchange, framing, error
 * positions, think-tag splitting, timeouts and resilience, is done once for every family by
 * {@link ProviderPipeline}. See {@code docs/adding-a-provider.md}.
 *
 * <p><b>Threading.</b> Implementations are immutable and thread-safe: one codec serves every call
 * of a provider.
 *
 * @param <F> the frame type of the API's streaming framing
 * @since 0.1
 */
public interface WireCodec<F> {

    /**
     * Returns the id of the API this codec speaks, one of {@link ApiIds}: recorded, with the
     * provider name and endpoint, as the {@link dev.ruminate.core.message.Origin} of every response
     * and of the opaque state it makes.
     *
     * @return the API id, such as {@value ApiIds#ANTHROPIC_MESSAGES}
     */
    String api();

    /**
     * Returns the framing of streamed responses.
     *
     * @return {@link StreamFraming#SSE}, {@link StreamFraming#NDJSON},
     *     {@link StreamFraming#EVENT_STREAM}, {@link StreamFraming#JSON_ARRAY} or
     *     {@link StreamFraming#SSE_OR_JSON_ARRAY}
     */
    StreamFraming<F> framing();

    /**
     * Returns the endpoint of a call.
     *
     * @param base the API root
     * @param request the request (some APIs put the model in the path)
     * @param stream true for a streamed call
     * @return the URI to {@code POST} to
     */
    URI endpoint(BaseUrl base, ChatRequest request, boolean stream);

    /**
     * Returns the family's knowledge of its opaque values (well-formedness, model binding, checks
     * across a turn), which {@link ProviderPipeline} hands to
     * {@link dev.ruminate.core.history.History#plan} before encoding.
     *
     * @return the rules; {@link OpaqueRules#LENIENT} by default, for a family without opaque state
     * @since 0.2
     */
    default OpaqueRules opaqueRules() {
        return OpaqueRules.LENIENT;
    }

    /**
     * Encodes a request body. The provider-neutral history rules have already run on the request
     * ({@link dev.ruminate.core.history.History#plan}: another provider's turns, endpoint and model
     * boundaries, integrity checks, retention); the family's own send-back rules
     * (what of the kept reasoning and opaque state its API takes, and in which form) apply here.
     *
     * <p>What the encoder ignores or coerces of the request (an effort level mapped to the nearest
     * the API has, a sampling option a reasoning model refuses, a cache breakpoint on an API without
     * caching) it reports to {@code warnings}, never silently. Media, schemas and other input the API
     * does not take it refuses with an {@link UnsupportedInput}, before anything is sent.
     *
     * @param prepared the request, history prepared
     * @param stream true for a streamed call
     * @param warnings where the encoder reports what it ignored or coerced
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if the request cannot be expressed in this API (the
     *     skeleton reports it as {@link dev.ruminate.core.error.InvalidRequestException}; an
     *     {@link UnsupportedInput} as {@link dev.ruminate.core.error.UnsupportedInputException})
     * @since 0.3
     */
    byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings);

    /**
     * Encodes a request body, discarding the warnings: for tools that want the body alone.
     *
     * @param prepared the request, history prepared
     * @param stream true for a streamed call
     * @return the UTF-8 JSON body
     * @throws IllegalArgumentException if the request cannot be expressed in this API
     */
    default byte[] encode(ChatRequest prepared, boolean stream) {
        return encode(prepared, stream, new RequestWarnings());
    }

    /**
     * Tells how this codec carries the request's {@link ChatRequest#output() output schema}: the
     * method its encoder uses for this request (model, reasoning options and the schema's
     * {@link dev.ruminate.core.request.OutputSchema.Strategy strategy} considered). The pipeline
     * turns a tool method's tool call into answer text, validates the answer and, for methods that
     * do not constrain the output, retries once with the violations. The encoder and this method
     * decide with the same code.
     *
     * <p>The default, for a codec that has no structured-output support of its own, is
     * {@link StructuredOutputMethod#INSTRUCTION}, and the refusal of a {@code NATIVE} strategy.
     *
     * @param prepared the request, history prepared
     * @return the method, or null when the request has no output schema
     * @throws UnsupportedInput if the strategy asks for a form this API lacks
     * @since 0.3
     */
    default @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        OutputSchema output = prepared.output();
        if (output == null) {
            return null;
        }
        if (output.strategy() == OutputSchema.Strategy.NATIVE) {
            throw new UnsupportedInput(UnsupportedInputException.Reason.KIND, "this API has no native structured output");
        }
        return StructuredOutputMethod.INSTRUCTION;
    }

    /**
     * Explains what {@link #encode} does with the earlier turns of a prepared request: for every
     * reasoning part and every opaque value (signature, redacted data, encrypted content, item id,
     * format) of every assistant message, one entry with the action this encoder takes (keep, strip,
     * drop, to text, tags or a field, placeholder), the id of its rule in
     * {@code docs/send-back-rules.md} and a reason. The decisions are the encoder's own: a family
     * implements this with the same methods its encoder decides with, never a second copy of its
     * rules.
     *
     * <p>The default adds nothing, for a codec that sends no earlier turns; every family that does
     * overrides it.
     *
     * @param prepared the request, history prepared, as it would be given to {@link #encode}
     * @param plan where the entries go, by prepared message and part index (the builder maps them back
     *     to the conversation as given)
     */
    default void explain(ChatRequest prepared, SendBackPlan.Builder plan) {
    }

    /**
     * Creates the decoder of one streamed response.
     *
     * @param request the request the response answers
     * @return a fresh decoder
     */
    StreamDecoder<F> newStreamDecoder(ChatRequest request);

    /**
     * Decodes a whole (non-streaming) response body into the events a stream would give.
     *
     * @param request the request the response answers
     * @param body the body; not to be modified
     * @return the events
     * @throws tools.jackson.core.JacksonException for malformed JSON and {@link ShapeException}
     *     for a wrong shape (the skeleton adds the position and an excerpt), or a
     *     {@link dev.ruminate.core.error.RuminateException} for an error the body reports
     */
    List<ChatEvent> decodeBody(ChatRequest request, byte[] body);

    /**
     * Tells whether an HTTP error is the provider refusing the opaque reasoning state the request
     * carried back, from the error body the provider wrote. The skeleton calls it for every
     * {@link ProviderHttpException} of a call (before any event, since the status came first) and
     * fails the call with the typed error instead, or recovers from it
     * ({@link dev.ruminate.providers.OpaqueStateRecovery}).
     *
     * <p>The turn and part of the typed error index {@code prepared.messages()} (the skeleton maps
     * them back to the conversation as the caller gave it); a codec resolves them only where it
     * knows for certain how its encoder maps messages and parts to the wire.
     * The default classifies nothing (APIs without opaque state).
     *
     * @param provider the provider's name, for the message
     * @param prepared the request as encoded, history prepared
     * @param error the HTTP error, secrets already redacted
     * @return the typed error, or null when the error is not about opaque state
     * @since 0.3
     */
    default @Nullable OpaqueStateRejectedException classifyRejection(String provider, ChatRequest prepared,
                                                                     ProviderHttpException error) {
        return null;
    }
}
