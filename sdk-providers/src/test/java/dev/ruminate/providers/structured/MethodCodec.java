package dev.ruminate.providers.structured;

import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.UnsupportedInput;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.providers.testing.ForwardingCodec;
import dev.ruminate.transport.wire.SseEvent;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A test-only codec: a family codec's wire form and decoders (Chat Completions by default, so the
 * emulator's scripts serve it), its opaque rules and rejection classifier, reporting a structured-output method the test chooses, the way a family's codec
 * would. It can report a warning from its encoder and refuse the schema, and counts how often the
 * pipeline asked it for the method.
 */
final class MethodCodec<F> extends ForwardingCodec<F> {

    private final @Nullable StructuredOutputMethod method;
    private final @Nullable String warning;
    final AtomicInteger asked = new AtomicInteger();

    private MethodCodec(WireCodec<F> codec, @Nullable StructuredOutputMethod method, @Nullable String warning) {
        super(codec);
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
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        if (warning != null) {
            warnings.ignored(warning);
        }
        return delegate.encode(prepared, stream, warnings);
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
}
