package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.PlanAction;
import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.testing.PlanCheck;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code gemini-openai} profile against scripts of the documented shape of Gemini's
 * OpenAI-compatible endpoint (no recording exists; source: https://ai.google.dev/gemini-api/docs/openai
 * and https://ai.google.dev/gemini-api/docs/thought-signatures, PROTOCOLS.md §4 and §19): the
 * thought signature of a reply on the message as {@code extra_content.google.thought_signature}
 * (or a plain {@code thought_signature}), a call's on the call, tool call ids that are empty
 * strings; both signatures go back the same way, and the results of id-less calls pair with them.
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiOpenAiProfileTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String CALL_SIGNATURE = "EpwICpkIAXLI2nwpQjS9+p1Fw3kHn0c1c7sQ==";
    private static final String TEXT_SIGNATURE = "CiIB0e2Kb6SyTq9mR4vO1sTextSig/AA==";
    private static final String THOUGHT = "The user wants the weather; call the tool first.";
    private static final CompatProfile PROFILE = Profiles.GEMINI_OPENAI;

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** A tool-call reply: thought summary in tags, two parallel calls with empty ids, the first signed. */
    private static ChatCompletionsScript toolTurn(int tokens) {
        return ChatCompletionsScript.create().model("gemini-3-pro-preview")
                .content("<thought>" + THOUGHT + "</thought>")
                .signedToolCall("", "weather", "{\"city\":\"Paris\"}", CALL_SIGNATURE)
                .toolCall("", "clock", "{\"tz\":\"CET\"}")
                .finish("tool_calls")
                .tokensOf(tokens);
    }

    private static AssistantMessage stream(EmulatorResponse response) {
        emulator.enqueue(response);
        return Emulated.reduce(Emulated.provider(emulator, PROFILE).build().stream(Emulated.REQUEST)).ok().message();
    }

    static LongStream seeds() {
        return Seeds.of(10);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aSignedToolCallTurnIsReadWhateverTheCutsWithItsSignatureOnTheFirstCall(long seed) {
        Random random = Seeds.random(seed);
        String sse = toolTurn(1 + random.nextInt(8)).toSse();
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(12));

        AssistantMessage cut = stream(EmulatorResponse.sse(sse).chunked(plan));

        assertThat(cut.parts()).as("cut by %s", plan).isEqualTo(stream(EmulatorResponse.sse(sse)).parts());
        assertThat(cut.reasoning()).isEqualTo(THOUGHT);
        assertThat(cut.toolCalls()).extracting(ToolCallPart::id, ToolCallPart::name)
                .containsExactly(tuple(null, "weather"),
                        tuple(null, "clock"));
        assertThat(cut.toolCalls()).extracting(c -> c.seals().signature()).containsExactly(CALL_SIGNATURE, null);
    }

    @Test
    void theCallSignatureGoesBackOnItsCallAndEachResultPairsWithItsIdLessCall() {
        AssistantMessage turn = stream(toolTurn(4).toResponse());
        ChatRequest next = PlanCheck.nextTurn("gemini-3-pro-preview", turn);

        JsonNode messages = body(next).path("messages");

        JsonNode assistant = messages.path(1);
        assertThat(assistant.path("tool_calls")).hasSize(2);
        JsonNode weather = assistant.path("tool_calls").path(0);
        assertThat(weather.path("extra_content").path("google").path("thought_signature").asString()).isEqualTo(CALL_SIGNATURE);
        assertThat(assistant.path("tool_calls").path(1).has("extra_content")).as("the unsigned parallel call").isFalse();
        assertThat(assistant.has("extra_content")).as("no signature on the message of a tool-call reply").isFalse();
        assertThat(List.of(assistant.path("tool_calls").path(0).path("id").asString(),
                assistant.path("tool_calls").path(1).path("id").asString()))
                .containsExactly(messages.path(2).path("tool_call_id").asString(), messages.path(3).path("tool_call_id").asString());
        assertThat(messages.toString()).as("thought text has no field here").doesNotContain(THOUGHT);
        assertThat(PlanCheck.check(ChatCompletionsCodec.of(PROFILE), PROFILE.name(), next).entries())
                .extracting(PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .contains(tuple("signature", PlanAction.KEEP, "C11"),
                        tuple("reasoning", PlanAction.DROP, "C11"));
    }

    @Test
    void aTextReplysSignatureGoesBackOnTheMessageStreamedOrWhole() {
        ChatCompletionsScript script = ChatCompletionsScript.create().model("gemini-3-flash-preview")
                .signedContent("Sunny and 21 °C in Paris.", TEXT_SIGNATURE).tokensOf(3);

        AssistantMessage streamed = stream(script.toResponse());
        AssistantMessage whole = Emulated.codecCompletion(PROFILE, script.toCompletionJson().getBytes(StandardCharsets.UTF_8))
                .ok().message();

        for (AssistantMessage turn : List.of(streamed, whole)) {
            assertThat(turn.parts()).singleElement().isInstanceOf(TextPart.class)
                    .satisfies(p -> assertThat(p.seals().signature()).isEqualTo(TEXT_SIGNATURE));
            JsonNode assistant = body(PlanCheck.nextTurn("gemini-3-flash-preview", turn)).path("messages").path(1);
            assertThat(assistant.path("content").asString()).isEqualTo("Sunny and 21 °C in Paris.");
            assertThat(assistant.path("extra_content").path("google").path("thought_signature").asString())
                    .isEqualTo(TEXT_SIGNATURE);
        }
    }

    @Test
    void aPlainThoughtSignatureOnTheMessageIsReadTooAndASignatureAloneIsKept() {
        String sse = "data: {\"id\":\"g1\",\"object\":\"chat.completion.chunk\",\"model\":\"gemini-2.5-flash\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"Done.\"},\"finish_reason\":null}]}\n\n"
                + "data: {\"id\":\"g1\",\"object\":\"chat.completion.chunk\",\"model\":\"gemini-2.5-flash\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"thought_signature\":\"" + TEXT_SIGNATURE + "\"},\"finish_reason\":\"stop\"}]}\n\n"
                + "data: [DONE]\n\n";
        String signatureOnly = "data: {\"id\":\"g2\",\"object\":\"chat.completion.chunk\",\"model\":\"gemini-2.5-flash\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"extra_content\":{\"google\":{\"thought_signature\":\"" + CALL_SIGNATURE
                + "\"}}},\"finish_reason\":\"stop\"}]}\n\n"
                + "data: [DONE]\n\n";

        String beside = "data: {\"id\":\"g3\",\"object\":\"chat.completion.chunk\",\"model\":\"gemini-2.5-flash\","
                + "\"thought_signature\":\"" + TEXT_SIGNATURE + "\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"Done.\"},\"finish_reason\":\"stop\"}]}\n\n"
                + "data: [DONE]\n\n";
        assertThat(stream(EmulatorResponse.sse(beside)).parts()).as("a signature beside the choices")
                .singleElement().satisfies(p -> assertThat(p.seals().signature()).isEqualTo(TEXT_SIGNATURE));

        AssistantMessage text = stream(EmulatorResponse.sse(sse));
        AssistantMessage bare = stream(EmulatorResponse.sse(signatureOnly));

        assertThat(text.parts()).singleElement().satisfies(p -> assertThat(p.seals().signature()).isEqualTo(TEXT_SIGNATURE));
        assertThat(bare.parts()).singleElement().isInstanceOf(ReasoningPart.class)
                .satisfies(p -> assertThat(p.seals().get(Seal.Kind.SIGNATURE)).isEqualTo(CALL_SIGNATURE));
        assertThat(body(PlanCheck.nextTurn("gemini-2.5-flash", bare)).path("messages").path(1)
                .path("extra_content").path("google").path("thought_signature").asString()).isEqualTo(CALL_SIGNATURE);
    }

    @Test
    void anotherProvidersSignaturesNeverGoBack() {
        AssistantMessage turn = stream(toolTurn(4).toResponse());
        AssistantMessage foreign = new AssistantMessage(turn.parts(), "gemini", turn.model(), turn.finishReason(),
                turn.rawFinishReason(), turn.usage());
        ChatRequest next = PlanCheck.nextTurn("gemini-3-pro-preview", foreign);

        String body = new String(ChatCompletionsCodec.of(PROFILE).encode(next, false), StandardCharsets.UTF_8);

        assertThat(body).doesNotContain(CALL_SIGNATURE).doesNotContain("extra_content");
        assertThat(PlanCheck.explain(ChatCompletionsCodec.of(PROFILE), next).entries())
                .extracting(PlanEntry::value, PlanEntry::action).contains(tuple("signature", PlanAction.STRIP));
    }

    private static JsonNode body(ChatRequest request) {
        ChatRequest prepared = PlanCheck.prepare(PROFILE.name(), request);
        return JSON.readTree(new String(ChatCompletionsCodec.of(PROFILE).encode(prepared, false), StandardCharsets.UTF_8));
    }
}
