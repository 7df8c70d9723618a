package dev.ruminate.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

class ExpandingTest {

    /** Turns n into n copies of "n", "end" at completion, "flushed" before an error; "boom" fails after one copy. */
    private static final class Copies implements Expanding.Expander<Integer, String> {
        @Override
        public void next(Integer item, List<String> out) {
            for (int i = 0; i < item; i++) {
                out.add(String.valueOf(item));
            }
            if (item == 7) {
                throw new IllegalStateException("boom");
            }
        }

        @Override
        public void complete(List<String> out) {
            out.add("end");
        }

        @Override
        public void error(Throwable failure, List<String> out) {
            out.add("flushed");
        }
    }

    private static Flux<String> copies(Flux<Integer> in, int prefetch) {
        return Expanding.expand(in, Copies::new, prefetch);
    }

    @Test
    void expandsEachElementInOrderAndAddsTheClosingOutput() {
        StepVerifier.create(copies(Flux.just(0, 2, 1, 3), 4))
                .expectNext("2", "2", "1", "3", "3", "3", "end")
                .verifyComplete();
    }

    @Test
    void deliversExactlyTheDemandAcrossOneElementsOutput() {
        StepVerifier.create(copies(Flux.just(3, 2).hide(), 2), 0)
                .thenRequest(1).expectNext("3")
                .expectNoEvent(Duration.ofMillis(10))
                .thenRequest(3).expectNext("3", "3", "2")
                .thenRequest(2).expectNext("2", "end")
                .verifyComplete();
    }

    @Test
    void requestsAtMostThePrefetchAheadAndReplenishesByThreeQuarters() {
        AtomicLong requested = new AtomicLong();
        Flux<Integer> in = Flux.range(1, 1000).map(i -> 1).hide().doOnRequest(requested::addAndGet);
        StepVerifier.create(copies(in, 8), 0)
                .then(() -> assertThat(requested.get()).isEqualTo(8))
                .thenRequest(5).expectNextCount(5)
                // five elements taken: below the replenishing mark of six
                .then(() -> assertThat(requested.get()).isEqualTo(8))
                .thenRequest(1).expectNextCount(1)
                .then(() -> assertThat(requested.get()).isEqualTo(14))
                .thenCancel()
                .verify();
    }

    @Test
    void aFailingElementEndsTheFluxAfterWhatItAddedAndCancelsTheUpstream() {
        AtomicLong cancelled = new AtomicLong();
        StepVerifier.create(copies(Flux.just(1, 7, 2).hide().doOnCancel(cancelled::incrementAndGet), 4))
                .expectNext("1", "7", "7", "7", "7", "7", "7", "7")
                .verifyErrorMessage("boom");
        assertThat(cancelled).hasValue(1);
    }

    @Test
    void anUpstreamErrorComesAfterTheHeldOutputAndTheErrorOutput() {
        Sinks.Many<Integer> sink = Sinks.many().unicast().onBackpressureBuffer();
        IllegalArgumentException failure = new IllegalArgumentException("cut");
        StepVerifier.create(copies(sink.asFlux(), 4), 1)
                .then(() -> {
                    sink.tryEmitNext(2);
                    sink.tryEmitError(failure);
                })
                .expectNext("2")
                .expectNoEvent(Duration.ofMillis(10))
                .thenRequest(10)
                .expectNext("2", "flushed")
                .verifyErrorSatisfies(e -> assertThat(e).isSameAs(failure));
    }

    @Test
    void aSynchronouslyFusedSourceIsPolled() {
        List<Integer> in = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            in.add(1);
        }
        StepVerifier.create(copies(Flux.fromIterable(in), 4))
                .expectNextCount(100)
                .expectNext("end")
                .verifyComplete();
    }

    @Test
    void eachSubscriptionHasItsOwnExpander() {
        Flux<String> flux = copies(Flux.just(1), 4);
        StepVerifier.create(flux).expectNext("1", "end").verifyComplete();
        StepVerifier.create(flux).expectNext("1", "end").verifyComplete();
    }
}
