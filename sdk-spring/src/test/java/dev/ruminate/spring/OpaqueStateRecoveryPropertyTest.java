package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.AnthropicSignatureRule;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.test.StepVerifier;

/**
 * {@code ruminate.providers.<name>.opaque-state-recovery}: off by default (a refused signature fails
 * the call, typed), {@code strip-and-retry-once} reaches the client (a warning, then the answer).
 */
@ExtendWith(NettyLeakCheck.class)
class OpaqueStateRecoveryPropertyTest {

    private ProviderEmulator emulator;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RuminateAutoConfiguration.class))
            .withBean(EnvironmentVariables.class, () -> Map.of("ANTHROPIC_API_KEY", "sk-ant-test-0123456789")::get);

    @BeforeEach
    void start() {
        // the emulator issued "EqQBissuedAA" only: the turn below carries another signature, well formed
        // (base64), so that the integrity check lets it go out and the provider is the one to refuse it
        emulator = ProviderEmulator.start().checking(AcceptanceRules.anthropic()
                .without(AnthropicSignatureRule.NAME).with(new AnthropicSignatureRule().issued("EqQBissuedAA")));
        emulator.enqueue(AnthropicScript.create().text("Answer.").toResponse());
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private String[] properties(String... more) {
        List<String> p = new ArrayList<>(List.of("ruminate.providers.anthropic.kind=anthropic",
                "ruminate.providers.anthropic.base-url=" + emulator.baseUrl(),
                "ruminate.providers.anthropic.api-key-env=ANTHROPIC_API_KEY"));
        p.addAll(List.of(more));
        return p.toArray(String[]::new);
    }

    private static ChatRequest withAForeignSignature() {
        AssistantMessage turn = new AssistantMessage(List.of(
                new ReasoningPart("Think.", false, "thinking", new Seals("EqQBforgedAA", null, null, null, null)),
                new TextPart("Hello.", Seals.NONE)), null, null, FinishReason.STOP, null, Usage.UNKNOWN);
        return ChatRequest.builder("claude-sonnet-4-5").reasoning(ReasoningOptions.budget(2048)).user("Hi")
                .message(turn).user("Again").build();
    }

    @Test
    void offByDefaultTheRefusalIsTyped() {
        runner.withPropertyValues(properties()).run(context -> {
            ChatProvider provider = context.getBean("anthropic", ChatProvider.class);
            StepVerifier.create(provider.stream(withAForeignSignature()))
                    .expectError(OpaqueStateRejectedException.class)
                    .verify(Duration.ofSeconds(10));
            assertThat(emulator.requests()).hasSize(1);
        });
    }

    @Test
    void stripAndRetryOnceReachesTheClient() {
        runner.withPropertyValues(properties("ruminate.providers.anthropic.opaque-state-recovery=strip-and-retry-once"))
                .run(context -> {
                    ChatProvider provider = context.getBean("anthropic", ChatProvider.class);
                    StepVerifier.create(provider.stream(withAForeignSignature()))
                            .expectNextMatches(e -> e instanceof Warning w && w.code().equals(Warning.OPAQUE_STATE_RECOVERED))
                            .thenConsumeWhile(e -> true)
                            .verifyComplete();
                    assertThat(emulator.requests()).hasSize(2);
                    assertThat(emulator.requests().get(1).body()).doesNotContain("EqQBforgedAA");
                });
    }
}
