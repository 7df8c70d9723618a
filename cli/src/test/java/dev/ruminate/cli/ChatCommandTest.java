package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakCheck.class)
class ChatCommandTest {

    /**
     * A variable every test JVM has, standing in for a key variable: the command must send its
     * value as the bearer token and never print it.
     */
    private static final String KEY_VARIABLE = "PATH";

    @Test
    void streamsOneTurnFromTheEndpointWithTheKeyFromTheEnvironment() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(ChatCompletionsScript.create().model("deepseek-reasoner")
                    .reasoning("Rayleigh scattering.").content("Short wavelengths scatter more.")
                    .usage(10, 20, 5).toResponse());

            CliRun run = CliRun.of("chat", "--provider", "deepseek", "--model", "deepseek-reasoner",
                    "--base-url", emulator.baseUrl().toString(), "--api-key-env", KEY_VARIABLE,
                    "--effort", "high", "--no-color", "Why", "is", "the", "sky", "blue?");

            assertThat(run.status()).as(run.err()).isZero();
            assertThat(run.out()).contains("thinking (reasoning_content)\nRayleigh scattering.")
                    .contains("answer\nShort wavelengths scatter more.")
                    .contains("usage: input 10 output 20 reasoning 5");
            String key = System.getenv(KEY_VARIABLE);
            assertThat(run.out() + run.err()).doesNotContain(key);
            var request = emulator.requests().get(0);
            assertThat(request.headers().get("authorization")).containsExactly("Bearer " + key);
            assertThat(request.body()).contains("\"content\":\"Why is the sky blue?\"").contains("\"reasoning_effort\":\"high\"");
        }
    }

    @Test
    void anHttpErrorExitsThreeWithATypedMessage() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(EmulatorResponse.httpError(401,
                    "{\"error\":{\"message\":\"Authentication Fails, Your api key is invalid\",\"type\":\"authentication_error\"}}"));

            CliRun run = CliRun.of("chat", "--provider", "deepseek", "--model", "m", "--base-url", emulator.baseUrl().toString(),
                    "--api-key-env", KEY_VARIABLE, "--no-color", "hi");

            assertThat(run.status()).isEqualTo(3);
            assertThat(run.err()).contains("authentication_failed").contains("Your api key is invalid");
        }
    }

    @Test
    void aMissingKeyIsAUsageError() {
        CliRun run = CliRun.of("chat", "--provider", "deepseek", "--model", "m",
                "--api-key-env", "RUMINATE_TEST_VARIABLE_THAT_IS_NOT_SET", "hi");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("$RUMINATE_TEST_VARIABLE_THAT_IS_NOT_SET");
    }

    @Test
    void aSettingTheProviderRequiresIsAUsageErrorNamingItsOption() {
        CliRun noUrl = CliRun.of("chat", "--provider", "openai-compatible", "--model", "m", "hi");
        assertThat(noUrl.status()).isEqualTo(2);
        assertThat(noUrl.err()).contains("provider openai-compatible needs --base-url");
        // Any variable that is set will do as the token: the command stops before it is used.
        CliRun noProject = CliRun.of("chat", "--provider", "vertex", "--model", "m", "--api-key-env", "PATH",
                "--location", "global", "hi");
        assertThat(noProject.status()).isEqualTo(2);
        assertThat(noProject.err()).contains("provider vertex needs --project");
    }

    @Test
    void providersListsEveryKindWithItsEndpointAndKeyVariable() {
        CliRun run = CliRun.of("providers");
        assertThat(run.status()).isZero();
        for (dev.ruminate.providers.ProviderKind kind : dev.ruminate.providers.ProviderKinds.all()) {
            assertThat(run.out()).contains(kind.name() + " ", "$" + kind.keyVariable());
        }
        assertThat(run.out()).contains("deepseek — ", "at https://api.deepseek.com; key: $DEEPSEEK_API_KEY")
                .contains("openai-compatible (also chat-completions)", "needs --base-url")
                .contains("bedrock — ", "needs --region");
    }
}
