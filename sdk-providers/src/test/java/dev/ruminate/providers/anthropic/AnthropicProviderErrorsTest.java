package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every way an Anthropic call can fail over HTTP becomes a typed error, with the partial message where events arrived. */
@ExtendWith(NettyLeakCheck.class)
class AnthropicProviderErrorsTest {

    private static final String OVERLOADED = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
    private static final String SIG = "EqQBCkYIBxgCKkB/signature==";

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    private static RuminateException fail(String call, EmulatorResponse response) {
        emulator.enqueue(response);
        AnthropicProvider provider = AnthropicEmulated.provider(emulator).build();
        return AnthropicEmulated.reduce("stream".equals(call)
                ? provider.stream(AnthropicEmulated.REQUEST)
                : provider.completeAsEvents(AnthropicEmulated.REQUEST)).failed();
    }

    @ParameterizedTest
    @ValueSource(strings = {"stream", "complete"})
    void overloaded529IsARetryableHttpErrorWithAnthropicsTypeAndMessage(String call) {
        RuminateException error = fail(call, EmulatorResponse.httpError(529, OVERLOADED).header("request-id", "req_011"));

        assertThat(error).isExactlyInstanceOf(ProviderHttpException.class);
        ProviderHttpException http = (ProviderHttpException) error;
        assertThat(http.status()).isEqualTo(529);
        assertThat(http.error().type()).isEqualTo("overloaded_error");
        assertThat(http.error().message()).isEqualTo("Overloaded");
        assertThat(http.requestId()).isEqualTo("req_011");
        assertThat(http.isRetryable()).isTrue();
        assertThat(http.getMessage()).isEqualTo("anthropic answered HTTP 529: overloaded_error: Overloaded [request id req_011]");
        assertThat(http.partial()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"stream", "complete"})
    void rateLimitCarriesRetryAfter(String call) {
        RuminateException error = fail(call, EmulatorResponse.rateLimited(12,
                "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Number of request tokens has exceeded your per-minute rate limit\"}}"));

        assertThat(error).isInstanceOf(RateLimitException.class);
        RateLimitException limited = (RateLimitException) error;
        assertThat(limited.retryAfter()).isEqualTo(Duration.ofSeconds(12));
        assertThat(limited.error().type()).isEqualTo("rate_limit_error");
        assertThat(limited.error().message()).startsWith("Number of request tokens");
        assertThat(limited.isRetryable()).isTrue();
    }

    @Test
    void badKeyIsAnAuthenticationErrorThatNeverShowsTheKey() {
        RuminateException error = fail("stream", EmulatorResponse.httpError(401,
                "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key "
                        + AnthropicEmulated.KEY + "\"}}"));

        assertThat(error).isInstanceOf(AuthenticationException.class);
        assertThat(((AuthenticationException) error).error().type()).isEqualTo("authentication_error");
        assertThat(error.getMessage()).doesNotContain(AnthropicEmulated.KEY).contains("[REDACTED]");
        assertThat(error.isRetryable()).isFalse();
    }

    @Test
    void invalidRequestIsNotRetryable() {
        RuminateException error = fail("complete", EmulatorResponse.httpError(400,
                "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                        + "\"message\":\"messages.1.content.0.thinking.signature: Field required\"}}"));

        // a refusal of opaque state is typed as such, and is still the HTTP error
        assertThat(error).isInstanceOf(ProviderHttpException.class).isInstanceOfSatisfying(
                OpaqueStateRejectedException.class, typed -> assertThat(typed.reason())
                        .isEqualTo(OpaqueStateRejectedException.Reason.MISSING_SIGNATURE));
        assertThat(((ProviderHttpException) error).error().message())
                .isEqualTo("messages.1.content.0.thinking.signature: Field required");
        assertThat(error.isRetryable()).isFalse();
    }

