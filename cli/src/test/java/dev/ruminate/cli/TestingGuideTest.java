package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.test.StepVerifier;

/**
 * The examples of {@code docs/testing.md} run as written here ({@link GuideBlocks}): a user's own
 * test of its own code against the emulator, and the ways a mis-scripted test fails fast instead of
 * waiting out the ten-minute production read timeout. The guide's test class is this class's
 * {@code SkyServiceTest} part: its fields, set-up and test method bodies.
 */
@ExtendWith(NettyLeakCheck.class)
class TestingGuideTest {

    private static final String GUIDE = "testing.md";

    // guide:start service
    /** The code under test: one question to a model, its answer as a word. */
    static final class SkyService {
        private final ChatProvider provider;

        SkyService(ChatProvider provider) {
            this.provider = provider;
        }

        String colour() {
            ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("What colour is the sky? One word.").build();
            return ChatReducer.defaults().reduce(provider.stream(request)).block().message().text().strip();
        }
    }
    // guide:end service

    // guide:start setup
    private ProviderEmulator emulator;
    private ChatProvider deepseek;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start().checking(AcceptanceRules.deepSeek());   // refuse what DeepSeek refuses
        deepseek = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                .baseUrl(emulator.baseUrl())
                .apiKey(ApiKey.of("test-key"))
                .readTimeout(Duration.ofSeconds(2))      // a stalled test fails in 2 s, not after the default 10 minutes
                .build();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }
    // guide:end setup

    @Test
    void answersWithTheModelsWord() {
        // guide:start answers
        emulator.enqueue(ChatCompletionsScript.create()
                .model("deepseek-reasoner")
                .reasoning("The user wants one word.")
                .content("Blue.")
                .usage(14, 9, 5)
                .toResponse());

        String answer = new SkyService(deepseek).colour();

        assertThat(answer).isEqualTo("Blue.");
        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.path()).isEqualTo("/chat/completions");
        assertThat(sent.header("authorization")).isEqualTo("Bearer test-key");
        assertThat(sent.body()).contains("\"model\":\"deepseek-reasoner\"", "\"stream\":true", "One word.");
        assertThat(sent.rejectedBy()).isNull();              // the acceptance rules let it through
        // guide:end answers
    }

    @Test
    void aForgottenResponseIsAClearError() {
        // guide:start forgotten
        // Nothing enqueued: the emulator answers 500 "ProviderEmulator has no response queued for POST …".
        ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Hi").build();
        StepVerifier.create(deepseek.stream(request))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ProviderHttpException.class)
                        .hasMessageContaining("no response queued"))
                .verify(Duration.ofSeconds(10));                 // always give verify() a limit
        // guide:end forgotten
    }

    @Test
    void anotherFamilysScriptFailsTypedAtOnce() {
        emulator.enqueue(AnthropicScript.create().text("Blue.").toResponse());   // an Anthropic stream to a Chat Completions client
        ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Hi").build();

        // The decoder sees the stream end without a Chat Completions chunk: a typed end, not the read timeout.
        StepVerifier.create(deepseek.stream(request))
                .expectErrorSatisfies(e -> assertThat(e).isNotInstanceOf(StreamTimeoutException.class)
                        .hasMessageContaining("ended"))
                .verify(Duration.ofSeconds(10));
    }

    @Test
    void aStalledStreamFailsAfterTheTestsReadTimeout() {
        // guide:start stalled
        String body = ChatCompletionsScript.create().content("Blue.").toSse();
        emulator.enqueue(ChatCompletionsScript.create().content("Blue.").toResponse()
                .stallAfter(body.indexOf("Blue")));                // half a chunk, then silence
        ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Hi").build();
        StepVerifier.create(deepseek.stream(request))
                .thenConsumeWhile(event -> true)
                .expectError(StreamTimeoutException.class)       // after readTimeout: 2 s here
                .verify(Duration.ofSeconds(10));
        // guide:end stalled
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Duration.ofSeconds(10));
    }

    @Test
    void theGuideShowsTheExamplesAsWrittenHere() {
        for (String name : new String[] {"service", "setup", "answers", "forgotten", "stalled"}) {
            assertThat(GuideBlocks.inGuide(GUIDE, name)).as(name).isNotEmpty()
                    .isEqualTo(GuideBlocks.inSource("TestingGuideTest", name));
        }
    }
}
