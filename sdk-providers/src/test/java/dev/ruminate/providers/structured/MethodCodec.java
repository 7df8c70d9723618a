package dev.ruminate.providers.structured;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A test-only codec: a family codec's wire form and decoders (Chat Completions by default, so the
 * emulator's scripts serve it), its opaque rules and rejection classifier, reporting a structured-output method the test chooses, the way a family's codec
 * would. It can report a warning from its encoder and refuse the schema, and counts how often the
 * pipeline asked it for the method.
 */
final class MethodCodec<F> implements WireCodec<F> {

    private final WireCodec<F> codec;
    private final @Nullable StructuredOutputMethod method;
    private final @Nullable String warning;
    final AtomicInteger asked = new AtomicInteger();

    private MethodCodec(WireCodec<F> codec, @Nullable StructuredOutputMethod method, @Nullable String warning) {
        this.codec = codec;
        this.method = method;
        this.warning = warning;
    }

    /** The Chat Completions codec reporting the method for every request with an output schema. */
    static MethodCodec<SseEvent> reporting(StructuredOutputMethod method) {
        return new MethodCodec<>(ChatCompletionsCodec.of(Profiles.OPENAI), method, null);
    }

    /** Another family's codec reporting the method. */
    static <F> MethodCodec<F> around(WireCodec<F> codec, StructuredOutputMethod method) {
        return new MethodCodec<>(codec, method, null);
    }

    /** Reports the method, and an ignored option from every encoding. */
    static MethodCodec<SseEvent> warning(StructuredOutputMethod method, String ignored) {
        return new MethodCodec<>(ChatCompletionsCodec.of(Profiles.OPENAI), method, ignored);
    }

    /** Refuses every output schema as an API without the form asked for would. */
    static MethodCodec<SseEvent> refusing() {
        return new MethodCodec<>(ChatCompletionsCodec.of(Profiles.OPENAI), null, null);
    }

    @Override
    public String api() {
        return codec.api();
    }

    @Override
    public StreamFraming<F> framing() {
        return codec.framing();
    }

    @Override
    public URI endpoint(BaseUrl base, ChatRequest request, boolean stream) {
        return codec.endpoint(base, request, stream);
    }

    @Override
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        if (warning != null) {
            warnings.ignored(warning);
        }
        return codec.encode(prepared, stream, warnings);
    }

    @Override
    public @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        if (prepared.output() == null) {
            return null;
        }
        asked.incrementAndGet();
        if (method == null) {
            throw new UnsupportedInput(UnsupportedInputException.Reason.KIND, "the output schema asks for a form this test API lacks");
        }
        return method;
    }

    @Override
    public StreamDecoder<F> newStreamDecoder(ChatRequest request) {
        return codec.newStreamDecoder(request);
    }

    @Override
    public @Nullable OpaqueStateRejectedException classifyRejection(String provider, ChatRequest prepared,
                                                                    ProviderHttpException error) {
        return codec.classifyRejection(provider, prepared, error);
    }

    @Override
    public OpaqueRules opaqueRules() {
        return codec.opaqueRules();
    }

    @Override
    public List<ChatEvent> decodeBody(ChatRequest request, byte[] body) {
        return codec.decodeBody(request, body);
    }
}
