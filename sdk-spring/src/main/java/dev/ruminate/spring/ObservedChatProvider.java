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
 * A provider whose calls are measured by a {@link CallObservation} each; see
 * {@link ObservingDecorator} for what is recorded. Immutable and thread-safe.
 */
final class ObservedChatProvider implements ChatProvider {

    private final String name;
    private final ChatProvider delegate;
    private final @Nullable MeterRegistry meters;
    private final @Nullable ObservationRegistry observations;

    ObservedChatProvider(String name, ChatProvider delegate, @Nullable MeterRegistry meters,
                         @Nullable ObservationRegistry observations) {
        this.name = name;
        this.delegate = delegate;
        this.meters = meters;
        this.observations = observations;
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
        return Flux.defer(() -> {
            CallObservation observation = new CallObservation(name, request.model(), meters, observations);
            // Recorded before the terminal signal goes downstream (not in doFinally, which runs after it), so a
            // subscriber that saw the end also sees the meters.
            Flux<ChatEvent> measured = call
                    .doOnNext(observation::onEvent)
                    .doOnComplete(observation::succeeded)
                    .doOnError(observation::failed)
                    .doOnCancel(observation::cancelled);
            Observation current = observation.observation();
            return current == null ? measured
                    : measured.contextWrite(ctx -> ctx.put(ObservationThreadLocalAccessor.KEY, current));
        });
    }

    @Override
    public String toString() {
        return "Observed[" + delegate + "]";
    }
}
