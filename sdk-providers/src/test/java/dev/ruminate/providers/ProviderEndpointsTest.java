package dev.ruminate.providers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.gemini.GeminiProvider;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** The endpoints Bedrock and Vertex derive from a region or location, which the Spring health check names too. */
class ProviderEndpointsTest {

    @Test
    void bedrockRuntimeIsRegional() {
        assertThat(BedrockProvider.endpoint(" eu-west-3 ")).isEqualTo(URI.create("https://bedrock-runtime.eu-west-3.amazonaws.com"));
    }

    @Test
    void vertexHasARegionalHostAndAGlobalOne() {
        assertThat(GeminiProvider.vertexEndpoint("us-central1")).isEqualTo(URI.create("https://us-central1-aiplatform.googleapis.com"));
        assertThat(GeminiProvider.vertexEndpoint("GLOBAL")).isEqualTo(URI.create("https://aiplatform.googleapis.com"));
    }
}
