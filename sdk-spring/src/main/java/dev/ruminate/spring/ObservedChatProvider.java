package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.request.ChatRequest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * A provider whose calls are observed by a {@link CallObservation} each; see
 * {@link ObservingDecorator} for what is recorded. Immutable and thread-safe.
 */
final class ObservedChatProvider implements ChatProvider {

    private static final GenAiObservationConvention DEFAULT = new DefaultGenAiObservationConvention();

    private final String name;
    private final String providerName;
    private final ChatProvider delegate;
    private final @Nullable MeterRegistry meters;
    private final @Nullable ObservationRegistry observations;
    private final @Nullable GenAiObservationConvention convention;
    private final boolean captureContent;

    ObservedChatProvider(String name, ChatProvider delegate, @Nullable MeterRegistry meters,
                         @Nullable ObservationRegistry observations, @Nullable GenAiObservationConvention convention,
                         boolean captureContent) {
        this.name = name;
        this.providerName = GenAiProviderNames.of(delegate.name());
        this.delegate = delegate;
        this.meters = meters;
        this.observations = observations;
        this.convention = convention;
        this.captureContent = captureContent;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public Flux<ChatEvent> stream(ChatRequest request) {
        return observed(request, delegate.stream(request));
    }

    @Override
    public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
        return observed(request, delegate.completeAsEvents(request));
    }

    private Flux<ChatEvent> observed(ChatRequest request, Flux<ChatEvent> call) {
        // One recorder per subscription: the provider's publishers are cold, each subscription a new call.
        return Flux.deferContextual(subscriber -> {
            // the caller's observation (a WebFlux server request's, say) travels in the Reactor context, not a thread local
            Observation parent = subscriber.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
            GenAiObservationContext context = new GenAiObservationContext(GenAiAttributes.CHAT, providerName, name,
                    request, captureContent);
            CallObservation observation = new CallObservation(context, DEFAULT, convention, meters, observations, parent);
            // Recorded before the terminal signal goes downstream (not in doFinally, which runs after it), so a
            // subscriber that saw the end also sees the meters and the stopped observation.
            Flux<ChatEvent> measured = call
                    .doOnNext(observation::onEvent)
                    .doOnComplete(observation::succeeded)
                    .doOnError(observation::failed)
                    .doOnCancel(observation::cancelled);
            Observation current = observation.observation();
            // the parent of what the call observes itself (Reactor Netty's HTTP client observation, say)
            return current.isNoop() ? measured
                    : measured.contextWrite(ctx -> ctx.put(ObservationThreadLocalAccessor.KEY, current));
        });
    }

    @Override
    public String toString() {
        return "Observed[" + delegate + "]";
    }
}
