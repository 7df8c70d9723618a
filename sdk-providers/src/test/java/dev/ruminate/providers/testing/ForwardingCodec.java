package dev.ruminate.providers.testing;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.wire.StreamFraming;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A test codec that hands every call to a family's real codec: a test overrides only the one thing
 * it changes (the events a decoder gives, the method it reports, a warning its encoder adds), so
 * everything else the pipeline asks of a codec stays the family's own.
 *
 * @param <F> the frame type
 */
public abstract class ForwardingCodec<F> implements WireCodec<F> {

    /** The family's codec every call goes to unless a subclass overrides it. */
    protected final WireCodec<F> delegate;

    /**
     * Wraps a codec.
     *
     * @param delegate the family's codec
     */
    protected ForwardingCodec(WireCodec<F> delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public String api() {
        return delegate.api();
    }

    @Override
    public StreamFraming<F> framing() {
        return delegate.framing();
    }

    @Override
    public URI endpoint(BaseUrl base, ChatRequest request, boolean stream) {
        return delegate.endpoint(base, request, stream);
    }

    @Override
    public OpaqueRules opaqueRules() {
        return delegate.opaqueRules();
    }

    @Override
    public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        return delegate.encode(prepared, stream, warnings);
    }

    @Override
    public void explain(ChatRequest prepared, SendBackPlan.Builder plan) {
        delegate.explain(prepared, plan);
    }

    @Override
    public @Nullable StructuredOutputMethod structuredOutputMethod(ChatRequest prepared) {
        return delegate.structuredOutputMethod(prepared);
    }

    @Override
    public StreamDecoder<F> newStreamDecoder(ChatRequest request) {
        return delegate.newStreamDecoder(request);
    }

    @Override
    public List<ChatEvent> decodeBody(ChatRequest request, byte[] body) {
        return delegate.decodeBody(request, body);
    }

    @Override
    public @Nullable OpaqueStateRejectedException classifyRejection(String provider, ChatRequest prepared,
                                                                    ProviderHttpException error) {
        return delegate.classifyRejection(provider, prepared, error);
    }
}
