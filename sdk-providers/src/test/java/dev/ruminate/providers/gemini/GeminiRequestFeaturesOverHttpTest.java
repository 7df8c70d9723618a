package dev.ruminate.providers.gemini;

import static dev.ruminate.providers.gemini.GeminiMediaEncodingTest.PDF;
import static dev.ruminate.providers.gemini.GeminiMediaEncodingTest.PNG;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.StructuredOutput;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 18's Gemini requests over real HTTP, against the emulator checking Gemini's acceptance
 * rules: structured output and media that pass them, bad input refused before any request, the
 * encoder's warnings on the result, and cached input tokens read from AI Studio and Vertex AI
 * responses (streamed and whole).
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiRequestFeaturesOverHttpTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start().checking(AcceptanceRules.gemini());
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private GeminiProvider studio() {
        return GeminiProvider.builder().baseUrl(emulator.baseUrl() + "/v1beta").apiKey(ApiKey.of("AIzaSy-test")).build();
    }

    private GeminiProvider vertex() {
        return GeminiProvider.vertex("p", "us-central1")
                .baseUrl(emulator.baseUrl() + "/v1/projects/p/locations/us-central1/publishers/google")
                .accessToken(ApiKey.of("ya29.t")).build();
    }

    private static ChatResult reduce(Flux<ChatEvent> events) {
        return ChatReducer.defaults().reduce(events).block(WAIT);
    }

    @Test
    void nativeStructuredOutputWithThinkingAndMediaPassGeminisRules() {
        ChatRequest request = ChatRequest.builder("gemini-3-flash-preview")
                .user("Weather in this photo and report?", Media.image(PNG, "image/png"),
                        Media.documentUrl("gs://bucket/report.pdf", "application/pdf", null))
                .output(GeminiStructuredOutputTest.OUTPUT)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build();
        emulator.enqueue(GeminiScript.create().model("gemini-3-flash-preview").thought("Reading.")
                .text("{\"city\":\"Paris\",\"celsius\":14}").toResponse());

        ChatResult result = reduce(studio().stream(request));

        assertThat(result.message().text()).isEqualTo("{\"city\":\"Paris\",\"celsius\":14}");
        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.rejectedBy()).isNull();
        JsonNode body = JSON.readTree(sent.body());
        assertThat(body.at("/generationConfig/responseMimeType").asString()).isEqualTo("application/json");
        assertThat(body.at("/contents/0/parts/0/inlineData/mimeType").asString()).isEqualTo("image/png");
        assertThat(body.at("/contents/0/parts/1/fileData/mimeType").asString()).isEqualTo("application/pdf");
    }

    @Test
    void theForcedOutputFunctionPassesGeminisRulesOnVertex() {
        ChatRequest request = ChatRequest.builder("gemini-2.5-pro").user("Weather?", Media.document(PDF, "application/pdf", null))
                .output(GeminiStructuredOutputTest.OUTPUT.withStrategy(OutputSchema.Strategy.TOOL))
                .build();
        emulator.enqueue(GeminiScript.create().functionCall("weather_report", "{\"city\":\"Paris\",\"celsius\":14}", null)
                .toJsonResponse());

        ChatResult result = reduce(vertex().completeAsEvents(request));

        assertThat(emulator.requests().get(0).rejectedBy()).isNull();
        assertThat(emulator.requests().get(0).path()).endsWith("/models/gemini-2.5-pro:generateContent");
        // the pipeline turns the forced output function's call into the answer text and checks it
        assertThat(result.message().toolCalls()).isEmpty();
        assertThat(result.message().text()).isEqualTo("{\"city\":\"Paris\",\"celsius\":14}");
        assertThat(result.output()).isEqualTo(new StructuredOutput("weather_report", StructuredOutputMethod.TOOL_FORCED,
                true, List.of(), 1, "{\"city\":\"Paris\",\"celsius\":14}"));
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("image URL without a media type", ChatRequest.builder("gemini-3-pro-preview")
                        .user("x", Media.imageUrl("https://example.com/cat", null)).build(), Reason.SOURCE),
                Arguments.of("GIF", ChatRequest.builder("gemini-3-pro-preview")
                        .user("x", Media.image(PNG, "image/gif")).build(), Reason.MEDIA_TYPE),
                Arguments.of("Word document", ChatRequest.builder("gemini-3-pro-preview").user("x", Media.document(PDF,
                        "application/msword", "a.doc")).build(), Reason.MEDIA_TYPE),
                Arguments.of("21 MiB PDF", ChatRequest.builder("gemini-3-pro-preview")
                        .user("x", Media.document(new byte[16 * 1024 * 1024], "application/pdf", null)).build(), Reason.TOO_LARGE),
                Arguments.of("image in a tool result", ChatRequest.builder("gemini-3-pro-preview").user("x")
                        .message(new ToolResultMessage("c", "shot", "ok", false, List.of(Media.image(PNG, "image/png")))).build(),
                        Reason.KIND));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputIsRefusedTypedBeforeAnyRequest(String what, ChatRequest request, Reason reason) {
        Throwable error = catchError(() -> reduce(studio().stream(request)));

        assertThat(error).isInstanceOf(UnsupportedInputException.class);
        UnsupportedInputException typed = (UnsupportedInputException) error;
        assertThat(typed.reason()).isEqualTo(reason);
        assertThat(typed.getMessage()).contains("gemini").contains("message");
        assertThat(emulator.requests()).isEmpty();
    }

    private static Throwable catchError(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("no error");
    }

    @Test
    void theEncodersWarningsReachTheResult() {
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview").system("Manual.").user("Q")
                .caching(PromptCaching.conversation()).reasoning(ReasoningOptions.effort(ReasoningEffort.MAX)).build();
        emulator.enqueue(GeminiScript.create().text("A").toResponse());

        ChatResult result = reduce(studio().stream(request));

        assertThat(result.warnings()).extracting(Warning::code)
                .containsExactly(Warning.OPTION_IGNORED, Warning.OPTION_COERCED);
        assertThat(result.warnings().get(0).message()).contains("breakpoints");
        assertThat(result.warnings().get(1).message()).contains("thinkingLevel max");
        assertThat(emulator.requests().get(0).body()).contains("\"thinkingLevel\":\"high\"");
    }

    private static final String CACHED_USAGE = "\"usageMetadata\":{\"promptTokenCount\":2100,\"candidatesTokenCount\":5,"
            + "\"totalTokenCount\":2135,\"cachedContentTokenCount\":2048,\"thoughtsTokenCount\":30,"
            + "\"cacheTokensDetails\":[{\"modality\":\"TEXT\",\"tokenCount\":2048}],"
            + "\"promptTokensDetails\":[{\"modality\":\"TEXT\",\"tokenCount\":2100}]}";

    private static String chunk(String text, boolean last) {
        return "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"" + text + "\"}]}"
                + (last ? ",\"finishReason\":\"STOP\"" : "") + ",\"index\":0}]"
                + (last ? "," + CACHED_USAGE : "") + ",\"modelVersion\":\"gemini-2.5-flash\",\"responseId\":\"r-1\"}";
    }

    @Test
    void cachedContentTokensAreReadFromAStreamedAnswer() {
        String sse = "data: " + chunk("Cached ", false) + "\r\n\r\ndata: " + chunk("answer.", true) + "\r\n\r\n";
        emulator.enqueue(EmulatorResponse.replay(sse.getBytes(StandardCharsets.UTF_8), "text/event-stream"));

        ChatResult result = reduce(studio().stream(ChatRequest.builder("gemini-2.5-flash").user("Q").build()));

        assertThat(result.message().text()).isEqualTo("Cached answer.");
        assertThat(result.message().usage()).isEqualTo(new Usage(2100L, 35L, 30L, 2048L, null));
    }

    @Test
    void cachedContentTokensAreReadFromAWholeBodyOnAiStudioAndVertex() {
        // Vertex writes role before parts and adds createTime and trafficType (PROTOCOLS.md §4)
        String vertexBody = chunk("Cached answer.", true).replace("\"responseId\"",
                "\"createTime\":\"2026-11-26T04:00:00Z\",\"responseId\"").replace("\"cachedContentTokenCount\"",
                "\"trafficType\":\"ON_DEMAND\",\"cachedContentTokenCount\"");
        emulator.enqueue(EmulatorResponse.json(200, chunk("Cached answer.", true)));
        emulator.enqueue(EmulatorResponse.json(200, vertexBody));
        ChatRequest request = ChatRequest.builder("gemini-2.5-flash").user("Q").build();

        Usage studio = reduce(studio().completeAsEvents(request)).message().usage();
        Usage vertex = reduce(vertex().completeAsEvents(request)).message().usage();

        assertThat(studio).isEqualTo(new Usage(2100L, 35L, 30L, 2048L, null));
        assertThat(vertex).isEqualTo(studio);
    }
}
