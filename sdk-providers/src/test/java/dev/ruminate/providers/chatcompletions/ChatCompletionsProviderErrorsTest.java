package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.TransportException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import tools.jackson.databind.ObjectMapper;

/**
 * How {@link ChatCompletionsProvider} fails over real HTTP: always a typed
 * {@link RuminateException} with the right message, and, once events had arrived, the message
 * reduced so far attached to it by the reducer.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsProviderErrorsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String REASONING =
            "First the forecast, then the umbrella, then the shoes, then the coat, then the door.";
    private static final String BAD_GATEWAY = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
            + "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    /** The two calls a provider makes, by name, for parameterized tests. */
    static Stream<String> calls() {
        return Stream.of("stream", "completeAsEvents");
    }

    private static Function<ChatCompletionsProvider, Flux<ChatEvent>> call(String name) {
        return "stream".equals(name) ? p -> p.stream(Emulated.REQUEST) : p -> p.completeAsEvents(Emulated.REQUEST);
    }

    private RuminateException fail(CompatProfile profile, String call, EmulatorResponse response) {
        emulator.enqueue(response);
        return Emulated.reduce(call(call).apply(Emulated.provider(emulator, profile).build())).failed();
    }

    private RuminateException failStreaming(EmulatorResponse response) {
        return fail(Profiles.DEEPSEEK, "stream", response);
    }

    /** What an error shows anywhere: its stack trace (message, toString, causes), excerpt and parsed error. */
    private static String everything(Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        StringBuilder all = new StringBuilder(trace.toString());
        if (error instanceof ProviderHttpException http) {
            all.append(http.bodyExcerpt()).append(http.error());
        }
        return all.toString();
    }

    private static ChatCompletionsScript reasoningThenAnswer() {
        return ChatCompletionsScript.create().reasoning(REASONING).content("Take the umbrella.").tokensOf(4);
    }

    // --- HTTP status errors: nothing streamed, so nothing partial ---

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void unauthorizedParsesTheOpenAiErrorAndNeverShowsTheKey(String call) {
        // OpenAI masks the key it echoes; a careless proxy might not, so the body here echoes it whole
        String body = "{\"error\":{\"message\":\"Incorrect API key provided: " + Emulated.KEY + ". You can find your "
                + "API key at https://platform.openai.com/account/api-keys.\",\"type\":\"invalid_request_error\","
                + "\"param\":null,\"code\":\"invalid_api_key\"}}";

        RuminateException error = fail(Profiles.OPENAI, call,
                EmulatorResponse.httpError(401, body).header("x-request-id", "req_8b3e"));

        assertThat(error).isInstanceOf(AuthenticationException.class);
        AuthenticationException auth = (AuthenticationException) error;
        assertThat(auth.status()).isEqualTo(401);
        assertThat(auth.type()).isEqualTo("authentication_failed");
        assertThat(auth.isRetryable()).isFalse();
        assertThat(auth.requestId()).isEqualTo("req_8b3e");
        assertThat(auth.error()).isEqualTo(new ProviderError("invalid_request_error", "invalid_api_key",
                "Incorrect API key provided: [REDACTED]. You can find your API key at "
                        + "https://platform.openai.com/account/api-keys.", null));
        assertThat(auth.getMessage()).isEqualTo("openai answered HTTP 401: invalid_request_error/invalid_api_key: "
                + "Incorrect API key provided: [REDACTED]. You can find your API key at "
                + "https://platform.openai.com/account/api-keys. [request id req_8b3e]");
        assertThat(auth.partial()).isNull();
        assertThat(everything(auth)).doesNotContain(Emulated.KEY).doesNotContain("7f3c9a1e5b2d4086");
        assertThat(emulator.requests().get(0).header("Authorization")).isEqualTo("Bearer " + Emulated.KEY);
    }

    @Test
    void aKeyEchoedInsideTheStreamIsRedactedAndThePartialKept() {
        String sse = "data: {\"id\":\"c1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Hm\"}}]}\n\n"
                + "event: error\ndata: {\"error\":{\"message\":\"key " + Emulated.KEY + " lost its quota\",\"type\":\"quota\"}}\n\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]} " + Emulated.KEY + "\n\n";
        RuminateException inStream = failStreaming(EmulatorResponse.sse(sse));

        assertThat(inStream).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) inStream).error().message()).isEqualTo("key [REDACTED] lost its quota");
        assertThat(everything(inStream)).doesNotContain(Emulated.KEY);
        assertThat(inStream.partial().reasoning()).isEqualTo("Hm");

        RuminateException malformed = failStreaming(EmulatorResponse.sse(
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + Emulated.KEY + "\"}}]} trailing\n\n"));
        assertThat(malformed).isInstanceOf(ProtocolException.class);
        assertThat(malformed.getMessage()).contains("[REDACTED]");
        assertThat(everything(malformed)).doesNotContain(Emulated.KEY);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void rateLimitCarriesRetryAfter(String call) {
        RuminateException error = fail(Profiles.DEEPSEEK, call, EmulatorResponse.rateLimited(7,
                "{\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\","
                        + "\"param\":null,\"code\":\"rate_limit_exceeded\"}}"));

        assertThat(error).isInstanceOf(RateLimitException.class);
        RateLimitException limited = (RateLimitException) error;
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(limited.isRetryable()).isTrue();
        assertThat(limited.type()).isEqualTo("rate_limited");
        assertThat(limited.getMessage())
                .isEqualTo("deepseek answered HTTP 429: requests/rate_limit_exceeded: Rate limit reached for requests");
        assertThat(limited.partial()).isNull();
    }

    @Test
    void serverErrorParsesTheProviderBody() {
        RuminateException error = failStreaming(EmulatorResponse.httpError(500,
                "{\"error\":{\"message\":\"The server had an error while processing your request. Sorry about that!\","
                        + "\"type\":\"server_error\",\"param\":null,\"code\":null}}"));

        assertThat(error).isExactlyInstanceOf(ProviderHttpException.class);
        ProviderHttpException http = (ProviderHttpException) error;
        assertThat(http.status()).isEqualTo(500);
        assertThat(http.error().type()).isEqualTo("server_error");
        assertThat(http.error().message())
                .isEqualTo("The server had an error while processing your request. Sorry about that!");
        assertThat(http.isRetryable()).isTrue();
        assertThat(http.retryAfter()).isNull();
        assertThat(http.getMessage()).isEqualTo("deepseek answered HTTP 500: server_error: "
                + "The server had an error while processing your request. Sorry about that!");
        assertThat(http.partial()).isNull();
    }

    @Test
    void gatewayHtmlPageBecomesAnHttpErrorNamedByItsTitle() {
        RuminateException error = failStreaming(EmulatorResponse.html(502, BAD_GATEWAY));

        assertThat(error).isExactlyInstanceOf(ProviderHttpException.class);
        ProviderHttpException http = (ProviderHttpException) error;
        assertThat(http.status()).isEqualTo(502);
        assertThat(http.getMessage()).isEqualTo("deepseek answered HTTP 502: 502 Bad Gateway");
        assertThat(http.bodyExcerpt()).isEqualTo(BAD_GATEWAY);
        assertThat(http.isRetryable()).isTrue();
    }

    @Test
    void aServerThatIsGoneIsARetryableTransportError() {
        URI gone;
        try (ProviderEmulator stopped = ProviderEmulator.start()) {
            gone = stopped.baseUrl();
        }
        ChatCompletionsProvider provider = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                .baseUrl(gone + "/v1?key=" + Emulated.KEY)
                .apiKey(ApiKey.of(Emulated.KEY))
                .build();

        RuminateException error = Emulated.reduce(provider.stream(Emulated.REQUEST)).failed();

        assertThat(error).isInstanceOf(TransportException.class);
        assertThat(error.getMessage()).startsWith("POST " + gone + "/v1/chat/completions failed: ");
        assertThat(error.isRetryable()).isTrue();
        assertThat(error.partial()).isNull();
        assertThat(everything(error)).doesNotContain(Emulated.KEY);
    }

    // --- 2xx responses that are not the expected stream ---

    @Test
    void htmlPageWithStatus200IsAProtocolError() {
        RuminateException error = failStreaming(EmulatorResponse.html(200, BAD_GATEWAY));

        assertThat(error).isInstanceOf(ProtocolException.class);
        ProtocolException protocol = (ProtocolException) error;
        assertThat(protocol.reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_CONTENT_TYPE);
        assertThat(protocol.getMessage()).startsWith("unexpected content type: expected text/event-stream but the "
                + "response is text/html; charset=utf-8: <html> <head><title>502 Bad Gateway</title></head>");
        assertThat(protocol.partial()).isNull();
    }

    @Test
    void eventStreamLabelledAsPlainTextIsAProtocolError() {
        RuminateException error = failStreaming(reasoningThenAnswer().toResponse().contentType("text/plain"));

        assertThat(error).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) error).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_CONTENT_TYPE);
        assertThat(error.getMessage()).contains("expected text/event-stream but the response is text/plain: data: {");
    }

    @Test
    void wholeBodyCallAnsweredWithHtmlIsAProtocolError() {
        RuminateException error = fail(Profiles.DEEPSEEK, "completeAsEvents", EmulatorResponse.html(200, BAD_GATEWAY));

        assertThat(error).isInstanceOf(ProtocolException.class);
        assertThat(error.getMessage()).startsWith(
                "unexpected content type: expected application/json but the response is text/html; charset=utf-8");
    }

    @Test
    void streamingCallAnsweredWithAJsonErrorBodyIsAnHttpError() {
        RuminateException error = failStreaming(EmulatorResponse.json(200,
                "{\"error\":{\"message\":\"Model is overloaded\",\"type\":\"overloaded_error\"}}"));

        assertThat(error).isExactlyInstanceOf(ProviderHttpException.class);
        assertThat(((ProviderHttpException) error).error().type()).isEqualTo("overloaded_error");
        assertThat(error.getMessage()).isEqualTo("deepseek answered HTTP 200: overloaded_error: Model is overloaded");
    }

    // --- failures after events: the partial message is attached ---

    @Test
    void resetMidStreamKeepsTheReasoningReducedSoFar() {
        String sse = reasoningThenAnswer().toSse();
        // the role chunk and five reasoning chunks of four characters, then half of the sixth
        int cut = Emulated.bytesOfEvents(sse, 6) + 40;

        RuminateException error = failStreaming(EmulatorResponse.sse(sse).chunked(ChunkPlan.fixed(16)).resetAfter(cut));

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.getMessage()).startsWith(
                "stream ended early: the connection closed while the response body was being read");
        AssistantMessage partial = error.partial();
        assertThat(partial).isNotNull();
        assertThat(partial.parts()).containsExactly(
                new ReasoningPart(REASONING.substring(0, 20), false, "reasoning_content", Seals.NONE));
        assertThat(partial.finishReason()).isEqualTo(FinishReason.OTHER);
        assertThat(partial.provider()).isEqualTo("deepseek");
    }

    @Test
    void resetInsideThinkTagsKeepsTheTaggedReasoningSoFar() {
        String sse = ChatCompletionsScript.create().content("<think>" + REASONING + "</think>Take the umbrella.")
                .tokensOf(4).toSse();
        // the role chunk and five content chunks: "<thi", "nk>F", "irst", " the", " for"
        int cut = Emulated.bytesOfEvents(sse, 6) + 40;

        RuminateException error = fail(Profiles.PERPLEXITY, "stream", EmulatorResponse.sse(sse).resetAfter(cut));

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial()).isNotNull();
        assertThat(error.partial().parts()).containsExactly(
                new ReasoningPart(REASONING.substring(0, 13), false, "tags", Seals.NONE));
    }

    @Test
    void resetBeforeTheFirstByteIsIncompleteWithNothingPartial() {
        RuminateException error = failStreaming(reasoningThenAnswer().toResponse().resetAfter(0));

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial()).isNull();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 100})
    void resetWhileReadingAWholeBodyIsIncomplete(int bytes) {
        RuminateException error = fail(Profiles.DEEPSEEK, "completeAsEvents",
                reasoningThenAnswer().toCompletionResponse().resetAfter(bytes));

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.partial()).isNull();
    }

    @Test
    void malformedChunkNamesItsLineAndByteOffsetAndKeepsThePartial() {
        // chunk 0 is the role chunk, chunks 1 and 2 carry "Firs" and "t th"
        String sse = reasoningThenAnswer().malformedChunkAt(3).toSse();
        int malformedLine = 0;
        int malformedOffset = 0;
        int offset = 0;
        String[] lines = sse.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("data: {") && !parses(lines[i].substring("data: ".length()))) {
                malformedLine = i + 1;
                malformedOffset = offset;
                break;
            }
            offset += lines[i].getBytes(StandardCharsets.UTF_8).length + 1;
        }
        assertThat(malformedLine).as("the script wrote a malformed chunk").isPositive();

        RuminateException error = failStreaming(EmulatorResponse.sse(sse).chunked(ChunkPlan.random(3L, 24)));

        assertThat(error).isInstanceOf(ProtocolException.class);
        ProtocolException protocol = (ProtocolException) error;
        assertThat(protocol.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(protocol.line()).isEqualTo(malformedLine);
        assertThat(protocol.byteOffset()).isEqualTo(malformedOffset);
        assertThat(protocol.getMessage())
                .startsWith("malformed json at line " + malformedLine + ", byte " + malformedOffset + ": ");
        assertThat(protocol.partial()).isNotNull();
        assertThat(protocol.partial().parts()).containsExactly(
                new ReasoningPart(REASONING.substring(0, 8), false, "reasoning_content", Seals.NONE));
    }

    @Test
    void malformedChunkOffsetsCountBothBytesOfCrLfLineEnds() {
        String sse = reasoningThenAnswer().malformedChunkAt(3).toSse().replace("\n", "\r\n");
        String[] lines = sse.split("\r\n", -1);
        int line = 0;
        int offset = 0;
        while (!lines[line].startsWith("data: {") || parses(lines[line].substring("data: ".length()))) {
            offset += lines[line].getBytes(StandardCharsets.UTF_8).length + 2;
            line++;
        }

        RuminateException error = failStreaming(EmulatorResponse.sse(sse).chunked(ChunkPlan.random(5L, 3)));

        assertThat(error).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) error).line()).isEqualTo(line + 1);
        assertThat(((ProtocolException) error).byteOffset()).isEqualTo(offset);
    }

    private static boolean parses(String json) {
        try {
            MAPPER.readTree(json);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Test
    void groqToolUseFailedRecordingEndsWithTheProviderErrorAndTheReasoningSoFar() {
        byte[] recording = Fixtures.bytes("groq/pydantic-groq-tool-use-failed-error-stream.turn1.sse");

        RuminateException error =
                fail(Profiles.GROQ, "stream", EmulatorResponse.replay(recording, "text/event-stream"));

        assertThat(error).isInstanceOf(ProviderStreamException.class);
        ProviderStreamException stream = (ProviderStreamException) error;
        assertThat(stream.type()).isEqualTo("provider_stream_error");
        assertThat(stream.error().type()).isEqualTo("invalid_request_error");
        assertThat(stream.error().code()).isEqualTo("tool_use_failed");
        assertThat(stream.getMessage()).startsWith("groq reported an error in the stream: "
                + "invalid_request_error/tool_use_failed: Tool call validation failed: tool call validation failed: "
                + "parameters for tool get_something_by_name did not match schema");
        assertThat(stream.isRetryable()).isFalse();
        AssistantMessage partial = stream.partial();
        assertThat(partial).isNotNull();
        assertThat(partial.parts()).hasSize(1).first().isInstanceOf(ReasoningPart.class);
        String reasoning = partial.reasoning();
        assertThat(reasoning.codePointCount(0, reasoning.length())).isEqualTo(412);
        assertThat(reasoning).startsWith("We need to call the tool with invalid parameters first, then")
                .endsWith("name: {}. Then second call with name: \"test\". Let's do that.");
        assertThat(partial.model()).isEqualTo("openai/gpt-oss-120b");
    }

    @Test
    void bodyEndingWithoutDoneOrFinishReasonIsIncomplete() {
        RuminateException error = failStreaming(
                ChatCompletionsScript.create().content("The answer is").finish(null).done(false).toResponse());

        assertThat(error).isInstanceOf(IncompleteStreamException.class);
        assertThat(error.getMessage())
                .isEqualTo("stream ended early: the body ended without [DONE] or a finish_reason");
        assertThat(error.partial()).isNotNull();
        assertThat(error.partial().parts()).containsExactly(new TextPart("The answer is", Seals.NONE));
    }
}
