package dev.ruminate.providers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * No reduced message holds a text or reasoning part with empty text and no opaque state, whatever the
 * family: every recorded stream and body, served over real HTTP to the client of the family its content
 * shows, reduces (or fails with a partial message) without one. Parts with empty text and a seal stay
 * (Anthropic's omitted thinking, Gemini's trailing signed empty text). A Bedrock stream that opens
 * with an empty text block, which Bedrock rejects when sent back, gives no part for it, and the next
 * request sends none.
 */
@ExtendWith(NettyLeakCheck.class)
class NoEmptyPartsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ApiKey KEY = ApiKey.of("emulated-key-not-a-secret");
    private static final AwsCredentials AWS = AwsCredentials.of("AKIDEMULATED", "emulated-secret-not-a-secret");
    private static final ChatRequest REQUEST = ChatRequest.builder("m").user("Hi").build();
    private static final AtomicInteger REDUCED = new AtomicInteger();

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
        // most recordings reduce whole: the property is not met by failing them all
        assertThat(REDUCED.get()).isGreaterThan(WireFormatTest.recordings().size() * 3 / 4);
    }

    static List<String> recordings() {
        return WireFormatTest.recordings();
    }

    /** The client of a family's usual kind; a Chat Completions recording gets its folder's profile when it names one. */
    private static ChatProvider client(String path, ApiFamily family) {
        String folder = path.substring(0, path.indexOf('/'));
        String name = switch (family) {
            case ANTHROPIC -> "anthropic";
            case GEMINI -> "gemini";
            case OLLAMA -> "ollama-native";
            case BEDROCK -> "bedrock";
            case RESPONSES -> "openai-responses";
            case CHAT_COMPLETIONS -> ProviderKinds.find(folder).filter(k -> k.api() == ApiFamily.CHAT_COMPLETIONS)
                    .map(ProviderKind::name).orElse("openai-compatible");
        };
        ProviderKind kind = ProviderKinds.get(name);
        ProviderSettings.Builder settings = ProviderSettings.builder().baseUrl(emulator.baseUrl());
        switch (kind.credential()) {
            case API_KEY, OPTIONAL_API_KEY -> settings.apiKey(KEY);
            case ACCESS_TOKEN -> settings.accessToken(KEY);
            case AWS_CREDENTIALS -> settings.awsCredentials(AWS).region("us-east-1");
        }
        return kind.create(settings.build());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void noRecordingReducesToAnEmptyUnsealedPart(String path) {
        byte[] body = Recorded.bytes(path);
        WireFormat format = WireFormat.recognise(body);
        assertThat(format.family()).as(path).isNotNull();
        emulator.enqueue(EmulatorResponse.replay(body, format.framing().contentType()));
        ChatProvider client = client(path, format.family());
        Flux<ChatEvent> events = format.framing().streaming() ? client.stream(REQUEST) : client.completeAsEvents(REQUEST);

        AssistantMessage message = reduce(events);

        if (message != null) {
            assertThat(message.parts()).as("%s: %s", path, message.parts()).noneMatch(NoEmptyPartsTest::emptyAndUnsealed);
        }
    }

    @Test
    void aBedrockStreamOpeningWithAnEmptyTextBlockGivesNoPartForItAndSendsNoneBack() {
        BedrockScript script = BedrockScript.create().text("").reasoning("Need the time.", "sig-1")
                .toolUse("tooluse_1", "clock", "{}").stopReason("tool_use");
        emulator.enqueue(script.toResponse());
        BedrockProvider bedrock = BedrockProvider.builder("us-east-1").baseUrl(emulator.baseUrl().toString())
                .credentials(AWS).build();

        ChatResult result = ChatReducer.defaults().reduce(bedrock.stream(REQUEST)).block(WAIT);

        assertThat(result).isNotNull();
        List<Part> parts = result.message().parts();
        assertThat(parts).extracting(Part::getClass).containsExactly(ReasoningPart.class, ToolCallPart.class);
        // the same script as a whole Converse body
        emulator.enqueue(EmulatorResponse.json(200, script.toConverseJson()));
        ChatResult whole = ChatReducer.defaults().reduce(bedrock.completeAsEvents(REQUEST)).block(WAIT);
        assertThat(whole).isNotNull();
        assertThat(whole.message().parts()).noneMatch(NoEmptyPartsTest::emptyAndUnsealed);

        emulator.enqueue(BedrockScript.create().text("12:00").toResponse());
        ChatRequest next = ChatRequest.builder("m").user("Hi").message(result.message())
                .message(new ToolResultMessage("tooluse_1", "clock", "12:00", false)).build();
        ChatReducer.defaults().reduce(bedrock.stream(next)).block(WAIT);
        RecordedRequest sent = emulator.requests().get(emulator.requests().size() - 1);
        assertThat(sent.body()).contains("\"toolUseId\":\"tooluse_1\"", "Need the time.")
                .doesNotContain("{\"text\":\"\"}");
    }

    private static @Nullable AssistantMessage reduce(Flux<ChatEvent> events) {
        try {
            ChatResult result = ChatReducer.defaults().reduce(events).block(WAIT);
            REDUCED.incrementAndGet();
            return result == null ? null : result.message();
        } catch (RuminateException e) {
            return e.partial();
        }
    }

    static boolean emptyAndUnsealed(Part part) {
        return part instanceof TextPart t && t.text().isEmpty() && t.seals().isEmpty()
                || part instanceof ReasoningPart r && r.text().isEmpty() && r.seals().isEmpty();
    }
}
