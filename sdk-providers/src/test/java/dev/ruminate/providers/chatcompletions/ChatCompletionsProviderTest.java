package dev.ruminate.providers.chatcompletions;

import reactor.netty.http.server.HttpServer;
import reactor.netty.DisposableServer;
import reactor.core.publisher.Mono;
import java.time.Duration;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.error.InvalidRequestException;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@link ChatCompletionsProvider} over real HTTP against the emulator: the request it sends, the
 * events it emits and in what order, backpressure, cancellation, and think-tag splitting.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsProviderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String RAW_THINK_TAGS = "think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse";
    private static final String OPEN = "<think>";
    private static final String CLOSE = "</think>";

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private ChatCompletionsProvider provider(CompatProfile profile) {
        return Emulated.provider(emulator, profile).build();
    }

    private static ChatCompletionsScript reasoningThenToolCall() {
        return ChatCompletionsScript.create()
                .id("chatcmpl-42")
                .model("deepseek-reasoner")
                .reasoning("The user wants the weather in Paris. I will call the tool.")
                .toolCall("call_1", "weather", "{\"city\":\"Paris\"}")
                .finish("tool_calls")
                .usage(339, 83, 39)
                .tokensOf(5);
    }

    // --- the request ---

    static Stream<Arguments> streamingProfiles() {
        return Stream.of(
                Arguments.of("deepseek", true),
                Arguments.of("openai", true),
                Arguments.of("groq", true),
                Arguments.of("glm", false),
                Arguments.of("perplexity", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streamingProfiles")
    void streamPostsToChatCompletionsUnderTheBaseUrlWithTheKeyAndTheStreamFlags(String profile, boolean wantsUsage) {
        emulator.enqueue(ChatCompletionsScript.create().content("Hi").toResponse());

        Emulated.reduce(provider(Profiles.byName(profile)).stream(Emulated.REQUEST)).ok();

        assertThat(emulator.requests()).hasSize(1);
        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.method()).isEqualTo("POST");
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("Authorization")).isEqualTo("Bearer " + Emulated.KEY);
        assertThat(sent.header("Content-Type")).isEqualTo("application/json");
        assertThat(sent.header("Accept")).isEqualTo("text/event-stream");
        JsonNode body = MAPPER.readTree(sent.body());
        assertThat(body.get("model").stringValue()).isEqualTo("test-model");
        assertThat(body.get("messages").get(0).get("role").stringValue()).isEqualTo("user");
        assertThat(body.get("messages").get(0).get("content").stringValue()).isEqualTo("How many r's in strawberry?");
        assertThat(body.get("stream").booleanValue()).isTrue();
        if (wantsUsage) {
            assertThat(body.get("stream_options").get("include_usage").booleanValue()).isTrue();
        } else {
            assertThat(body.has("stream_options")).isFalse();
        }
        assertThat(sent.toString()).doesNotContain(Emulated.KEY);
    }

    @Test
    void theBodyIsSentWithItsUtf8LengthAndNotChunked() {
        emulator.enqueue(ChatCompletionsScript.create().content("Hi").toResponse());
        ChatRequest request = ChatRequest.builder("test-model").user("Ça coûte 5 € 🍓?").build();

        Emulated.reduce(provider(Profiles.DEEPSEEK).stream(request)).ok();

        RecordedRequest sent = emulator.requests().get(0);
        assertThat(MAPPER.readTree(sent.body()).get("messages").get(0).get("content").stringValue())
                .isEqualTo("Ça coûte 5 € 🍓?");
        assertThat(sent.header("Content-Length"))
                .isEqualTo(Integer.toString(sent.body().getBytes(StandardCharsets.UTF_8).length));
        assertThat(sent.header("Transfer-Encoding")).isNull();
    }

    @Test
    void anEventStreamWithACharsetParameterIsAccepted() {
        emulator.enqueue(ChatCompletionsScript.create().content("Hi").toResponse()
                .contentType("text/event-stream; charset=utf-8"));

        assertThat(Emulated.reduce(provider(Profiles.DEEPSEEK).stream(Emulated.REQUEST)).ok().message().text())
                .isEqualTo("Hi");
    }

    @Test
    void completeAsEventsPostsWithoutTheStreamFlags() {
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Hm.").content("Hi").toCompletionResponse());

        AssistantMessage m = Emulated.reduce(provider(Profiles.DEEPSEEK).completeAsEvents(Emulated.REQUEST)).ok()
                .message();

        assertThat(m.reasoning()).isEqualTo("Hm.");
        assertThat(m.text()).isEqualTo("Hi");
        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("Accept")).isEqualTo("application/json");
        JsonNode body = MAPPER.readTree(sent.body());
        assertThat(body.has("stream")).isFalse();
        assertThat(body.has("stream_options")).isFalse();
    }

    @Test
    void aTrailingSlashOnTheBaseUrlAndAProfileOwnAuthHeaderAreHonoured() {
        CompatProfile azureStyle = Profiles.OPENAI_COMPATIBLE.toBuilder().name("azure-style").auth("api-key", "")
                .build();
        emulator.enqueue(ChatCompletionsScript.create().content("Hi").toResponse());

        ChatCompletionsProvider provider = ChatCompletionsProvider.builder(azureStyle)
                .baseUrl(emulator.baseUrl() + "/openai/v1/")
                .apiKey(ApiKey.of(Emulated.KEY))
                .build();
        Emulated.reduce(provider.stream(Emulated.REQUEST)).ok();

        RecordedRequest sent = emulator.requests().get(0);
        assertThat(sent.path()).isEqualTo("/openai/v1/chat/completions");
        assertThat(sent.header("api-key")).isEqualTo(Emulated.KEY);
        assertThat(sent.header("Authorization")).isNull();
    }

    @Test
    void aQueryOnTheBaseUrlStaysAfterTheChatPath() {
        emulator.enqueue(ChatCompletionsScript.create().content("Hi").toResponse());

        ChatCompletionsProvider provider = ChatCompletionsProvider.builder(Profiles.OPENAI_COMPATIBLE)
                .baseUrl(emulator.baseUrl() + "/openai/deployments/r1/?api-version=2024-10-21")
                .build();
        Emulated.reduce(provider.stream(Emulated.REQUEST)).ok();

        assertThat(emulator.requests().get(0).path())
                .isEqualTo("/openai/deployments/r1/chat/completions?api-version=2024-10-21");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(booleans = {true, false})
    void anUnencodableRequestFailsThePublisherAndSendsNothing(boolean streaming) {
        ChatRequest request = ChatRequest.builder("test-model").user("Hi")
                .tool(new ToolDefinition("weather", "Gets the weather", "{\"type\": \"object\""))
                .build();
        ChatCompletionsProvider provider = provider(Profiles.DEEPSEEK);

        Flux<ChatEvent> events = streaming ? provider.stream(request) : provider.completeAsEvents(request);

        StepVerifier.create(events)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(InvalidRequestException.class)
                        .hasMessageContaining("cannot encode the request for deepseek")
                        .hasMessageContaining("tool weather has a parameters schema that is not valid JSON"))
                .verify(Emulated.TIMEOUT);
        assertThat(emulator.requests()).isEmpty();
    }

    // --- events, backpressure, cancellation ---

    @Test
    void eventsComeInWireOrderFromStartedToCompleted() {
        emulator.enqueue(reasoningThenToolCall().toResponse());
        StringBuilder reasoning = new StringBuilder();
        StringBuilder arguments = new StringBuilder();

        ChatCompletionsProvider deepseek = provider(Profiles.DEEPSEEK);
        StepVerifier.create(deepseek.stream(Emulated.REQUEST))
                // the pipeline stamps where the response came from
                .expectNext(new ResponseStarted("deepseek", "deepseek-reasoner", "chatcmpl-42").withOrigin(deepseek.origin(),
                        Emulated.REQUEST.model()))
                .thenConsumeWhile(ReasoningDelta.class::isInstance, e -> {
                    ReasoningDelta d = (ReasoningDelta) e;
                    assertThat(d.part()).isZero();
                    assertThat(d.source()).isEqualTo("reasoning_content");
                    reasoning.append(d.text());
                })
                .expectNext(new PartEnded(0))
                .assertNext(e -> assertThat(e).isEqualTo(new ToolCallDelta(1, 0, "call_1", "weather", "")))
                .thenConsumeWhile(ToolCallDelta.class::isInstance,
                        e -> arguments.append(((ToolCallDelta) e).argumentsDelta()))
                .expectNext(new PartEnded(1))
                .expectNext(new UsageUpdate(new Usage(339L, 83L, 39L, null)))
                .expectNext(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_calls"))
                .expectComplete()
                .verify(Emulated.TIMEOUT);

        assertThat(reasoning).hasToString("The user wants the weather in Paris. I will call the tool.");
        assertThat(arguments).hasToString("{\"city\":\"Paris\"}");
    }

    @Test
    void eventsAreEmittedOnlyAsRequested() {
        // one code point per delta: far more events than one request asks for, all in one body
        emulator.enqueue(reasoningThenToolCall().tokensOf(1).toResponse());

        // StepVerifier fails on any event beyond the demand ("request overflow")
        ChatCompletionsProvider deepseek = provider(Profiles.DEEPSEEK);
        StepVerifier.create(deepseek.stream(Emulated.REQUEST), 0)
                .expectSubscription()
                .thenRequest(1)
                .expectNext(new ResponseStarted("deepseek", "deepseek-reasoner", "chatcmpl-42").withOrigin(deepseek.origin(),
                        Emulated.REQUEST.model()))
                .thenRequest(1)
                .expectNext(new ReasoningDelta(0, "T", false, "reasoning_content"))
                .thenRequest(2)
                .expectNext(new ReasoningDelta(0, "h", false, "reasoning_content"),
                        new ReasoningDelta(0, "e", false, "reasoning_content"))
                .thenRequest(Long.MAX_VALUE)
                .thenConsumeWhile(e -> !(e instanceof ResponseCompleted))
                .expectNext(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_calls"))
                .expectComplete()
                .verify(Emulated.TIMEOUT);
    }

    @Test
    void thinkTagSplittingEmitsOnlyAsRequestedToo() {
        emulator.enqueue(ChatCompletionsScript.create().content("<think>ab</think>cd").tokensOf(1).toResponse());

        ChatCompletionsProvider perplexity = provider(Profiles.PERPLEXITY);
        StepVerifier.create(perplexity.stream(Emulated.REQUEST), 0)
                .thenRequest(1)
                .expectNext(new ResponseStarted("perplexity", "emulator-model", "chatcmpl-emulator").withOrigin(perplexity.origin(),
                        Emulated.REQUEST.model()))
                .thenRequest(1)
                .expectNext(new ReasoningDelta(0, "a", false, "tags"))
                .thenRequest(1)
                .expectNext(new ReasoningDelta(0, "b", false, "tags"))
                .thenRequest(2)
                .expectNext(new PartEnded(0), new ContentDelta(1, "c"))
                .thenRequest(Long.MAX_VALUE)
                .expectNext(new ContentDelta(1, "d"), new PartEnded(1))
                .expectNext(new ResponseCompleted(FinishReason.STOP, "stop"))
                .expectComplete()
                .verify(Emulated.TIMEOUT);
    }

    @Test
    void takeClosesTheConnectionOfAStalledStream() {
        String sse = reasoningThenToolCall().toSse();
        // the role chunk and four reasoning chunks arrive, then the server goes quiet for good
        emulator.enqueue(EmulatorResponse.sse(sse).stallAfter(Emulated.bytesOfEvents(sse, 5)));

        StepVerifier.create(provider(Profiles.DEEPSEEK).stream(Emulated.REQUEST).take(3))
                .expectNextCount(3)
                .expectComplete()
                .verify(Emulated.TIMEOUT);

        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Emulated.TIMEOUT);
        assertThat(emulator.openConnections()).isZero();
    }

    @Test
    void cancellingInTheMiddleOfAStalledStreamClosesTheConnection() {
        String sse = reasoningThenToolCall().toSse();
        emulator.enqueue(EmulatorResponse.sse(sse).chunked(ChunkPlan.fixed(64))
                .stallAfter(Emulated.bytesOfEvents(sse, 5)));
        List<ChatEvent> received = new ArrayList<>();

        StepVerifier.create(provider(Profiles.DEEPSEEK).stream(Emulated.REQUEST))
                .recordWith(() -> received)
                .expectNextCount(4)
                .thenCancel()
                .verify(Emulated.TIMEOUT);

        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Emulated.TIMEOUT);
        assertThat(received).hasSize(4).first().isInstanceOf(ResponseStarted.class);
        assertThat(received.subList(1, 4)).allMatch(ReasoningDelta.class::isInstance);
    }

    @Test
    void silenceAfterSomeEventsIsAnIdleTimeoutCarryingWhatArrived() {
        String sse = reasoningThenToolCall().toSse();
        emulator.enqueue(EmulatorResponse.sse(sse).stallAfter(Emulated.bytesOfEvents(sse, 5)));
        ChatCompletionsProvider provider = Emulated.provider(emulator, Profiles.DEEPSEEK)
                .readTimeout(Duration.ofMillis(300)).build();

        StepVerifier.create(ChatReducer.defaults().reduce(provider.stream(Emulated.REQUEST)))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(StreamTimeoutException.class);
                    assertThat(((StreamTimeoutException) e).phase()).isEqualTo(StreamTimeoutException.Phase.IDLE);
                    assertThat(((StreamTimeoutException) e).partial().reasoning()).isNotEmpty();
                })
                .verify(Emulated.TIMEOUT);
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(Emulated.TIMEOUT);
    }

    @Test
    void aServerThatNeverAnswersIsAFirstEventTimeout() {
        DisposableServer silent = HttpServer.create().host("127.0.0.1").port(0)
                .handle((req, res) -> req.receive().then(Mono.never()))
                .bindNow();
        try {
            ChatCompletionsProvider provider = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                    .baseUrl("http://127.0.0.1:" + silent.port())
                    .readTimeout(Duration.ofMillis(300))
                    .build();
            StepVerifier.create(provider.stream(Emulated.REQUEST))
                    .expectErrorSatisfies(e -> {
                        assertThat(e).isInstanceOf(StreamTimeoutException.class);
                        assertThat(((StreamTimeoutException) e).phase())
                                .isEqualTo(StreamTimeoutException.Phase.FIRST_EVENT);
                        assertThat(e.getMessage()).isEqualTo("first event timeout after PT0.3S");
                    })
                    .verify(Emulated.TIMEOUT);
        } finally {
            silent.disposeNow();
        }
    }

    // --- think tags ---

    /** The Groq recording's content with its tags, as the codec decodes it. */
    private static String rawThinkTagText() {
        return Fixtures.stream(Profiles.GROQ, RAW_THINK_TAGS).folded().text();
    }

    private AssistantMessage replayRawThinkTags(ChatCompletionsProvider provider) {
        emulator.enqueue(EmulatorResponse.replay(Fixtures.bytes(RAW_THINK_TAGS), "text/event-stream")
                .chunked(ChunkPlan.random(7L, 512)));
        return Emulated.reduce(provider.stream(Emulated.REQUEST)).ok().message();
    }

    private static void assertSplitOffTheTags(AssistantMessage m, String raw) {
        assertThat(raw).startsWith(OPEN);
        int close = raw.indexOf(CLOSE);
        assertThat(m.parts()).containsExactly(
                new ReasoningPart(raw.substring(OPEN.length(), close), false, "tags", Seals.NONE),
                new TextPart(raw.substring(close + CLOSE.length()), Seals.NONE));
        assertThat(m.usage()).isEqualTo(new Usage(21L, 988L, null, null));
        assertThat(m.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void perplexityProfileSplitsThinkTagsOutOfTheAnswer() {
        AssistantMessage m = replayRawThinkTags(provider(Profiles.PERPLEXITY));

        assertThat(m.provider()).isEqualTo("perplexity");
        assertSplitOffTheTags(m, rawThinkTagText());
    }

    @Test
    void thinkTagOverrideSplitsTagsForAProfileWithoutThem() {
        assertThat(Profiles.OPENAI_COMPATIBLE.thinkTags()).isNull();

        AssistantMessage m = replayRawThinkTags(Emulated.provider(emulator, Profiles.OPENAI_COMPATIBLE)
                .thinkTags(ThinkTagOptions.DEFAULT).build());

        assertSplitOffTheTags(m, rawThinkTagText());
    }

    @Test
    void thinkTagOverrideOfNullLeavesTheTagsInTheAnswer() {
        AssistantMessage m = replayRawThinkTags(Emulated.provider(emulator, Profiles.GROQ).thinkTags(null).build());

        assertThat(m.parts()).containsExactly(new TextPart(rawThinkTagText(), Seals.NONE));
    }

    /**
     * Every cut of the open tag (0 to 7) and of the close tag (0 to 8), twice over in different
     * pairings; the parser meets the two tags independently, so all pairs would add nothing.
     */
    static Stream<Arguments> tagCuts() {
        return IntStream.range(0, 2 * (CLOSE.length() + 1))
                .mapToObj(i -> Arguments.of(i % (OPEN.length() + 1), i % (CLOSE.length() + 1)));
    }

    @ParameterizedTest(name = "<think> cut at {0}, </think> at {1}")
    @MethodSource("tagCuts")
    void tagsCutAcrossDeltasAndChunksAreStillSplit(int openCut, int closeCut) {
        Random random = new Random(31L * openCut + closeCut);
        String reasoning = "\nCafé 😀: 2 < 3, <thinking> is no tag.\n";
        String answer = "\n\n42 🎉";
        ChatCompletionsScript script = ChatCompletionsScript.create()
                .content(OPEN.substring(0, openCut))
                .content(OPEN.substring(openCut) + reasoning + CLOSE.substring(0, closeCut))
                .content(CLOSE.substring(closeCut) + answer)
                .tokensOf(1 + random.nextInt(6));
        emulator.enqueue(script.toResponse().chunked(ChunkPlan.random(random.nextLong(), 1 + random.nextInt(64))));

        AssistantMessage m = Emulated.reduce(Emulated.provider(emulator, Profiles.OPENAI_COMPATIBLE)
                .thinkTags(ThinkTagOptions.DEFAULT).build().stream(Emulated.REQUEST)).ok().message();

        assertThat(m.parts()).containsExactly(
                new ReasoningPart(reasoning, false, "tags", Seals.NONE),
                new TextPart(answer, Seals.NONE));
    }
}
