package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.BedrockToolChoiceRule;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@link BedrockProvider} over real HTTP against the checking emulator: an output schema with
 * Claude's thinking on goes as {@code toolChoice: auto} and is accepted, the same request with a
 * forced {@code toolChoice} written by hand is refused by the emulator's rule; media Converse does not
 * take are refused before any request.
 */
@ExtendWith(NettyLeakCheck.class)
class BedrockFeaturesOverHttpTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MODEL = "us.anthropic.claude-sonnet-4-20250514-v1:0";
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
        emulator.checking(AcceptanceRules.bedrock());
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private BedrockProvider provider() {
        return BedrockProvider.builder("us-east-1").baseUrl(emulator.baseUrl().toString())
                .credentials(new AwsCredentials("AKIDEXAMPLE", ApiKey.of("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), null))
                .clock(Clock.fixed(Instant.parse("2026-11-22T12:36:00Z"), ZoneOffset.UTC)).build();
    }

    private static ChatRequest.Builder schemaWithThinking() {
        return ChatRequest.builder(MODEL).user("Where is the Louvre?").output(OutputSchema.of("answer", SCHEMA))
                .reasoning(ReasoningOptions.budget(2048));
    }

    private ChatResult reduce(ChatRequest request) {
        return ChatReducer.defaults().reduce(provider().stream(request)).block(WAIT);
    }

    @Test
    void schemaWithThinkingIsSentWithAutoToolChoiceAndAccepted() {
        emulator.enqueue(BedrockScript.create().reasoning("The Louvre is in Paris.", "c2lnLTE=")
                .toolUse("tu_1", "answer", "{\"city\":\"Paris\"}").stopReason("tool_use").toResponse());

        reduce(schemaWithThinking().build());

        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.rejectedBy()).isNull();
        JsonNode toolConfig = MAPPER.readTree(sent.body()).get("toolConfig");
        assertThat(toolConfig.get("toolChoice").toString()).isEqualTo("{\"auto\":{}}");
    }

    @Test
    void theSameRequestWithAForcedToolChoiceWrittenByHandIsRefused() {
        Map<String, Object> forcedToolConfig = Map.of(
                "tools", List.of(Map.of("toolSpec", Map.of("name", "answer", "inputSchema", Map.of("json", Map.of("type", "object"))))),
                "toolChoice", Map.of("tool", Map.of("name", "answer")));
        ChatRequest forced = schemaWithThinking().extra("toolConfig", forcedToolConfig).build();

        assertThatThrownBy(() -> reduce(forced)).isInstanceOfSatisfying(ProviderHttpException.class, http -> {
            assertThat(http.status()).isEqualTo(400);
            assertThat(http.getMessage()).contains("Thinking may not be enabled when tool_choice forces tool use.");
        });
        assertThat(emulator.requests()).extracting(RecordedRequest::rejectedBy).containsExactly(BedrockToolChoiceRule.NAME);
    }

    @Test
    void anHttpsImageIsRefusedBeforeAnyRequest() {
        ChatRequest request = ChatRequest.builder(MODEL).user("What is this?",
                Media.imageUrl("https://example.com/a.png", "image/png")).build();

        assertThatThrownBy(() -> reduce(request)).isInstanceOfSatisfying(UnsupportedInputException.class, e -> {
            assertThat(e.reason()).isEqualTo(UnsupportedInputException.Reason.SOURCE);
            assertThat(e.getMessage()).contains("message 0, media 0: image image/png").doesNotContain("example.com");
        });
        assertThat(emulator.requests()).isEmpty();
    }

    @Test
    void tooManyDocumentsAreRefusedBeforeAnyRequest() {
        Media[] six = new Media[6];
        for (int i = 0; i < six.length; i++) {
            six[i] = Media.document(new byte[] {'%', 'P', 'D', 'F'}, "application/pdf", "part " + i);
        }
        ChatRequest request = ChatRequest.builder(MODEL).user("Summarise.", six).build();

        assertThatThrownBy(() -> reduce(request)).isInstanceOfSatisfying(UnsupportedInputException.class,
                e -> assertThat(e.reason()).isEqualTo(UnsupportedInputException.Reason.TOO_LARGE));
        assertThat(emulator.requests()).isEmpty();
    }
}
