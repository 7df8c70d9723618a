package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The usage example of the repository's README, kept compiling and working (pointed at the emulator). */
@ExtendWith(NettyLeakCheck.class)
class ReadmeExampleTest {

    @Test
    void theReadmeExampleWorks() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(ChatCompletionsScript.create().model("deepseek-reasoner")
                    .reasoning("Rayleigh scattering favours short wavelengths.")
                    .content("Because air scatters blue light more than red.").toResponse());

            // --- as in README.md, with the emulator's URL and a made-up key ---
            ChatProvider deepseek = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                    .baseUrl(emulator.baseUrl())
                    .apiKey(ApiKey.of("sk-readme-example")).build();
            ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Why is the sky blue?").build();
            ChatResult result = ChatReducer.defaults().reduce(deepseek.stream(request)).block();
            // ---

            assertThat(result).isNotNull();
            assertThat(result.message().reasoning()).isEqualTo("Rayleigh scattering favours short wavelengths.");
            assertThat(result.message().text()).isEqualTo("Because air scatters blue light more than red.");
        }
    }
}
