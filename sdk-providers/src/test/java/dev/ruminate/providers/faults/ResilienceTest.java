package dev.ruminate.providers.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RejectedException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.resilience.Timeouts;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.retry.event.RetryEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

/**
 * The endpoint guards over real HTTP: retry only before the first event (connect errors, 5xx, 429
 * with its Retry-After, a first-event timeout), never after; a circuit breaker, rate limiter and
 * bulkhead that refuse typed and send nothing; first-event, idle and total timeouts, each its own
 * typed error carrying the partial message.
 */
@ExtendWith(NettyLeakCheck.class)
class ResilienceTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final ChatRequest REQUEST = ChatRequest.builder("deepseek-v4-flash").user("Hi").build();
    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private ChatCompletionsProvider provider(Resilience guards) {
        return ChatCompletionsProvider.builder(Profiles.DEEPSEEK).baseUrl(emulator.baseUrl() + "/v1")
                .apiKey(ApiKey.of("k")).resilience(guards).build();
    }

    private static Retry retry(int attempts) {
        return Retry.of("deepseek", RetryConfig.custom().maxAttempts(attempts).waitDuration(Duration.ofMillis(10)).build());
    }

    private static EmulatorResponse answer() {
        return ChatCompletionsScript.create().reasoning("Think.").content("Hello there.").toResponse();
    }

    private static Object outcome(ChatCompletionsProvider provider) {
        try {
            return ChatReducer.defaults().reduce(provider.stream(REQUEST)).block(WAIT);
        } catch (RuminateException e) {
            return e;
        }
    }

    @Test
    void aServerErrorBeforeAnyEventIsRetried() {
        emulator.enqueue(EmulatorResponse.httpError(503, "{\"error\":{\"message\":\"overloaded\"}}"));
        emulator.enqueue(answer());

        Object outcome = outcome(provider(Resilience.builder().retry(retry(3)).build()));

        assertThat(outcome).isInstanceOf(ChatResult.class);
        assertThat(((ChatResult) outcome).message().text()).isEqualTo("Hello there.");
        assertThat(emulator.requests()).hasSize(2);
    }

    @Test
    void theRetryFromTheUsersRegistryRecordsTheAttempts() {
        RetryRegistry registry = RetryRegistry.of(RetryConfig.custom().maxAttempts(3).waitDuration(Duration.ofMillis(10)).build());
        Retry users = registry.retry("deepseek");
        List<RetryEvent.Type> seen = new CopyOnWriteArrayList<>();
        users.getEventPublisher().onEvent(e -> seen.add(e.getEventType()));
        emulator.enqueue(EmulatorResponse.httpError(503, "{\"error\":{\"message\":\"overloaded\"}}"));
        emulator.enqueue(answer());

        Object outcome = outcome(provider(Resilience.builder().retry(users).build()));

        assertThat(outcome).isInstanceOf(ChatResult.class);
        assertThat(seen).containsExactly(RetryEvent.Type.RETRY, RetryEvent.Type.SUCCESS);
        Retry.Metrics metrics = registry.retry("deepseek").getMetrics();
        assertThat(metrics.getNumberOfSuccessfulCallsWithRetryAttempt()).isEqualTo(1);
        // Resilience4j counts each attempt here: the 503 and the answer
        assertThat(metrics.getNumberOfTotalCalls()).isEqualTo(2);
        assertThat(registry.getAllRetries()).containsExactly(users);
    }

    @Test
    void nothingIsRetriedAfterTheFirstEventReachedTheSubscriber() {
        byte[] body = answer().body();
        emulator.enqueue(EmulatorResponse.bytes("text/event-stream", body).resetAfter(body.length / 2));
        emulator.enqueue(answer());

        Object outcome = outcome(provider(Resilience.builder().retry(retry(3)).build()));

        assertThat(outcome).isInstanceOf(IncompleteStreamException.class);
        assertThat(((RuminateException) outcome).partial()).isNotNull();
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void aClientErrorIsNotRetried() {
        emulator.enqueue(EmulatorResponse.httpError(400, "{\"error\":{\"message\":\"bad model\"}}"));
        emulator.enqueue(answer());

        assertThat(outcome(provider(Resilience.builder().retry(retry(3)).build()))).isInstanceOf(ProviderHttpException.class);
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void retryAfterIsWaitedAtLeast() {
        emulator.enqueue(EmulatorResponse.rateLimited(1, "{\"error\":{\"message\":\"slow down\"}}"));
        emulator.enqueue(answer());

        long start = System.nanoTime();
        Object outcome = outcome(provider(Resilience.builder().retry(retry(2)).build()));
        long waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();

        assertThat(outcome).isInstanceOf(ChatResult.class);
        // a lower bound only: the retry may not come before the provider said
        assertThat(waitedMillis).isGreaterThanOrEqualTo(1000);
    }

    @Test
    void aFirstEventTimeoutIsRetried() {
        emulator.enqueue(answer().stallAfter(0));
        emulator.enqueue(answer());

        Object outcome = outcome(provider(Resilience.builder().retry(retry(2))
                .timeouts(new Timeouts(Duration.ofMillis(300), null, null)).build()));

        assertThat(outcome).isInstanceOf(ChatResult.class);
        assertThat(emulator.requests()).hasSize(2);
    }

    @Test
    void anOpenCircuitRefusesWithoutARequest() {
        CircuitBreaker breaker = CircuitBreaker.of("deepseek", CircuitBreakerConfig.custom()
                .slidingWindowSize(2).minimumNumberOfCalls(2).failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofMinutes(1)).build());
        ChatCompletionsProvider guarded = provider(Resilience.builder().circuitBreaker(breaker).build());
        emulator.always(EmulatorResponse.httpError(500, "{\"error\":{\"message\":\"down\"}}"));

        assertThat(outcome(guarded)).isInstanceOf(ProviderHttpException.class);
        assertThat(outcome(guarded)).isInstanceOf(ProviderHttpException.class);
        Object third = outcome(guarded);

        assertThat(third).isInstanceOf(RejectedException.class);
        assertThat(((RejectedException) third).guard()).isEqualTo(RejectedException.Guard.CIRCUIT_BREAKER);
        assertThat(((RejectedException) third).isRetryable()).isFalse();
        assertThat(emulator.requests()).hasSize(2);
    }

    @Test
    void aFullBulkheadRefusesAndAnEndedStreamFreesItsPermit() {
        Bulkhead bulkhead = Bulkhead.of("deepseek", BulkheadConfig.custom().maxConcurrentCalls(1).maxWaitDuration(Duration.ZERO).build());
        ChatCompletionsProvider guarded = provider(Resilience.builder().bulkhead(bulkhead).build());
        byte[] body = answer().body();
        emulator.enqueue(EmulatorResponse.bytes("text/event-stream", body).stallAfter(body.length / 2));
        emulator.enqueue(answer());
        Sinks.One<ChatEvent> first = Sinks.one();
        Disposable open = guarded.stream(REQUEST).subscribe(e -> first.tryEmitValue(e));
        first.asMono().block(WAIT);

        Object refused = outcome(guarded);
        open.dispose();
        Object afterwards = outcome(guarded);

        assertThat(refused).isInstanceOf(RejectedException.class);
        assertThat(((RejectedException) refused).guard()).isEqualTo(RejectedException.Guard.BULKHEAD);
        assertThat(afterwards).isInstanceOf(ChatResult.class);
    }

    @Test
    void anExhaustedRateLimiterRefuses() {
        RateLimiter limiter = RateLimiter.of("deepseek", RateLimiterConfig.custom().limitForPeriod(1)
                .limitRefreshPeriod(Duration.ofHours(1)).timeoutDuration(Duration.ZERO).build());
        ChatCompletionsProvider guarded = provider(Resilience.builder().rateLimiter(limiter).build());
        emulator.always(answer());

        assertThat(outcome(guarded)).isInstanceOf(ChatResult.class);
        Object second = outcome(guarded);

        assertThat(second).isInstanceOf(RejectedException.class);
        assertThat(((RejectedException) second).guard()).isEqualTo(RejectedException.Guard.RATE_LIMITER);
        assertThat(emulator.requests()).hasSize(1);
    }

    @Test
    void eachTimeoutFiresAsItsOwnPhase() {
        byte[] body = answer().body();
        emulator.enqueue(EmulatorResponse.bytes("text/event-stream", body).stallAfter(0));
        emulator.enqueue(EmulatorResponse.bytes("text/event-stream", body).stallAfter(body.length / 2));
        emulator.enqueue(EmulatorResponse.bytes("text/event-stream", body).chunked(ChunkPlan.fixed(64)).delay(Duration.ofMillis(100)));

        Object first = outcome(provider(Resilience.builder().timeouts(new Timeouts(Duration.ofMillis(300), null, null)).build()));
        Object idle = outcome(provider(Resilience.builder().timeouts(new Timeouts(null, Duration.ofMillis(300), null)).build()));
        Object total = outcome(provider(Resilience.builder().timeouts(new Timeouts(null, null, Duration.ofMillis(600))).build()));

        assertThat(((StreamTimeoutException) first).phase()).isEqualTo(StreamTimeoutException.Phase.FIRST_EVENT);
        assertThat(((StreamTimeoutException) idle).phase()).isEqualTo(StreamTimeoutException.Phase.IDLE);
        assertThat(((StreamTimeoutException) idle).partial()).isNotNull();
        assertThat(((StreamTimeoutException) total).phase()).isEqualTo(StreamTimeoutException.Phase.TOTAL);
        assertThat(((StreamTimeoutException) total).partial()).isNotNull();
    }
}
