package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Chat Completions recording served byte for byte over HTTP and read by
 * {@link ChatCompletionsProvider}: it reduces to exactly what the codec gives for the same bytes
 * without HTTP, and the facts ChatCompletionsFixturesTest verified hold at the far end of the wire.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsProviderReplayTest {

    private static final String EVENT_STREAM = "text/event-stream";
    private static final String JSON = "application/json";

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static List<String> streams() {
        return Recordings.streams();
    }

    static List<String> bodies() {
        return Recordings.bodies();
    }

    private static Emulated.Reduced streamOverHttp(CompatProfile profile, String path) {
        emulator.enqueue(EmulatorResponse.replay(Fixtures.bytes(path), EVENT_STREAM));
        return Emulated.reduce(Emulated.provider(emulator, profile).build().stream(Emulated.REQUEST));
    }

    private static Emulated.Reduced completeOverHttp(CompatProfile profile, String path) {
        emulator.enqueue(EmulatorResponse.replay(Fixtures.bytes(path), JSON));
        return Emulated.reduce(Emulated.provider(emulator, profile).build().completeAsEvents(Emulated.REQUEST));
    }

    @Test
    void theRecordingsAreAllThere() {
        assertThat(streams()).hasSize(22);
        assertThat(bodies()).hasSize(25);
        assertThat(Recordings.all()).allSatisfy(path -> assertThat(Recordings.profile(path)).isNotNull());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void recordedStreamReducesOverHttpAsTheCodecDecodesIt(String path) {
        CompatProfile profile = Recordings.profile(path);

        Emulated.Reduced http = streamOverHttp(profile, path);

        assertThat(http.comparable()).isEqualTo(Emulated.codecStream(profile, Fixtures.bytes(path)).comparable());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void recordedBodyReducesOverHttpAsTheCodecDecodesIt(String path) {
        CompatProfile profile = Recordings.profile(path);

        Emulated.Reduced http = completeOverHttp(profile, path);

        assertThat(http.comparable()).isEqualTo(Emulated.codecCompletion(profile, Fixtures.bytes(path)).comparable());
    }

    @Test
    void deepSeekReasoningThenToolCallStream() {
        AssistantMessage m = streamOverHttp(Profiles.DEEPSEEK,
                "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse").ok().message();

        assertThat(m.provider()).isEqualTo("deepseek");
        assertThat(m.model()).isEqualTo("deepseek-reasoner");
        assertThat(m.parts()).hasSize(2);
        ReasoningPart reasoning = (ReasoningPart) m.parts().get(0);
        assertThat(reasoning.text()).startsWith("The user is asking for the weather in San Francisco. I need ")
                .endsWith("her tool with the location parameter set to \"San Francisco\".");
        assertThat(reasoning.source()).isEqualTo("reasoning_content");
        assertThat(m.toolCalls()).containsExactly(new ToolCallPart("call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", "weather",
                "{\"location\": \"San Francisco\"}", true, reasoning.seals()));
        assertThat(m.usage()).isEqualTo(new Usage(339L, 83L, 39L, 320L));
        assertThat(m.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(m.rawFinishReason()).isEqualTo("tool_calls");
    }

    @Test
    void deepSeekAzureStreamWithoutDoneEndsWithEmojiIntact() {
        AssistantMessage m = streamOverHttp(Profiles.DEEPSEEK, "deepseek/vercel-azure-deepseek-v4-reasoning-stream.sse")
                .ok().message();

        assertThat(m.reasoning()).startsWith("We need to invent a new holiday around the latest Knicks gam");
        assertThat(m.reasoning().codePointCount(0, m.reasoning().length())).isEqualTo(3832);
        assertThat(m.text()).startsWith("Exciting news, Knicks fans—there's a brand-new holiday on the calendar!")
                .endsWith("See you next April\u202f4—from the logo! 🎯🧡💙");
        assertThat(m.usage()).isEqualTo(new Usage(19L, 1720L, null, null));
        assertThat(m.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void openRouterClaudeStreamKeepsItsSignature() {
        AssistantMessage m = streamOverHttp(Profiles.OPENROUTER,
                "openrouter/pydantic-openrouter-claude-reasoning-details-stream.sse").ok().message();

        ReasoningPart reasoning = (ReasoningPart) m.parts().get(0);
        assertThat(reasoning.text()).isEqualTo("This is a simple arithmetic question. 2+2 equals 4.");
        assertThat(reasoning.seals().signature()).hasSize(304)
                .startsWith("Et0BCkgIChACGAIqQA2s7h7tA7IG35fbwVkou9PM2hANVJNUwcEM4q12fTRDK6y3v6Y");
        assertThat(reasoning.seals().format()).isEqualTo("anthropic-claude-v1");
        assertThat(m.text()).isEqualTo("2 + 2 = 4");
        assertThat(m.usage()).isEqualTo(new Usage(43L, 36L, 13L, 0L));
    }

    @Test
    void groqRawThinkTagStreamIsSplitByTheGroqProfile() {
        AssistantMessage m = streamOverHttp(Profiles.GROQ,
                "think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse").ok().message();

        assertThat(m.parts()).hasSize(2);
        ReasoningPart reasoning = (ReasoningPart) m.parts().get(0);
        assertThat(reasoning.source()).isEqualTo("tags");
        assertThat(reasoning.text()).startsWith("\nOkay, so I want to make Uruguayan alfajores. I've heard they're");
        TextPart text = (TextPart) m.parts().get(1);
        assertThat(text.text()).endsWith("or flavor balance.\n\nEnjoy your homemade Uruguayan alfajores!")
                .doesNotContain("<think>").doesNotContain("</think>");
        assertThat(m.usage()).isEqualTo(new Usage(21L, 988L, null, null));
    }

    @Test
    void deepSeekBodyWithTwoToolCallsAndAMatchingReasoningCheck() {
        ChatResult result = completeOverHttp(Profiles.DEEPSEEK,
                "deepseek/pydantic-deepseek-reasoner-tool-calls.turn2.json").ok();

        AssistantMessage m = result.message();
        assertThat(m.reasoning()).startsWith("Great, now I have access to the dice roll tool. Le");
        assertThat(m.text()).isEqualTo("Let me get your name and roll the die!");
        assertThat(m.toolCalls()).extracting(ToolCallPart::id, ToolCallPart::name, ToolCallPart::arguments)
                .containsExactly(
                        Tuple.tuple("call_00_6edlnw3Z1MgeMfey687g8451", "get_player_name", "{}"),
                        Tuple.tuple("call_01_km02sac7sHxNDPATKLZy7705", "roll_dice", "{}"));
        assertThat(m.usage()).isEqualTo(new Usage(875L, 79L, 26L, 0L));
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
    }

    @Test
    void openRouterGpt5MiniBodyKeepsTheEncryptedReasoning() {
        AssistantMessage m = completeOverHttp(Profiles.OPENROUTER,
                "openrouter/pydantic-openrouter-gpt5-mini-reasoning-details-multiturn.turn2.json").ok().message();

        ReasoningPart reasoning = (ReasoningPart) m.parts().get(0);
        assertThat(reasoning.summary()).isTrue();
        assertThat(reasoning.text()).startsWith("**Structuring Voltaire’s Impact**\n\nI’m thinking ab");
        assertThat(reasoning.seals().encrypted()).hasSize(5412).startsWith("gAAAAABpAjHR-iS0FxMStS_v");
        assertThat(m.usage()).isEqualTo(new Usage(41L, 1457L, 704L, null));
    }
}