    @Test
    void anErrorBodyWithStatus200IsAProviderError() {
        RuminateException error = fail("complete", EmulatorResponse.json(200, OVERLOADED));

        assertThat(error).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) error).error().type()).isEqualTo("overloaded_error");
        assertThat(error.isRetryable()).isTrue();
    }

    @Test
    void overloadedMidStreamKeepsThePartialMessage() {
        String sse = AnthropicScript.create().thinking("Considering", SIG).text("The answ")
                .error("overloaded_error", "Overloaded").toSse();

        RuminateException error = fail("stream", EmulatorResponse.sse(sse).chunked(ChunkPlan.fixed(13)));

        assertThat(error).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) error).error().message()).isEqualTo("Overloaded");
        assertThat(error.isRetryable()).isTrue();
        AssistantMessage partial = error.partial();
        assertThat(partial).isNotNull();
        assertThat(partial.reasoning()).isEqualTo("Considering");
        assertThat(partial.text()).isEqualTo("The answ");
        assertThat(partial.provider()).isEqualTo("anthropic");
    }

    @Test
    void aStreamWithoutMessageStopIsIncompleteWithThePartialMessage() {
        String sse = AnthropicScript.create().thinking("Thinking", SIG).toolUse("toolu_1", "f", "{\"a\":1}")
                .stop(false).toSse();

        RuminateException error = fail("stream", EmulatorResponse.sse(sse));

        assertThat(error).isInstanceOf(IncompleteStreamException.class).hasMessageContaining("message_stop");
        AssistantMessage partial = error.partial();
        assertThat(partial.reasoning()).isEqualTo("Thinking");
        assertThat(partial.toolCalls()).containsExactly(new ToolCallPart("toolu_1", "f", "{\"a\":1}", true, Seals.NONE));
        assertThat(partial.finishReason()).isEqualTo(FinishReason.OTHER);
    }

    @Test
    void aConnectionResetMidStreamIsIncompleteWithWhatArrived() {
        String sse = AnthropicScript.create().text("abcdefghijklmnopqrstuvwxyz").tokensOf(2).toSse();
        byte[] bytes = sse.getBytes(StandardCharsets.UTF_8);
        int cut = sse.indexOf("\"text\":\"ij\"");

        RuminateException error = fail("stream", EmulatorResponse.sse(sse).chunked(ChunkPlan.fixed(9)).resetAfter(cut));

        assertThat(cut).isLessThan(bytes.length);
        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial().text()).isEqualTo("abcdefgh");
    }

    @Test
    void malformedJsonInTheStreamIsAProtocolError() {
        String sse = AnthropicScript.create().text("ok").toSse().replace("\"text\":\"ok\"", "\"text\":\"ok");

        RuminateException error = fail("stream", EmulatorResponse.sse(sse));

        assertThat(error).isInstanceOfSatisfying(ProtocolException.class,
                p -> assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON));
    }

    @Test
    void malformedBodyIsAProtocolError() {
        RuminateException error = fail("complete", EmulatorResponse.json(200, "{\"id\":\"msg\",\"content\":[{\"type\":"));

        assertThat(error).isInstanceOfSatisfying(ProtocolException.class,
                p -> assertThat(p.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON));
    }

    @Test
    void aRequestThatCannotBeEncodedFailsTheFluxNotTheCall() {
        AssistantMessage bad = new AssistantMessage(List.of(new ToolCallPart("toolu_1", "f", "{not json", false, Seals.NONE)),
                "anthropic", "m", FinishReason.TOOL_CALLS, "tool_use", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("m").message(new UserMessage("hi")).message(bad).build();
        AnthropicProvider provider = AnthropicEmulated.provider(emulator).build();
        int before = emulator.requests().size();

        RuminateException error = AnthropicEmulated.reduce(provider.stream(request)).failed();

        assertThat(error).isInstanceOf(InvalidRequestException.class).hasMessageContaining("not valid JSON");
        assertThat(emulator.requests()).hasSize(before);
    }

    @Test
    void theBuilderRejectsBadSettings() {
        assertThatThrownBy(() -> AnthropicProvider.builder().baseUrl("ftp://x").build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnthropicProvider.builder().betas("a,b"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnthropicProvider.builder().maxTokens(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnthropicProvider.builder().readTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AnthropicProvider.builder().apiKey(ApiKey.of(AnthropicEmulated.KEY)).build())
                .hasToString("AnthropicProvider[anthropic at https://api.anthropic.com]");
    }
}
