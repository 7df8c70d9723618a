package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

/**
 * The examples of {@code docs/streaming.md} compile and run against an emulator on loopback, and
 * the guide shows them as written here ({@link GuideBlocks}).
 */
@ExtendWith(NettyLeakCheck.class)
class StreamingGuideTest {

    private static final String GUIDE = "streaming.md";

    private ProviderEmulator emulator;
    private ChatProvider deepseek;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private PrintStream out;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
        deepseek = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                .baseUrl(emulator.baseUrl()).apiKey(ApiKey.of("emulator-key")).build();
        out = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void stop() {
        System.setOut(out);
        emulator.close();
    }

    static ChatResult streamOne(ChatProvider deepseek) {
        // guide:start stream
        ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Why is the sky blue?").build();
        Flux<ChatEvent> events = deepseek.stream(request).doOnNext(event -> {
            if (event instanceof ReasoningDelta reasoning) {
                System.out.print(reasoning.text());              // the thinking, live
            } else if (event instanceof ContentDelta content) {
                System.out.print(content.text());                // the answer, live
            }
        });
        ChatResult result = ChatReducer.defaults().reduce(events).block();
        AssistantMessage answer = result.message();              // keep it whole for the next turn
        System.out.println("\n" + answer.finishReason() + ", " + answer.usage().outputTokens() + " tokens out");
        if (result.reasoningCheck().verdict() == ReasoningVerdict.MISMATCHED) {
            System.err.println("streamed reasoning differs: " + result.reasoningCheck().detail());
        }
        // guide:end stream
        return result;
    }

    static @Nullable AssistantMessage failing(ChatProvider deepseek, ChatRequest request) {
        // guide:start errors
        try {
            ChatResult result = ChatReducer.defaults().reduce(deepseek.stream(request)).block();
            return result.message();
        } catch (RuminateException e) {                          // every failure is typed
            System.err.println(e.type() + ": " + e.getMessage() + (e.isRetryable() ? " (retryable)" : ""));
            AssistantMessage partial = e.partial();              // what arrived before it failed, or null
            if (partial != null) {
                System.err.println("got so far: " + partial.text());
            }
            return partial;
        }
        // guide:end errors
    }

    static Flux<ChatEvent> stoppable(ChatProvider deepseek, ChatRequest request, Mono<Void> stop) {
        // guide:start cancel
        Flux<ChatEvent> events = deepseek.stream(request)
                .takeUntilOther(stop);                           // stop: what the user's "stop" button completes
        // guide:end cancel
        return events;
    }

    @Test
    void streamsReasoningThenTheAnswerAndReducesThem() {
        emulator.enqueue(ChatCompletionsScript.create().model("deepseek-reasoner")
                .reasoning("Rayleigh scattering favours short wavelengths.").content("Because of Rayleigh scattering.")
                .usage(12, 30, 18).toResponse());

        ChatResult result = streamOne(deepseek);

        assertThat(printed.toString(StandardCharsets.UTF_8)).startsWith(
                "Rayleigh scattering favours short wavelengths.Because of Rayleigh scattering.\nSTOP, 30 tokens out");
        assertThat(result.message().reasoning()).isEqualTo("Rayleigh scattering favours short wavelengths.");
        assertThat(result.message().text()).isEqualTo("Because of Rayleigh scattering.");
        assertThat(result.message().finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void aStreamCutShortFailsTypedWithWhatArrived() {
        String body = ChatCompletionsScript.create().content("Because of Rayleigh scattering.").toSse();
        emulator.enqueue(EmulatorResponse.sse(body).resetAfter(body.lastIndexOf("data:")));   // no finish, no [DONE]

        AssistantMessage partial = failing(deepseek, ChatRequest.builder("deepseek-reasoner").user("Why?").build());

        assertThat(partial).isNotNull();
        assertThat(partial.text()).isNotEmpty();
        assertThat("Because of Rayleigh scattering.").startsWith(partial.text());
    }

    @Test
    void anHttpErrorIsTypedAndHasNoPartial() {
        emulator.enqueue(EmulatorResponse.httpError(401, "{\"error\":{\"message\":\"bad key\",\"type\":\"authentication_error\"}}"));
        ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Why?").build();

        assertThat(failing(deepseek, request)).isNull();
        StepVerifier.create(deepseek.stream(request)).expectError(ProviderHttpException.class).verify(Duration.ofSeconds(10));
    }

    @Test
    void stoppingEndsTheStreamAndClosesTheConnection() {
        String body = ChatCompletionsScript.create().content("Because of Rayleigh scattering.").toSse();
        emulator.enqueue(EmulatorResponse.sse(body).stallAfter(body.indexOf("data:", 1)));   // one chunk, then silence
        Sinks.Empty<Void> stop = Sinks.empty();

        StepVerifier.create(stoppable(deepseek, ChatRequest.builder("deepseek-reasoner").user("Why?").build(), stop.asMono()))
                .expectNextMatches(event -> event instanceof ResponseStarted)
                .then(stop::tryEmitEmpty)
                .thenConsumeWhile(event -> true)
                .expectComplete()
                .verify(Duration.ofSeconds(10));

        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Duration.ofSeconds(10));
    }

    @Test
    void theGuideShowsTheExamplesAsWrittenHere() {
        for (String name : new String[] {"stream", "errors", "cancel"}) {
            assertThat(GuideBlocks.inGuide(GUIDE, name)).as(name).isNotEmpty()
                    .isEqualTo(GuideBlocks.inSource("StreamingGuideTest", name));
        }
    }
}
