package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ResponsesProfilesTest {

    @Test
    void knownProfilesAreFoundByName() {
        assertThat(ResponsesProfiles.names()).containsExactly("openai-responses", "azure-responses", "xai-responses",
                "deepseek-responses", "openrouter-responses", "lmstudio-responses", "vllm-responses", "ollama-responses",
                "bedrock-responses", "open-responses");
        for (String name : ResponsesProfiles.names()) {
            assertThat(ResponsesProfiles.byName(name)).isNotNull().extracting(ResponsesProfile::name).isEqualTo(name);
        }
        assertThat(ResponsesProfiles.byName("OpenAI-Responses")).isSameAs(ResponsesProfiles.OPENAI);
        assertThat(ResponsesProfiles.byName("anthropic")).isNull();
    }

    @Test
    void endpointsFollowTheBaseUrl() {
        assertThat(ResponsesProfiles.OPENAI.uri(null)).isEqualTo(URI.create("https://api.openai.com/v1/responses"));
        assertThat(ResponsesProfiles.DEEPSEEK.uri(null)).isEqualTo(URI.create("https://api.deepseek.com/responses"));
        assertThat(ResponsesProfiles.OPENROUTER.uri(null)).isEqualTo(URI.create("https://openrouter.ai/api/v1/responses"));
        assertThat(ResponsesProfiles.AZURE.uri("https://r.openai.azure.com/openai/v1/?api-version=preview"))
                .isEqualTo(URI.create("https://r.openai.azure.com/openai/v1/responses?api-version=preview"));
        assertThatThrownBy(() -> ResponsesProfiles.AZURE.uri(null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ResponsesProfiles.OPENAI.uri("ftp://x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void statelessServersAskForEncryptedReasoning() {
        assertThat(ResponsesProfiles.OPENAI.statelessReasoning()).isTrue();
        assertThat(ResponsesProfiles.AZURE.authHeader()).isEqualTo("api-key");
        assertThat(ResponsesProfiles.AZURE.authPrefix()).isEmpty();
        assertThat(ResponsesProfiles.LMSTUDIO.statelessReasoning()).isFalse();
        assertThat(ResponsesProfiles.DEEPSEEK.reasoningStyle()).isEqualTo(ResponsesReasoningStyle.NONE);
    }

    @Test
    void aUserBuildsAProfileWithoutWritingADecoder() {
        ResponsesProfile mine = ResponsesProfiles.OPEN_RESPONSES.toBuilder().name("bedrock-mantle")
                .baseUrl("https://bedrock-mantle.us-east-1.api.aws/v1").statelessReasoning(true).build();

        assertThat(mine.uri(null)).isEqualTo(URI.create("https://bedrock-mantle.us-east-1.api.aws/v1/responses"));
        assertThat(mine.toBuilder().build()).isEqualTo(mine);
        assertThatThrownBy(() -> ResponsesProfile.builder(" ").build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ResponsesProfile.builder("x").path("responses").build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void capabilitiesSayWhatEachServerTakes() {
        assertThat(ResponsesProfiles.OPENAI.capabilities()).isEqualTo(ResponsesCapabilities.OPENAI);
        assertThat(ResponsesProfiles.AZURE.capabilities()).isEqualTo(ResponsesCapabilities.OPENAI);
        assertThat(ResponsesProfiles.OPEN_RESPONSES.capabilities()).isEqualTo(ResponsesCapabilities.OPENAI);
        assertThat(ResponsesProfiles.DEEPSEEK.capabilities())
                .isEqualTo(new ResponsesCapabilities(false, false, false, false, false, false));
        assertThat(ResponsesProfiles.OPENROUTER.capabilities())
                .isEqualTo(new ResponsesCapabilities(true, true, true, true, false, false));
        for (ResponsesProfile local : new ResponsesProfile[] {ResponsesProfiles.XAI, ResponsesProfiles.LMSTUDIO,
                ResponsesProfiles.VLLM, ResponsesProfiles.OLLAMA, ResponsesProfiles.BEDROCK}) {
            assertThat(local.capabilities()).as(local.name())
                    .isEqualTo(new ResponsesCapabilities(true, true, true, false, false, false));
        }
        ResponsesProfile custom = ResponsesProfiles.OPEN_RESPONSES.toBuilder()
                .capabilities(ResponsesCapabilities.OPENAI.withJsonSchema(false).withForcedToolChoice(false)).build();
        assertThat(custom.toBuilder().build().capabilities().jsonSchema()).isFalse();
        assertThat(new ResponsesProfile("p", null, "/responses", "Authorization", "Bearer ", false,
                ResponsesReasoningStyle.EFFORT_ONLY).capabilities()).isEqualTo(ResponsesCapabilities.OPENAI);
    }
}
