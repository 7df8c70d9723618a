package dev.ruminate.providers.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.ResponsesScript;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

/**
 * Cancelling a subscription closes the HTTP exchange promptly on every client: after
 * {@code take(n)}, on a Reactor {@code timeout}, and when disposed in the middle of a tool call
 * (after its first fragment, before its end). The emulator sees each connection close; Netty's paranoid leak detection sees
 * no buffer left behind.
 */
@ExtendWith(NettyLeakCheck.class)
class CancellationAcrossProvidersTest {

    /** An upper bound only (nothing waits it out when the machine keeps up); generous for a loaded CI machine. */
    private static final Duration WAIT = Duration.ofSeconds(30);
    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    /** A client and a slow stream in its wire format that holds a tool call in many fragments. */
    record Client(String name, java.util.function.Function<ProviderEmulator, ChatProvider> build,
                  Supplier<EmulatorResponse> slowToolStream) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static <B extends ProviderBuilder<B>> B at(B builder, ProviderEmulator emulator) {
        return builder.baseUrl(emulator.baseUrl().toString());
    }

    private static final String ARGS = "{\"city\":\"" + "Paris".repeat(40) + "\"}";

    private static EmulatorResponse slow(EmulatorResponse r) {
        // small chunks with a pause between: the stream is still running when it is cancelled
        return r.chunked(ChunkPlan.fixed(64)).delay(Duration.ofMillis(5));
    }

    static Stream<Client> clients() {
        ApiKey key = ApiKey.of("k");
        return Stream.of(
                new Client("deepseek", e -> at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK), e).apiKey(key).build(),
                        () -> slow(ChatCompletionsScript.create().reasoning("Think.").toolCall("c1", "weather", ARGS).tokensOf(2)
                                .toResponse())),
                new Client("openai-responses", e -> at(ResponsesProvider.builder(ResponsesProfiles.OPENAI), e).apiKey(key).build(),
                        () -> slow(ResponsesScript.create().reasoning("rs_1", "enc", "Think.").functionCall("c1", "weather", ARGS)
                                .tokensOf(2).toResponse())),
                new Client("anthropic", e -> at(AnthropicProvider.builder(), e).apiKey(key).build(),
                        () -> slow(AnthropicScript.create().thinking("Think.", "sig").toolUse("t1", "weather", ARGS).tokensOf(2)
                                .toResponse())),
                new Client("gemini", e -> at(GeminiProvider.builder(), e).apiKey(key).build(),
                        () -> slow(GeminiScript.create().thought("Think.").streamedFunctionCall("weather", "city", "Paris".repeat(40), "s")
                                .tokensOf(2).toResponse())),
                new Client("ollama-native", e -> at(OllamaProvider.builder(), e).build(),
                        () -> slow(OllamaScript.create().thinking("Think about the weather in Paris for a while.").tokensOf(2)
                                .toolCall("weather", ARGS).toResponse())),
                new Client("bedrock", e -> at(BedrockProvider.builder("us-east-1"), e).credentials(AwsCredentials.of("AKID", "s")).build(),
                        () -> slow(BedrockScript.create().reasoning("Think.", "sig").toolUse("t1", "weather", ARGS).tokensOf(2)
                                .toResponse())));
    }

    private static ChatRequest request() {
        return ChatRequest.builder("m").user("Weather in Paris?").build();
    }

    private void assertClosed() {
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(WAIT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void takingTheFirstEventsClosesTheConnection(Client client) {
        emulator.enqueue(client.slowToolStream().get());
        List<ChatEvent> first = client.build().apply(emulator).stream(request()).take(2).collectList().block(WAIT);
        assertThat(first).hasSize(2);
        assertClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void aReactorTimeoutClosesTheConnection(Client client) {
        EmulatorResponse stream = client.slowToolStream().get();
        emulator.enqueue(stream.stallAfter(stream.body().length / 2));
        // the timeout runs between events, so the exchange is under way when it fires
        StepVerifier.create(client.build().apply(emulator).stream(request())
                        .timeout(Mono.never(), e -> Mono.delay(Duration.ofMillis(300))))
                .thenConsumeWhile(e -> true)
                .expectError(TimeoutException.class)
                .verify(WAIT);
        assertClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void disposingInTheMiddleOfAToolCallClosesTheConnection(Client client) {
        emulator.enqueue(client.slowToolStream().get());
        Sinks.One<ChatEvent> firstFragment = Sinks.one();
        Disposable subscription = client.build().apply(emulator).stream(request())
                .filter(e -> e instanceof ToolCallDelta)
                .subscribe(e -> firstFragment.tryEmitValue(e));
        ChatEvent fragment = firstFragment.asMono().block(WAIT);
        subscription.dispose();

        assertThat(fragment).isInstanceOf(ToolCallDelta.class);
        assertClosed();
    }
}
