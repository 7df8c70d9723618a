package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Mistral over real HTTP: the recorded stream, scripted thinking-chunk streams with tool calls, and faults. */
@ExtendWith(NettyLeakCheck.class)
class MistralProviderTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final ChatRequest MAGISTRAL = ChatRequest.builder("magistral-medium-latest").user("2+2?")
            .reasoning(new ReasoningOptions(true, null, null, null)).build();

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private Emulated.Reduced stream(EmulatorResponse response) {
        emulator.enqueue(response);
        return Emulated.reduce(Emulated.provider(emulator, Profiles.MISTRAL).build().stream(MAGISTRAL));
    }

    @Test
    void recordedMagistralStreamOverHttp() {
        AssistantMessage m = stream(EmulatorResponse.replay(Recorded.bytes("mistral/vercel-magistral-thinking-chunks-stream.sse"),
                "text/event-stream")).ok().message();

        assertThat(m.provider()).isEqualTo("mistral");
        assertThat(m.reasoning()).isEqualTo("The user is asking for 2+2. This is basic arithmetic. 2+2=4.");
        assertThat(m.text()).isEqualTo("2 + 2 = 4");
        assertThat(m.usage()).isEqualTo(new Usage(10L, 46L, null, null));
        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("authorization")).isEqualTo("Bearer " + Emulated.KEY);
        JsonNode body = MAPPER.readTree(sent.body());
        assertThat(body.get("prompt_mode").stringValue()).isEqualTo("reasoning");
        assertThat(body.get("stream").booleanValue()).isTrue();
    }

    @Test
    void scriptedThinkingChunksWithAToolCallStreamedAndWhole() {
        ChatCompletionsScript script = ChatCompletionsScript.create().model("magistral-small-2509").thinkingChunks(true)
                .reasoning("Need the weather in Paris.").content("Checking.")
                .toolCall("abc123XYZ", "weather", "{\"city\": \"Paris\"}").wholeToolCalls(true)
                .finish("tool_calls").usage(20, 30, 0).usageOnFinishChunk(true).tokensOf(3);

        AssistantMessage streamed = stream(script.toResponse()).ok().message();
        emulator.enqueue(script.toCompletionResponse());
        AssistantMessage whole = Emulated.reduce(Emulated.provider(emulator, Profiles.MISTRAL).build()
                .completeAsEvents(MAGISTRAL)).ok().message();

        for (AssistantMessage m : new AssistantMessage[] {streamed, whole}) {
            assertThat(m.reasoning()).isEqualTo("Need the weather in Paris.");
            assertThat(m.text()).isEqualTo("Checking.");
            assertThat(m.toolCalls()).singleElement().satisfies(c -> {
                assertThat(c.id()).isEqualTo("abc123XYZ");
                assertThat(c.name()).isEqualTo("weather");
                assertThat(c.arguments()).isEqualTo("{\"city\": \"Paris\"}");
            });
            assertThat(m.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
            assertThat(m.usage()).isEqualTo(new Usage(20L, 30L, 0L, null));
        }
        assertThat(whole.parts()).isEqualTo(streamed.parts());
    }

    @Test
    void mistralErrorBodiesBecomeTypedErrors() {
        RuminateException invalid = stream(EmulatorResponse.httpError(400, "{\"object\":\"error\",\"message\":"
                + "\"Invalid model: magistral-huge\",\"type\":\"invalid_model\",\"param\":null,\"code\":\"1500\"}")).failed();
        assertThat(invalid).isInstanceOf(ProviderHttpException.class);
        assertThat(((ProviderHttpException) invalid).error().message()).isEqualTo("Invalid model: magistral-huge");
        assertThat(((ProviderHttpException) invalid).error().type()).isEqualTo("invalid_model");

        RuminateException limited = stream(EmulatorResponse.rateLimited(3, "{\"message\":\"Requests rate limit exceeded\"}"))
                .failed();
        assertThat(limited).isInstanceOf(RateLimitException.class);
        assertThat(((RateLimitException) limited).retryAfter()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aTruncatedThinkingStreamKeepsItsPartialReasoning() {
        RuminateException error = stream(ChatCompletionsScript.create().thinkingChunks(true).reasoning("Half a thou")
                .finish(null).done(false).toResponse()).failed();

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial().reasoning()).isEqualTo("Half a thou");
    }

    @Test
    void aMalformedChunkIsAProtocolError() {
        RuminateException error = stream(ChatCompletionsScript.create().thinkingChunks(true).reasoning("ab")
                .malformedChunkAt(2).toResponse()).failed();

        assertThat(error).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) error).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
    }
}
