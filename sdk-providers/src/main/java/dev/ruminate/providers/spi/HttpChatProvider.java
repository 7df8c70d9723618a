package dev.ruminate.providers.spi;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.request.ChatRequest;
import java.net.URI;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * The base of every HTTP provider client: a {@link ChatProvider} whose calls all run through one
 * {@link ProviderPipeline}. A family's client class adds only its builder and accessors of its
 * own (a profile, another endpoint); it cannot change how a call runs.
 *
 * <p><b>Threading.</b> Immutable and thread-safe. <b>Backpressure.</b> Bytes are read from the
 * network only as events are requested: a subscriber that stops requesting stops the reading of
 * the socket, and a paused stream holds a bounded read-ahead, not the rest of the stream, however
 * long it is; {@link ProviderPipeline} states the bound. See it also for cancellation and errors.
 *
 * @since 0.1
 */
public abstract class HttpChatProvider implements ChatProvider {

    private final ProviderPipeline<?> pipeline;

    /**
     * Creates the client.
     *
     * @param pipeline the pipeline every call runs through
     */
    protected HttpChatProvider(ProviderPipeline<?> pipeline) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    @Override
    public final String name() {
        return pipeline.name();
    }

    @Override
    public final Flux<ChatEvent> stream(ChatRequest request) {
        return pipeline.stream(request);
    }

    @Override
    public final Flux<ChatEvent> completeAsEvents(ChatRequest request) {
        return pipeline.complete(request);
    }

    /**
     * Returns where a call of this request goes: the API root the client was built with and the
     * endpoint's path. Nothing is sent.
     *
     * @param request the request (some APIs put the model in the path)
     * @param stream true for a streamed call
     * @return the endpoint
     */
    public final URI endpoint(ChatRequest request, boolean stream) {
        return pipeline.endpoint(request, stream);
    }

    /**
     * Explains what this client would send back of a request's earlier turns: every reasoning part
     * and opaque value with its action, rule and reason ({@link ProviderPipeline#explain}). Nothing
     * is sent.
     *
     * @param request the request
     * @return the plan
     */
    public final SendBackPlan explain(ChatRequest request) {
        return pipeline.explain(request);
    }

    /**
     * Returns where this client's responses come from: see {@link ProviderPipeline#origin()}. A
     * family with another endpoint of the same API (Ollama's {@code /api/generate}) stamps that
     * endpoint's responses with its own origin.
     *
     * @return the origin of the client's main endpoint
     */
    public final Origin origin() {
        return pipeline.origin();
    }

    /**
     * Returns the pipeline, for a family's extra endpoints ({@link ProviderPipeline#withCodec}).
     *
     * @return the pipeline
     */
    protected final ProviderPipeline<?> pipeline() {
        return pipeline;
    }

    /** Shows the class, the provider's name and its API root; never a key or a query. */
    @Override
    public final String toString() {
        return pipeline.describe(getClass().getSimpleName());
    }
}
