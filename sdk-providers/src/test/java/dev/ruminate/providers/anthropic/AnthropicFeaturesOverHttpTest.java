package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.AnthropicToolChoiceRule;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@link AnthropicProvider} over real HTTP against the checking emulator: structured output with
 * thinking on negotiated to {@code tool_choice: auto} and accepted, while the same request with a
 * forced tool choice (the caller's own field, not the encoder's) is refused by the emulator's rule;
 * media the API does not take refused before any request; warnings on the result.
 */
@ExtendWith(NettyLeakCheck.class)
class AnthropicFeaturesOverHttpTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final OutputSchema OUTPUT = OutputSchema.of("answer",
            "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}");

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
        emulator.checking(AcceptanceRules.anthropic());
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private AnthropicProvider provider() {
        return AnthropicEmulated.provider(emulator).build();
    }

    /** Thinking on, an output schema, a model without the native form: the forced-tool trap. */
    private static ChatRequest.Builder schemaWithThinking() {
        return ChatRequest.builder("claude-sonnet-4-0").user("Where is the Louvre?").output(OUTPUT)
                .reasoning(ReasoningOptions.budget(2048));
    }

    @Test
    void schemaWithThinkingIsSentWithAutoToolChoiceAndAccepted() {
        emulator.enqueue(AnthropicScript.create().thinking("The Louvre is in Paris.", "c2lnLTE=")
                .toolUse("toolu_1", "answer", "{\"city\":\"Paris\"}").stopReason("tool_use").toResponse());

        AnthropicEmulated.reduce(provider().stream(schemaWithThinking().build())).ok();

        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.rejectedBy()).isNull();
        JsonNode body = MAPPER.readTree(sent.body());
        assertThat(body.get("tool_choice").toString()).isEqualTo("{\"type\":\"auto\"}");
        assertThat(body.get("thinking").get("type").asString()).isEqualTo("enabled");
    }

    @Test
    void theSameRequestWithAForcedToolChoiceIsRefusedByTheEmulatorsRule() {
        ChatRequest forced = schemaWithThinking().extra("tool_choice", Map.of("type", "tool", "name", "answer")).build();

        RuminateException error = AnthropicEmulated.reduce(provider().stream(forced)).failed();

        assertThat(error).isInstanceOfSatisfying(ProviderHttpException.class, http -> {
            assertThat(http.status()).isEqualTo(400);
            assertThat(http.error().message()).isEqualTo("Thinking may not be enabled when tool_choice forces tool use.");
        });
        assertThat(emulator.requests()).extracting(RecordedRequest::rejectedBy).containsExactly(AnthropicToolChoiceRule.NAME);
    }

    @Test
    void anUnsupportedImageTypeIsRefusedBeforeAnyRequest() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").user("What is this?",
                Media.image(new byte[] {1, 2, 3}, "image/heic")).build();

        RuminateException error = AnthropicEmulated.reduce(provider().stream(request)).failed();

        assertThat(error).isInstanceOfSatisfying(UnsupportedInputException.class, e -> {
            assertThat(e.reason()).isEqualTo(UnsupportedInputException.Reason.MEDIA_TYPE);
            assertThat(e.getMessage()).contains("anthropic").contains("message 0, media 0: image image/heic");
        });
        assertThat(emulator.requests()).isEmpty();
    }

    @Test
    void anOversizedImageIsRefusedBeforeAnyRequest() {
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").user("What is this?",
                Media.image(new byte[5 * 1024 * 1024 + 1], "image/png")).build();

        RuminateException error = AnthropicEmulated.reduce(provider().completeAsEvents(request)).failed();

        assertThat(error).isInstanceOfSatisfying(UnsupportedInputException.class,
                e -> assertThat(e.reason()).isEqualTo(UnsupportedInputException.Reason.TOO_LARGE));
        assertThat(emulator.requests()).isEmpty();
    }

    @Test
    void whatTheEncoderLeftOutReachesTheResultAsWarnings() {
        emulator.enqueue(AnthropicScript.create().thinking("Paris.", "c2lnLTE=").text("Paris").toResponse());
        ChatRequest request = ChatRequest.builder("claude-sonnet-4-5").user("Where is the Louvre?")
                .reasoning(ReasoningOptions.budget(2048)).sampling(new SamplingOptions(0.2, null, null, List.of(), null)).build();

        ChatResult result = AnthropicEmulated.reduce(provider().stream(request)).ok();

        assertThat(result.warnings()).extracting(Warning::code, Warning::message).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Warning.OPTION_IGNORED,
                        "temperature 0.2 not sent: Claude takes no temperature other than 1 while thinking is on"));
        assertThat(MAPPER.readTree(emulator.requests().get(0).body()).has("temperature")).isFalse();
    }
}
