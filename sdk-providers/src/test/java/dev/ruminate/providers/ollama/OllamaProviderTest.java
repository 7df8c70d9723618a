package dev.ruminate.providers.ollama;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@link OllamaProvider} over real HTTP against the emulator: recordings, requests sent, and faults. */
@ExtendWith(NettyLeakCheck.class)
class OllamaProviderTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final String NDJSON = "application/x-ndjson";
    private static final ChatRequest CHAT = ChatRequest.builder("gpt-oss:20b").user("Describe a rabbit in 3 words").build();

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private OllamaProvider.Builder provider() {
        return OllamaProvider.builder().baseUrl(emulator.baseUrl().toString());
    }

    private Ollama.Reduced stream(EmulatorResponse response) {
        emulator.enqueue(response);
        return Ollama.reduce(provider().build().stream(CHAT));
    }

    static List<String> recordings() {
        return Ollama.recordings();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void recordedGenerateStreamReducesOverHttpAsTheCodecDecodesIt(String path) {
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(path), NDJSON));

        Ollama.Reduced http = Ollama.reduce(provider().thinkTags(Ollama.tagsOf(path)).build()
                .generate(ChatRequest.builder("m").user("Describe a rabbit").build()));

        assertThat(http.comparable()).isEqualTo(Ollama.reduce(Ollama.recording(path)).comparable());
        assertThat(emulator.requests()).singleElement().satisfies(r -> assertThat(r.path()).isEqualTo("/api/generate"));
    }

    @Test
    void gptOssRecordingArrivesWhole() {
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(Ollama.GPT_OSS), NDJSON));

        AssistantMessage m = Ollama.reduce(provider().build().generate(CHAT)).ok().message();

        assertThat(m.provider()).isEqualTo("ollama-native");
        assertThat(m.model()).isEqualTo("gpt-oss:120b");
        assertThat(m.reasoning()).startsWith("User asks: \"Describe a rabbit in 3 words\".").hasSize(141);
        assertThat(m.text()).isEqualTo("Fluffy, swift, gentle.");
        assertThat(m.usage()).isEqualTo(new Usage(81L, 53L, null, null));
        assertThat(m.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void streamPostsTheChatRequestAsJsonToApiChat() {
        ChatRequest request = CHAT.toBuilder().reasoning(ReasoningOptions.effort(ReasoningEffort.LOW)).build();
        emulator.enqueue(OllamaScript.create().thinking("Three words.").content("Soft, quick, shy.").usage(9, 8)
                .toResponse());

        ChatResult result = Ollama.reduce(provider().build().stream(request)).ok();

        assertThat(result.message().text()).isEqualTo("Soft, quick, shy.");
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.UNAVAILABLE);
        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.method()).isEqualTo("POST");
        assertThat(sent.path()).isEqualTo("/api/chat");
        assertThat(sent.header("content-type")).isEqualTo("application/json");
        assertThat(sent.header("accept")).isEqualTo(NDJSON);
        assertThat(sent.header("authorization")).isNull();
        JsonNode body = MAPPER.readTree(sent.body());
        assertThat(body.get("stream").booleanValue()).isTrue();
        assertThat(body.get("think").stringValue()).isEqualTo("low");
        assertThat(body.get("messages").get(0).get("content").stringValue()).isEqualTo("Describe a rabbit in 3 words");
    }

    @Test
    void completeAsEventsReadsTheWholeChatBody() {
        emulator.enqueue(OllamaScript.create().thinking("Call the tool.").toolCall("call_1", "weather", "{\"city\":\"Paris\"}")
                .usage(30, 12).toJsonResponse());

        ChatResult result = Ollama.reduce(provider().apiKey(ApiKey.of("ollama-key-123")).build().completeAsEvents(CHAT)).ok();

        assertThat(result.message().reasoning()).isEqualTo("Call the tool.");
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
        assertThat(result.message().toolCalls()).singleElement()
                .satisfies(c -> assertThat(c.arguments()).isEqualTo("{\"city\":\"Paris\"}"));
        assertThat(result.message().finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.path()).isEqualTo("/api/chat");
        assertThat(sent.header("authorization")).isEqualTo("Bearer ollama-key-123");
        assertThat(MAPPER.readTree(sent.body()).get("stream").booleanValue()).isFalse();
    }

    @Test
    void generateAsEventsSplitsThinkTagsWhenTheBuilderSaysSo() {
        emulator.enqueue(OllamaScript.create().endpoint(OllamaScript.Endpoint.GENERATE)
                .content("<think>\nshort\n</think>\n\nA rabbit.").toJsonResponse());

        AssistantMessage m = Ollama.reduce(provider().thinkTags(ThinkTagOptions.DEFAULT).build()
                .generateAsEvents(CHAT)).ok().message();

        assertThat(m.reasoning()).isEqualTo("\nshort\n");
        assertThat(m.text()).isEqualTo("\n\nA rabbit.");
        assertThat(emulator.requests().get(0).path()).isEqualTo("/api/generate");
    }

    @Test
    void aBaseUrlWithAPathAndTrailingSlashIsKept() {
        emulator.enqueue(OllamaScript.create().content("ok").toResponse());

        Ollama.reduce(OllamaProvider.builder().baseUrl(emulator.baseUrl() + "/ollama/").build().stream(CHAT)).ok();

        assertThat(emulator.requests().get(0).path()).isEqualTo("/ollama/api/chat");
    }

    @Test
    void anUnknownModelIsAnHttpErrorWithOllamasMessage() {
        RuminateException error = stream(EmulatorResponse.httpError(404, "{\"error\":\"model 'llama9' not found\"}"))
                .failed();

        assertThat(error).isInstanceOf(ProviderHttpException.class);
        ProviderHttpException http = (ProviderHttpException) error;
        assertThat(http.status()).isEqualTo(404);
        assertThat(http.error().message()).isEqualTo("model 'llama9' not found");
        assertThat(http.getMessage()).contains("ollama-native");
    }

    @Test
    void rateLimitsCarryRetryAfterAndAuthFailuresAreTyped() {
        RuminateException limited = stream(EmulatorResponse.rateLimited(7, "{\"error\":\"too many requests\"}")).failed();
        assertThat(limited).isInstanceOf(RateLimitException.class);
        assertThat(((RateLimitException) limited).retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(((RateLimitException) limited).error().message()).isEqualTo("too many requests");

        RuminateException denied = stream(EmulatorResponse.httpError(401, "{\"error\":\"unauthorized\"}")).failed();
        assertThat(denied).isInstanceOf(AuthenticationException.class);
    }

    @Test
    void aTruncatedStreamIsIncompleteWithThePartialMessage() {
        RuminateException error = stream(OllamaScript.create().thinking("Let me think").content("Flu").done(false)
                .toResponse()).failed();

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial()).isNotNull();
        assertThat(error.partial().reasoning()).isEqualTo("Let me think");
        assertThat(error.partial().text()).isEqualTo("Flu");
    }

    @Test
    void aConnectionResetMidLineIsIncompleteAndTheCutLineIsNotDecoded() {
        byte[] body = OllamaScript.create().content("abcdefgh").tokensOf(4).toNdjson();
        int firstLine = new String(body, java.nio.charset.StandardCharsets.UTF_8).indexOf('\n') + 1;

        RuminateException error = stream(EmulatorResponse.bytes(NDJSON, body).resetAfter(firstLine + 10)).failed();

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial()).isNotNull();
        assertThat(error.partial().text()).isEqualTo("abcd");
    }

    @Test
    void anErrorLineMidStreamIsAProviderStreamErrorWithThePartialMessage() {
        RuminateException error = stream(OllamaScript.create().content("Hello").error("an error was encountered while running the model")
                .toResponse()).failed();

        assertThat(error).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) error).error().message())
                .isEqualTo("an error was encountered while running the model");
        assertThat(error.partial().text()).isEqualTo("Hello");
    }

    @Test
    void aMalformedLineIsAProtocolError() {
        RuminateException error = stream(OllamaScript.create().content("ab").malformedLineAt(1).toResponse()).failed();

        assertThat(error).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) error).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(((ProtocolException) error).line()).isEqualTo(2);
    }

    @Test
    void aLineLongerThanTheWireLimitIsAProtocolError() {
        emulator.enqueue(OllamaScript.create().content("x".repeat(300)).tokensOf(300).toResponse());

        RuminateException error = Ollama.reduce(provider().wireLimits(new dev.ruminate.transport.wire.WireLimits(256, 256))
                .build().stream(CHAT)).failed();

        assertThat(error).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) error).reason()).isEqualTo(ProtocolException.Reason.LINE_TOO_LONG);
    }

    @Test
    void aStreamOfTheWrongContentTypeIsAProtocolError() {
        RuminateException error = stream(EmulatorResponse.sse("data: {}\n\n")).failed();

        assertThat(error).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) error).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_CONTENT_TYPE);
    }

    @Test
    void aRequestThatCannotBeEncodedFailsTheFluxWithoutACall() {
        RuminateException error = Ollama.reduce(provider().build().generate(ChatRequest.builder("m").user("a").user("b")
                .build())).failed();

        assertThat(error).isInstanceOf(InvalidRequestException.class).hasMessageContaining("/api/chat");
        assertThat(emulator.requests()).isEmpty();
    }

    @Test
    void theKeyNeverShowsInToString() {
        OllamaProvider p = provider().apiKey(ApiKey.of("secret-key-xyz")).build();

        assertThat(p.toString()).doesNotContain("secret-key-xyz").startsWith("OllamaProvider[ollama-native at http://");
        assertThat(p.name()).isEqualTo("ollama-native");
    }
}
