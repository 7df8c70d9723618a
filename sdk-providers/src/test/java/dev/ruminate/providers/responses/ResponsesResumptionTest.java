package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.StreamResumeException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.testkit.ResponsesBackground;
import dev.ruminate.testkit.ResponsesBackgroundStoreRule;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * {@link ResponsesProvider#resumption() Resumption} of background streams over real HTTP, against a
 * {@link ProviderEmulator} with a {@link ResponsesBackground} store: a stream cut after any event,
 * or inside one, gives exactly the uncut stream's events (and one {@code stream-resumed} warning)
 * and reduces to the same message; refusals and gaps are typed; a cut before the first event, a
 * provider without resumption and a whole-body call behave as before.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesResumptionTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String RECORDED = "openai-responses/vercel-reasoning-summary-encrypted-tool-call-stream.sse";
    private static final String SCRIPT_ID = "resp_resumed";

    private ProviderEmulator emulator;
    private ResponsesBackground stored;
    private ResponsesProvider resuming;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
        stored = ResponsesBackground.create();
        emulator.routing(stored::answer).checking(AcceptanceRules.responses());
        resuming = provider(true);
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private ResponsesProvider provider(boolean resuming) {
        return ResponsesProvider.builder(ResponsesProfiles.OPENAI).baseUrl(emulator.baseUrl() + "/v1")
                .apiKey(ApiKey.of("sk-emulated-7f1c"))
                .resumeBackgroundStreams(resuming ? ResponsesResumption.attempts(2).withBackoff(Duration.ZERO) : null)
                .build();
    }

    private static String scripted() {
        return ResponsesScript.create().id(SCRIPT_ID)
                .reasoning("rs_1", "gAAAAABresumedblob==", "Thinking about the sum.", "Then the tool.")
                .text("Let me add them.")
                .functionCall("call_1", "calculator", "{\"a\":2,\"b\":3,\"op\":\"add\"}")
                .usage(40, 30, 12, 0)
                .toSse();
    }

    private List<ChatEvent> events(ResponsesProvider provider) {
        return Objects.requireNonNull(provider.stream(ResponsesProviderTest.REQUEST).collectList().block(WAIT));
    }

    private static List<ChatEvent> withoutWarnings(List<ChatEvent> events) {
        return events.stream().filter(e -> !(e instanceof Warning)).toList();
    }

    private static AssistantMessage reduced(List<ChatEvent> events) {
        ChatResult result = ChatReducer.defaults().reduce(Flux.fromIterable(events)).block(WAIT);
        return Objects.requireNonNull(result).message();
    }

    /** The events of the uncut stream, served by the same store. */
    private List<ChatEvent> uncut(String sse) {
        emulator.enqueue(stored.stream(sse));
        List<ChatEvent> events = events(resuming);
        assertThat(events).noneMatch(e -> e instanceof Warning);
        return events;
    }

    private void assertResumedAtEveryBoundary(String sse, int insideEvery) {
        List<ChatEvent> whole = uncut(sse);
        AssistantMessage message = reduced(whole);
        List<String> texts = ResponsesBackground.events(sse);
        int offset = 0;
        for (int k = 0; k < texts.size(); k++) {
            int length = texts.get(k).getBytes(StandardCharsets.UTF_8).length;
            if (k > 0) {
                // whole events: cut after event k-1
                assertSame(sse, stored.cutAfter(sse, k), whole, message, "cut after " + k + " events");
            }
            if (k > 0 && k % insideEvery == 0) {
                // inside event k: its first half arrived, the rest did not (inside the first event
                // nothing was delivered, and nothing is resumed: aStreamCutBeforeItsFirstEventIsNotResumed)
                assertSame(sse, stored.cutAt(sse, offset + length / 2), whole, message, "cut inside event " + k);
            }
            offset += length;
        }
        // cut after the terminal event: nothing to resume, nothing missing
        assertSame(sse, stored.cutAfter(sse, texts.size()), whole, message, "cut after the last event");
    }

    private void assertSame(String sse, dev.ruminate.testkit.EmulatorResponse cut, List<ChatEvent> whole,
                            AssistantMessage message, String where) {
        int before = emulator.requests().size();
        emulator.enqueue(cut);
        List<ChatEvent> events;
        try {
            events = events(resuming);
        } catch (RuntimeException e) {
            throw new AssertionError(where + ": " + e, e);
        }
        assertThat(withoutWarnings(events)).as(where).isEqualTo(whole);
        List<RecordedRequest> sent = emulator.requests().subList(before, emulator.requests().size());
        long resumes = sent.stream().filter(r -> r.method().equals("GET")).count();
        assertThat(events.stream().filter(e -> e instanceof Warning w && w.code().equals(Warning.STREAM_RESUMED)))
                .as(where).hasSize((int) resumes);
        assertThat(resumes).as(where).isLessThanOrEqualTo(1);
        assertThat(reduced(events)).as(where).isEqualTo(message);
    }

    @Test
    void aRecordedStreamCutAtEveryEventBoundaryAndInsideEventsIsResumedWhole() {
        // 110 events: every boundary, and inside every third event (each cut costs two HTTP exchanges)
        assertResumedAtEveryBoundary(Recorded.text(RECORDED), 3);
    }

    @Test
    void aScriptedStreamWithReasoningAndAToolCallCutAnywhereIsResumedWhole() {
        assertResumedAtEveryBoundary(scripted(), 1);
    }

    @Test
    void theRequestAsksForBackgroundWithStoreAndTheResumptionStartsAfterTheLastEvent() {
        String sse = scripted();
        emulator.enqueue(stored.cutAfter(sse, 5));
        List<ChatEvent> events = events(resuming);
        List<RecordedRequest> sent = emulator.requests();
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0).rejectedBy()).isNull();
        assertThat(sent.get(0).body()).contains("\"store\":true").contains("\"background\":true")
                .contains("\"include\":[\"reasoning.encrypted_content\"]").doesNotContain("\"store\":false");
        assertThat(sent.get(1).method()).isEqualTo("GET");
        assertThat(sent.get(1).path()).isEqualTo("/v1/responses/" + SCRIPT_ID + "?stream=true&starting_after=4");
        assertThat(sent.get(1).header("Authorization")).isEqualTo("Bearer sk-emulated-7f1c");
        Warning warning = (Warning) events.stream().filter(e -> e instanceof Warning).findFirst().orElseThrow();
        assertThat(warning.message()).contains("after event 4").doesNotContain("sk-");
        // the warning stands where the cut was: after the events of the first five frames
        assertThat(events.indexOf(warning)).isPositive();
    }

    @Test
    void aWholeBodyCallIsNotSentInBackground() {
        emulator.enqueue(dev.ruminate.testkit.EmulatorResponse.json(200,
                ResponsesScript.create().id(SCRIPT_ID).text("Hi.").toResponseJson()));
        StepVerifier.create(provider(true).completeAsEvents(ResponsesProviderTest.REQUEST).then())
                .expectComplete().verify(WAIT);
        assertThat(emulator.requests().get(0).body()).doesNotContain("background").contains("\"store\":false");
    }

    @Test
    void backgroundWithoutStoreIsRefusedByTheEmulatorAsByOpenAi() {
        emulator.enqueue(stored.stream(scripted()));
        StepVerifier.create(provider(true).stream(ResponsesProviderTest.REQUEST.toBuilder().extra("store", false).build()))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ProviderHttpException.class)
                        .satisfies(x -> assertThat(((ProviderHttpException) x).status()).isEqualTo(400)))
                .verify(WAIT);
        assertThat(emulator.requests().get(0).rejectedBy()).isEqualTo(ResponsesBackgroundStoreRule.NAME);
    }

    @Test
    void aRefusedResumptionFailsTypedWithThePartialMessage() {
        String sse = scripted();
        emulator.enqueue(stored.cutAfter(sse, 8));
        stored.expire(SCRIPT_ID);
        RuminateException error = reduceError(provider(true));
        assertThat(error).isInstanceOfSatisfying(StreamResumeException.class, e -> {
            assertThat(e.reason()).isEqualTo(StreamResumeException.Reason.REFUSED);
            assertThat(e.responseId()).isEqualTo(SCRIPT_ID);
            assertThat(e.lastSequenceNumber()).isEqualTo(7);
            assertThat(e.getCause()).isInstanceOf(ProviderHttpException.class);
        });
        assertThat(error.partial()).isNotNull();
        assertThat(Objects.requireNonNull(error.partial()).parts()).isNotEmpty();
    }

    @Test
    void aGapInTheResumedStreamFailsTypedAndCancelsTheResponse() {
        String sse = scripted();
        emulator.enqueue(stored.cutAfter(sse, 6));
        stored.forget(SCRIPT_ID, 6);
        RuminateException error = reduceError(provider(true));
        assertThat(error).isInstanceOfSatisfying(StreamResumeException.class, e -> {
            assertThat(e.reason()).isEqualTo(StreamResumeException.Reason.GAP);
            assertThat(e.lastSequenceNumber()).isEqualTo(5);
            assertThat(e.getMessage()).contains("event 7");
        });
        assertThat(error.partial()).isNotNull();
        assertThat(cancelledIds()).containsExactly(SCRIPT_ID);
    }

    @Test
    void aConnectionThatKeepsBreakingIsResumedAsOftenAsAllowed() {
        String sse = scripted();
        List<ChatEvent> whole = uncut(sse);
        int events = ResponsesBackground.events(sse).size();
        stored.cutResumedAfter(3);
        ResponsesProvider patient = ResponsesProvider.builder(ResponsesProfiles.OPENAI)
                .baseUrl(emulator.baseUrl() + "/v1").apiKey(ApiKey.of("sk-emulated-7f1c"))
                .resumeBackgroundStreams(new ResponsesResumption(events, Duration.ZERO)).build();
        emulator.enqueue(stored.cutAfter(sse, 2));
        List<ChatEvent> resumed = Objects.requireNonNull(patient.stream(ResponsesProviderTest.REQUEST).collectList()
                .block(WAIT));
        assertThat(withoutWarnings(resumed)).isEqualTo(whole);
        assertThat(resumed).filteredOn(e -> e instanceof Warning).hasSize((events - 2 + 2) / 3);
        assertThat(reduced(resumed)).isEqualTo(reduced(whole));
    }

    @Test
    void aStreamCutMoreOftenThanAllowedFailsTypedAndCancelsTheResponse() {
        String sse = scripted();
        stored.cutResumedAfter(1);
        emulator.enqueue(stored.cutAfter(sse, 4));
        RuminateException error = reduceError(resuming);
        assertThat(error).isInstanceOfSatisfying(StreamResumeException.class, e -> {
            assertThat(e.reason()).isEqualTo(StreamResumeException.Reason.EXHAUSTED);
            // two reconnections of one event each: events 0-3, then 4, then 5
            assertThat(e.lastSequenceNumber()).isEqualTo(5);
            assertThat(e.getCause()).isInstanceOf(IncompleteStreamException.class);
        });
        assertThat(error.partial()).isNotNull();
        assertThat(emulator.requests()).filteredOn(r -> r.method().equals("GET")).hasSize(2);
        assertThat(cancelledIds()).containsExactly(SCRIPT_ID);
    }

    @Test
    void cancellingABackgroundStreamCancelsTheResponseOnTheServer() {
        emulator.enqueue(stored.stream(scripted()));
        StepVerifier.create(provider(true).stream(ResponsesProviderTest.REQUEST).take(3))
                .expectNextCount(3).expectComplete().verify(WAIT);
        assertThat(cancelledIds()).containsExactly(SCRIPT_ID);
        assertThat(emulator.requests()).last().satisfies(r -> {
            assertThat(r.method()).isEqualTo("POST");
            assertThat(r.path()).isEqualTo("/v1/responses/" + SCRIPT_ID + "/cancel");
        });
    }

    @Test
    void aStreamCutBeforeItsFirstEventIsNotResumed() {
        emulator.enqueue(stored.cutAt(scripted(), 10));
        StepVerifier.create(provider(true).stream(ResponsesProviderTest.REQUEST))
                .expectError(IncompleteStreamException.class).verify(WAIT);
        assertThat(emulator.requests()).singleElement().extracting(RecordedRequest::method).isEqualTo("POST");
    }

    @Test
    void withoutResumptionAStreamCutAfterEventsFailsWithoutARetry() {
        String sse = scripted();
        emulator.enqueue(stored.cutAfter(sse, 6));
        RuminateException error = reduceError(provider(false));
        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial()).isNotNull();
        assertThat(emulator.requests()).singleElement().satisfies(r -> {
            assertThat(r.body()).doesNotContain("background").contains("\"store\":false");
        });
    }

    private static RuminateException reduceError(ResponsesProvider provider) {
        RuminateException error = ChatReducer.defaults().reduce(provider.stream(ResponsesProviderTest.REQUEST))
                .then(Mono.<RuminateException>empty())
                .onErrorResume(RuminateException.class, Mono::just)
                .block(WAIT);
        return Objects.requireNonNull(error, "the stream did not fail");
    }

    /** The cancellation is best effort and not awaited by the stream: polled until it arrived, bounded. */
    private List<String> cancelledIds() {
        return Objects.requireNonNull(Mono.fromSupplier(stored::cancelled).filter(ids -> !ids.isEmpty())
                .repeatWhenEmpty(again -> again.delayElements(Duration.ofMillis(10)))
                .block(Duration.ofSeconds(10)));
    }
}
