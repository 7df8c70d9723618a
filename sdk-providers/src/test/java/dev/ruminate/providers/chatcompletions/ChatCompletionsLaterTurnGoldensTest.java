package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SendBack;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Chat Completions later-turn requests added to {@code shared/sendback} on 2026-11-25 (OpenRouter
 * and Vercel AI Gateway {@code reasoning_details}, {@code reasoning_content} for Kimi on Avian, GLM on
 * Z.ai and DeepSeek V4 direct and behind a gateway), rebuilt from the decoded earlier turns through
 * the history policy and the codec ({@link SendBack#encode}, the provider skeleton's path) and
 * compared with what the servers accepted (HTTP 200). Each test compares the {@code messages}: the
 * reasoning fields byte for byte, in the assistant message they came with. The rest of a body (tools,
 * {@code stream_options}, {@code tool_choice}, {@code max_tokens}, {@code reasoning}) is what the
 * caller chose, not send-back; it is compared in the opening requests (exchange 1, nothing to send
 * back yet), built by the same builders as the later turns and compared whole with the accepted first
 * requests, so the reasoning request each server accepted is checked too.
 */
class ChatCompletionsLaterTurnGoldensTest {

    private static AssistantMessage reduced(Recorded.Outcome outcome) {
        return Objects.requireNonNull(ChatReducer.defaults().reduce(Flux.fromIterable(
                outcome.folded().events)).block(Duration.ofSeconds(10))).message();
    }

    private static JsonNode messages(CompatProfile profile, ChatRequest request, boolean stream) {
        return SendBack.tree(SendBack.encode(ChatCompletionsCodec.of(profile), profile.name(), request, stream)).get("messages");
    }

    /** The accepted request's messages before the first assistant message, added to a builder. */
    private static ChatRequest.Builder opening(String model, JsonNode accepted) {
        ChatRequest.Builder b = ChatRequest.builder(model);
        for (JsonNode m : accepted.get("messages")) {
            String role = m.get("role").stringValue();
            if (role.equals("assistant")) {
                break;
            }
            if (role.equals("system")) {
                b.system(m.get("content").stringValue());
            } else {
                b.user(m.get("content").stringValue());
            }
        }
        return b;
    }

    /** The whole body of a request, as this encoder writes it for the profile. */
    private static ObjectNode body(CompatProfile profile, ChatRequest request, boolean stream) {
        return (ObjectNode) SendBack.tree(SendBack.encode(ChatCompletionsCodec.of(profile), profile.name(), request, stream));
    }

    /** The accepted request's tools as neutral definitions (name, description, parameters schema). */
    private static ChatRequest.Builder tools(ChatRequest.Builder b, JsonNode accepted) {
        for (JsonNode t : accepted.path("tools")) {
            JsonNode f = t.get("function");
            b.tool(new ToolDefinition(f.get("name").stringValue(), f.path("description").asString(""),
                    f.get("parameters").toString()));
        }
        return b;
    }

    /**
     * An accepted first request without what a neutral request cannot say and that means the same
     * as its absence: fantasy's {@code "strict": false} on each function (non-strict is the
     * default) and {@code "stream": false} (the default, which this encoder leaves out).
     */
    private static ObjectNode withoutDefaults(JsonNode accepted) {
        ObjectNode out = (ObjectNode) accepted.deepCopy();
        for (JsonNode t : out.path("tools")) {
            ObjectNode f = (ObjectNode) t.get("function");
            if (f.has("strict")) {
                assertThat(f.remove("strict").booleanValue()).isFalse();
            }
        }
        if (out.has("stream") && !out.get("stream").booleanValue()) {
            out.remove("stream");
        }
        return out;
    }

    /** Adds the results of a turn's tool calls, with the contents the accepted request gave them. */
    private static void results(ChatRequest.Builder b, AssistantMessage turn, JsonNode accepted) {
        for (ToolCallPart call : turn.toolCalls()) {
            for (JsonNode m : accepted.get("messages")) {
                if ("tool".equals(m.get("role").stringValue()) && m.get("tool_call_id").stringValue().equals(call.id())) {
                    b.message(Message.toolResult(Objects.requireNonNull(call.id()), m.get("content").stringValue()));
                }
            }
        }
    }

    /**
     * An assistant message with tool calls and no text: this encoder writes {@code "content": null}
     * (the OpenAI shape), ruby_llm wrote {@code ""} and fantasy left it out. All three mean "no
     * text"; the expected side is given our spelling.
     */
    private static void contentNullForCalls(ArrayNode messages) {
        for (JsonNode m : messages) {
            if ("assistant".equals(m.get("role").stringValue()) && m.has("tool_calls")
                    && (!m.has("content") || "".equals(m.get("content").asString()))) {
                ((ObjectNode) m).putNull("content");
            }
        }
    }

    /**
     * Tool-call arguments as JSON: ruby_llm re-serializes them ({@code {"city":"Berlin"}}), this
     * encoder sends the model's own string ({@code {"city": "Berlin"}}); the same arguments.
     */
    private static ArrayNode argumentsParsed(JsonNode messages) {
        ArrayNode out = (ArrayNode) messages.deepCopy();
        for (JsonNode m : out) {
            for (JsonNode call : m.path("tool_calls")) {
                ObjectNode function = (ObjectNode) call.get("function");
                function.set("arguments", SendBack.tree(function.get("arguments").stringValue()));
            }
        }
        return out;
    }

    /** ruby_llm's OpenRouter conversation before the first answer: a 2000-token reasoning budget, one tool. */
    private static ChatRequest.Builder openRouterOpening(JsonNode accepted) {
        return tools(opening("anthropic/claude-haiku-4.5", accepted), accepted).reasoning(ReasoningOptions.budget(2000));
    }

    /**
     * Compares an OpenRouter opening request: ruby_llm asked {@code reasoning: {max_tokens: 2000}};
     * this encoder adds {@code "enabled": true}, which a budget implies (OpenRouter: {@code enabled}
     * is inferred from {@code effort} or {@code max_tokens}), so it is taken out before comparing.
     */
    private static void assertOpenRouterOpening(String path, boolean stream) {
        JsonNode accepted = SendBack.accepted(path);
        ObjectNode ours = body(Profiles.OPENROUTER, openRouterOpening(accepted).build(), stream);

        ObjectNode reasoning = (ObjectNode) ours.get("reasoning");
        assertThat(reasoning.remove("enabled").booleanValue()).isTrue();
        assertThat(ours).isEqualTo(withoutDefaults(accepted));
        assertThat(reasoning.toString()).isEqualTo("{\"max_tokens\":2000}");
    }

    @Test
    void openRouterOpeningRequestAsksForAReasoningBudgetAsAccepted() {
        assertOpenRouterOpening("openrouter/rubyllm-openrouter-claude-reasoning-details-roundtrip.turn1.request.json", false);
    }

    @Test
    void openRouterStreamedOpeningRequestAsksForAReasoningBudgetAndUsageAsAccepted() {
        assertOpenRouterOpening("openrouter/rubyllm-openrouter-claude-reasoning-details-tool-stream.turn1.request.json", true);
    }

    @Test
    void openRouterClaudeToolTurnSendsTheReasoningTextDetailWithItsSignature() {
        String stem = "openrouter/rubyllm-openrouter-claude-reasoning-details-roundtrip";
        JsonNode turn2 = SendBack.accepted(stem + ".turn2.request.json");
        JsonNode turn3 = SendBack.accepted(stem + ".turn3.request.json");
        AssistantMessage first = reduced(Fixtures.completion(Profiles.OPENROUTER, stem + ".turn1.json"));
        AssistantMessage second = reduced(Fixtures.completion(Profiles.OPENROUTER, stem + ".turn2.json"));
        ChatRequest.Builder conversation = openRouterOpening(turn2).message(first);
        results(conversation, first, turn2);

        JsonNode ours2 = messages(Profiles.OPENROUTER, conversation.build(), false);
        conversation.message(second).user(turn3.get("messages").get(4).get("content").stringValue());
        JsonNode ours3 = messages(Profiles.OPENROUTER, conversation.build(), false);

        for (JsonNode[] pair : new JsonNode[][] {{ours2, turn2}, {ours3, turn3}}) {
            ArrayNode expected = (ArrayNode) pair[1].get("messages").deepCopy();
            contentNullForCalls(expected);
            assertThat(argumentsParsed(pair[0])).isEqualTo(argumentsParsed(expected));
        }
        JsonNode detail = ours2.get(1).get("reasoning_details").get(0);
        assertThat(detail.get("signature").stringValue()).isEqualTo(first.parts().get(0).seals().signature())
                .startsWith("EpYDCkgIEBABGAIqQPBwNAKYol3GqZ");
        // no plain "reasoning" copy goes back beside the details
        assertThat(ours2.get(1).has("reasoning")).isFalse();
    }

    @Test
    void openRouterStreamedDetailsGoBackMergedIntoOneTextDetail() {
        String stem = "openrouter/rubyllm-openrouter-claude-reasoning-details-tool-stream";
        JsonNode accepted = SendBack.accepted(stem + ".turn2.request.json");
        AssistantMessage turn1 = reduced(Fixtures.stream(Profiles.OPENROUTER, stem + ".turn1.sse"));
        ChatRequest.Builder conversation = openRouterOpening(accepted).message(turn1);
        results(conversation, turn1, accepted);

        JsonNode ours = messages(Profiles.OPENROUTER, conversation.build(), true);

        ArrayNode expected = (ArrayNode) accepted.get("messages").deepCopy();
        contentNullForCalls(expected);
        assertThat(argumentsParsed(ours)).isEqualTo(argumentsParsed(expected));
        assertThat(ours.get(1).get("reasoning_details")).hasSize(1);
    }

    /** Reasoning switched on with nothing else said: fantasy's {@code reasoning: {enabled: true}}. */
    private static final ReasoningOptions ENABLED = new ReasoningOptions(true, null, null, null);

    /** fantasy's conversation before the first answer: its system prompt and tools, {@code tool_choice: auto}. */
    private static ChatRequest.Builder fantasyOpening(String model, JsonNode accepted, ReasoningOptions reasoning) {
        ChatRequest.Builder b = tools(opening(model, accepted), accepted).reasoning(reasoning)
                .extra("tool_choice", "auto");
        if (accepted.has("max_tokens")) {
            b.sampling(new SamplingOptions(null, null, accepted.get("max_tokens").intValue(), List.of(), null));
        }
        return b;
    }

    /**
     * Compares a fantasy opening request (streamed) with the accepted one. fantasy asked every server
     * for {@code stream_options: {include_usage: true}}; a profile whose server reports usage in a
     * stream unasked (Z.ai: {@link Profiles#GLM}) writes none, and the expected side loses it.
     */
    private static ObjectNode assertFantasyOpening(CompatProfile profile, String model, String path, ReasoningOptions reasoning) {
        ObjectNode expected = withoutDefaults(SendBack.accepted(path));
        assertThat(expected.get("stream_options").toString()).isEqualTo("{\"include_usage\":true}");
        if (!profile.streamUsage()) {
            expected.remove("stream_options");
        }

        ObjectNode ours = body(profile, fantasyOpening(model, expected, reasoning).build(), true);

        assertThat(ours).isEqualTo(expected);
        return ours;
    }

    @Test
    void vercelGatewayOpeningRequestsSwitchReasoningOnAsAccepted() {
        for (String[] run : new String[][] {{"openai/gpt-5", "gpt5"}, {"google/gemini-3-pro-preview", "gemini3"}}) {
            ObjectNode ours = assertFantasyOpening(Profiles.VERCEL_GATEWAY, run[0],
                    "openai-compatible/fantasy-vercel-gateway-" + run[1] + "-reasoning-details-stream.turn1.request.json", ENABLED);
            assertThat(ours.get("reasoning").toString()).as(run[0]).isEqualTo("{\"enabled\":true}");
        }
    }

    @Test
    void vercelGatewayGpt5SendsTheMergedSummaryAndTheEncryptedDetailWithItsId() {
        String stem = "openai-compatible/fantasy-vercel-gateway-gpt5-reasoning-details-stream";
        JsonNode accepted = SendBack.accepted(stem + ".turn2.request.json");
        AssistantMessage turn1 = reduced(Fixtures.stream(Profiles.VERCEL_GATEWAY, stem + ".turn1.sse"));
        ChatRequest.Builder conversation = fantasyOpening("openai/gpt-5", accepted, ENABLED).message(turn1);
        results(conversation, turn1, accepted);

        JsonNode ours = messages(Profiles.VERCEL_GATEWAY, conversation.build(), true);

        ArrayNode expected = (ArrayNode) accepted.get("messages").deepCopy();
        contentNullForCalls(expected);
        assertThat(ours).isEqualTo(expected);
    }

    @Test
    void vercelGatewayGemini3SendsTheEncryptedDetailAndTheTextItCameWith() {
        String stem = "openai-compatible/fantasy-vercel-gateway-gemini3-reasoning-details-stream";
        JsonNode accepted = SendBack.accepted(stem + ".turn2.request.json");
        AssistantMessage turn1 = reduced(Fixtures.stream(Profiles.VERCEL_GATEWAY, stem + ".turn1.sse"));
        ChatRequest.Builder conversation = fantasyOpening("google/gemini-3-pro-preview", accepted, ENABLED).message(turn1);
        results(conversation, turn1, accepted);

        JsonNode ours = messages(Profiles.VERCEL_GATEWAY, conversation.build(), true);

        // fantasy sent only the reasoning.encrypted detail; this encoder also sends the unsigned
        // reasoning.text detail of the same index that came before it, as the gateway's (and
        // OpenRouter's) rule is to pass the details back as received. The encrypted one is compared
        // whole, and nothing else of the message differs.
        ArrayNode expected = (ArrayNode) accepted.get("messages").deepCopy();
        contentNullForCalls(expected);
        ArrayNode details = (ArrayNode) ours.get(2).get("reasoning_details");
        assertThat(details.get(0).get("type").stringValue()).isEqualTo("reasoning.text");
        assertThat(details.get(0).has("signature")).isFalse();
        ObjectNode trimmed = (ObjectNode) ours.get(2).deepCopy();
        ((ArrayNode) trimmed.get("reasoning_details")).remove(0);
        ArrayNode ourMessages = (ArrayNode) ours.deepCopy();
        ourMessages.set(2, trimmed);
        assertThat(ourMessages).isEqualTo(expected);
    }

    @Test
    void kimiOnAvianOpeningRequestAsksForNoReasoningFieldAsAccepted() {
        ObjectNode ours = assertFantasyOpening(Recordings.AVIAN, "moonshotai/kimi-k2.5",
                "openai-compatible/fantasy-avian-kimi-k25-parallel-tools-stream.turn1.request.json", ReasoningOptions.DEFAULT);

        // Kimi K2.5 reasons unasked; default options write no reasoning field
        assertThat(ours.get("max_tokens").intValue()).isEqualTo(4000);
    }

    @Test
    void glm47FlashOnZaiOpeningRequestAsksForNoThinkingFieldAsAccepted() {
        ObjectNode ours = assertFantasyOpening(Profiles.GLM, "glm-4.7-flash",
                "openai-compatible/fantasy-zai-glm47-flash-parallel-tools-stream.turn1.request.json", ReasoningOptions.DEFAULT);

        // nothing to carry back yet, so no "thinking" with clear_thinking (C4): GLM thinks by default
        assertThat(ours.has("thinking")).isFalse();
        assertThat(ours.has("stream_options")).isFalse();
    }

    @Test
    void kimiOnAvianTakesReasoningContentBackBesideParallelCalls() {
        String stem = "openai-compatible/fantasy-avian-kimi-k25-parallel-tools-stream";
        JsonNode accepted = SendBack.accepted(stem + ".turn2.request.json");
        AssistantMessage turn1 = reduced(Fixtures.stream(Recordings.AVIAN, stem + ".turn1.sse"));
        ChatRequest.Builder conversation = fantasyOpening("moonshotai/kimi-k2.5", accepted, ReasoningOptions.DEFAULT).message(turn1);
        results(conversation, turn1, accepted);

        JsonNode ours = messages(Recordings.AVIAN, conversation.build(), true);

        // fantasy sent "content": " " where the stream had said more; this encoder sends the text
        // the stream gave (the answer is the model's, not state the server checks)
        ArrayNode expected = (ArrayNode) accepted.get("messages").deepCopy();
        assertThat(expected.get(2).get("content").stringValue()).isEqualTo(" ");
        ((ObjectNode) expected.get(2)).put("content", turn1.text());
        assertThat(ours).isEqualTo(expected);
    }

    /**
     * The built-in {@code moonshot} profile reads the same Kimi K2.5 stream (its text in
     * {@code reasoning_content} and again in {@code reasoning_details}) once and sends
     * {@code reasoning_content} back in the shape Avian accepted for Kimi (no recording of
     * Moonshot's own API exists).
     */
    @Test
    void kimiOnTheMoonshotProfileTakesReasoningContentBackOnceAsAccepted() {
        String stem = "openai-compatible/fantasy-avian-kimi-k25-parallel-tools-stream";
        JsonNode accepted = SendBack.accepted(stem + ".turn2.request.json");
        AssistantMessage turn1 = reduced(Fixtures.stream(Profiles.MOONSHOT, stem + ".turn1.sse"));
        ChatRequest.Builder conversation = fantasyOpening("moonshotai/kimi-k2.5", accepted, ReasoningOptions.DEFAULT).message(turn1);
        results(conversation, turn1, accepted);

        JsonNode ours = messages(Profiles.MOONSHOT, conversation.build(), true);

        ArrayNode expected = (ArrayNode) accepted.get("messages").deepCopy();
        ((ObjectNode) expected.get(2)).put("content", turn1.text());
        assertThat(ours).isEqualTo(expected);
    }

    @Test
    void glm47FlashOnZaiTakesReasoningContentBackBesideParallelCalls() {
        String stem = "openai-compatible/fantasy-zai-glm47-flash-parallel-tools-stream";
        JsonNode accepted = SendBack.accepted(stem + ".turn2.request.json");
        AssistantMessage turn1 = reduced(Fixtures.stream(Profiles.GLM, stem + ".turn1.sse"));
        ChatRequest.Builder conversation = fantasyOpening("glm-4.7-flash", accepted, ReasoningOptions.DEFAULT).message(turn1);
        results(conversation, turn1, accepted);

        assertThat(messages(Profiles.GLM, conversation.build(), true)).isEqualTo(accepted.get("messages"));
    }

    @Test
    void deepSeekV4BehindAGatewayTakesReasoningContentBackInTheToolTurn() {
        String stem = "deepseek/crush-hyper-deepseek-v4-pro-reasoning-parallel-tools-stream";
        JsonNode first = SendBack.accepted(stem + ".turn2.request.json");
        JsonNode accepted = SendBack.accepted(stem + ".turn4.request.json");
        // Charm's Hyper gateway passes DeepSeek's API through: the DeepSeek rule, by model family
        CompatProfile hyper = Profiles.DEEPSEEK.toBuilder().name("hyper").build();
        AssistantMessage turn = reduced(Fixtures.stream(hyper, stem + ".turn2.sse"));
        ChatRequest.Builder conversation = opening("deepseek-v4-pro-0813", accepted);

        assertThat(messages(hyper, conversation.build(), true)).isEqualTo(first.get("messages"));
        conversation.message(turn);
        results(conversation, turn, accepted);
        JsonNode ours = messages(hyper, conversation.build(), true);

        assertThat(ours).isEqualTo(accepted.get("messages"));
        assertThat(ours.get(3).get("reasoning_content").stringValue()).isEqualTo(turn.reasoning());
    }

    /** ruby_llm's DeepSeek conversation before the first answer: medium effort. */
    private static ChatRequest.Builder deepSeekReasonerOpening() {
        return ChatRequest.builder("deepseek-reasoner").user("What is 5 + 3?")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MEDIUM));
    }

    @Test
    void deepSeekReasonerOpeningRequestAsksForThinkingWithAnEffortTheApiKnows() {
        ObjectNode accepted = withoutDefaults(SendBack.accepted("deepseek/rubyllm-deepseek-v4-flash-reasoner-multiturn.turn1.request.json"));

        ObjectNode ours = body(Profiles.DEEPSEEK, deepSeekReasonerOpening().build(), false);

        // ruby_llm sent reasoning_effort "medium", which DeepSeek takes as "high" (thinking-mode guide:
        // low and medium map to high); this encoder writes the level the API keeps, "high", and
        // switches thinking on explicitly (V4 has it on by default: the same request)
        assertThat(accepted.remove("reasoning_effort").stringValue()).isEqualTo("medium");
        assertThat(ours.remove("reasoning_effort").stringValue()).isEqualTo("high");
        assertThat(ours.remove("thinking").toString()).isEqualTo("{\"type\":\"enabled\"}");
        assertThat(ours).isEqualTo(accepted);
    }

    @Test
    void deepSeekV4OutsideAToolTurnLeavesTheReasoningHome() {
        String stem = "deepseek/rubyllm-deepseek-v4-flash-reasoner-multiturn";
        JsonNode accepted = SendBack.accepted(stem + ".turn2.request.json");
        AssistantMessage turn1 = reduced(Fixtures.completion(Profiles.DEEPSEEK, stem + ".turn1.json"));
        ChatRequest request = deepSeekReasonerOpening().message(turn1).user("Now multiply that by 2").build();

        JsonNode ours = messages(Profiles.DEEPSEEK, request, false);

        // ruby_llm sent the reasoning twice ("reasoning" and "reasoning_content"); DeepSeek ignores
        // reasoning_content outside a tool turn (thinking-mode guide), so this encoder sends none
        ArrayNode expected = (ArrayNode) accepted.get("messages").deepCopy();
        ObjectNode assistant = (ObjectNode) expected.get(1);
        assertThat(assistant.get("reasoning_content").stringValue()).isEqualTo(turn1.reasoning());
        assertThat(assistant.get("reasoning")).isEqualTo(assistant.get("reasoning_content"));
        assistant.remove(List.of("reasoning", "reasoning_content"));
        assertThat(ours).isEqualTo(expected);
    }
}
