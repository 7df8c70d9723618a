package dev.ruminate.providers.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.loop.LoopEvent.LoopCompleted;
import dev.ruminate.core.loop.LoopOptions;
import dev.ruminate.core.loop.StopReason;
import dev.ruminate.core.loop.Tool;
import dev.ruminate.core.loop.ToolLoop;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.AnthropicThinkingRule;
import dev.ruminate.testkit.BedrockReasoningRule;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.DeepSeekReasoningContentRule;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.GeminiThoughtSignatureRule;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.testkit.ResponsesReasoningItemRule;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The tool loop against emulators that check requests the way the real APIs do
 * ({@link AcceptanceRules}): a three-step loop per family completes with a final answer, every
 * request accepted; and a conversation whose assistant tool turn lost what the API requires
 * (signature, reasoning, encrypted reasoning item), resumed through the loop, is refused with the
 * provider's 400 as a {@link ProviderHttpException}, and the rule that refused it is recorded.
 *
 * <p>The broken conversations start from what the loop itself produced (one step, then stopped at
 * the step limit) with the provider state taken out by hand, so they are what a client that drops
 * that state would send.
 */
@ExtendWith(NettyLeakCheck.class)
class LoopAgainstCheckingEmulatorTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ApiKey KEY = ApiKey.of("test-key-0123456789");
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}";
    private static final ToolDefinition WEATHER = new ToolDefinition("weather", "Current weather of a city", SCHEMA);
    private static final ToolDefinition CLOCK = new ToolDefinition("clock", "The time now", "{\"type\":\"object\"}");
    private static final String ANSWER = "Paris 20, Rome 25, 12:00.";

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private <B extends ProviderBuilder<B>> B at(B builder) {
        return builder.baseUrl(emulator.baseUrl().toString());
    }

    private static ToolLoop loop(ChatProvider provider, int maxSteps) {
        return ToolLoop.builder(provider)
                .tool(Tool.of(WEATHER, call -> Mono.just("{\"temp\":" + (call.arguments().contains("Rome") ? 25 : 20) + "}")))
                .blockingTool(CLOCK, call -> "{\"time\":\"12:00\"}")
                .options(LoopOptions.builder().maxSteps(maxSteps).build())
                .build();
    }

    private static ChatRequest ask(String model, boolean thinking) {
        ChatRequest.Builder request = ChatRequest.builder(model).user("Weather in Paris and Rome, and the time?");
        if (thinking) {
            request.reasoning(ReasoningOptions.budget(2048));
        }
        return request.build();
    }

    /** Runs the loop to its end and checks it answered in three steps, every request accepted. */
    private void completesInThreeAcceptedSteps(ChatProvider provider, ChatRequest request) {
        List<LoopEvent> events = new ArrayList<>();
        StepVerifier.create(loop(provider, 10).run(request))
                .recordWith(() -> events)
                .thenConsumeWhile(e -> !(e instanceof LoopCompleted))
                .expectNextMatches(LoopCompleted.class::isInstance)
                .expectComplete()
                .verify(WAIT);
        LoopCompleted done = (LoopCompleted) events.get(events.size() - 1);
        assertThat(done.stopReason()).isEqualTo(StopReason.FINAL_ANSWER);
        assertThat(done.step()).isEqualTo(3);
        assertThat(done.finalMessage().text()).isEqualTo(ANSWER);
        assertThat(emulator.requests()).hasSize(3).extracting(RecordedRequest::rejectedBy).containsOnlyNulls();
    }

    /**
     * Runs one step (the model calls tools, the loop stops at its step limit), takes the provider
     * state out of the assistant turn, and resumes the loop from that conversation: the loop runs
     * the tools and sends the broken history, which the checking emulator refuses.
     */
    private void brokenHistoryIsRefused(ChatProvider provider, ChatRequest request, UnaryOperator<List<Part>> breakTurn,
            String rule, String message) {
        brokenHistoryIsRefused(provider, provider, request, breakTurn, rule, message);
    }

    /** As above, with the resumed loop sending through another client (one configured for another server). */
    private void brokenHistoryIsRefused(ChatProvider provider, ChatProvider resumedWith, ChatRequest request,
            UnaryOperator<List<Part>> breakTurn, String rule, String message) {
        LoopCompleted first = loop(provider, 1).run(request).ofType(LoopCompleted.class).blockLast(WAIT);
        assertThat(first.stopReason()).isEqualTo(StopReason.STEP_LIMIT);
        List<Message> broken = new ArrayList<>(first.conversation());
        AssistantMessage turn = (AssistantMessage) broken.remove(broken.size() - 1);
        broken.add(new AssistantMessage(breakTurn.apply(turn.parts()), turn.provider(), turn.model(), turn.finishReason(),
                turn.rawFinishReason(), turn.usage()));
        ChatRequest resumed = ChatRequest.builder(request.model()).messages(broken).reasoning(request.reasoning()).build();

        StepVerifier.create(loop(resumedWith, 10).run(resumed))
                .thenConsumeWhile(e -> true)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(ProviderHttpException.class,
                        http -> assertThat(http.status()).isEqualTo(400)).hasMessageContaining(message))
                .verify(WAIT);
        assertThat(emulator.requests()).hasSize(2);
        assertThat(emulator.requests().get(1).rejectedBy()).isEqualTo(rule);
    }

    private static List<Part> withoutReasoning(List<Part> parts) {
        return parts.stream().filter(p -> !(p instanceof ReasoningPart)).toList();
    }

    /** Every part of the turn without its provider state: no signature, encrypted content or item id. */
    private static List<Part> withoutSeals(List<Part> parts) {
        return parts.stream().map(LoopAgainstCheckingEmulatorTest::unsealed).toList();
    }

    private static Part unsealed(Part part) {
        if (part instanceof ReasoningPart r) {
            return new ReasoningPart(r.text(), r.summary(), r.source(), Seals.NONE);
        }
        if (part instanceof ToolCallPart c) {
            return new ToolCallPart(c.id(), c.name(), c.arguments(), c.argumentsValid(), Seals.NONE);
        }
        if (part instanceof TextPart t) {
            return new TextPart(t.text(), Seals.NONE);
        }
        return part;
    }

    // ---- DeepSeek (Chat Completions, thinking mode), parallel calls

    private void deepSeekScript() {
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Both cities at once.")
                .toolCall("call_1", "weather", "{\"city\":\"Paris\"}").toolCall("call_2", "weather", "{\"city\":\"Rome\"}")
                .finish("tool_calls").toResponse());
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Now the clock.").toolCall("call_3", "clock", "{}")
                .finish("tool_calls").toResponse());
        emulator.enqueue(ChatCompletionsScript.create().reasoning("All known.").content(ANSWER).toResponse());
    }

    private ChatProvider deepSeek() {
        return at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK)).apiKey(KEY).build();
    }

    @Test
    void deepSeekParallelCallsLoopIsAccepted() {
        emulator.checking(AcceptanceRules.deepSeek());
        deepSeekScript();

        completesInThreeAcceptedSteps(deepSeek(), ask("deepseek-reasoner", false));
    }

    @Test
    void deepSeekToolTurnSentWithoutReasoningContentIsRefused() {
        // the generic OpenAI profile has no reasoning_content field, so pointed at DeepSeek it drops it
        emulator.checking(AcceptanceRules.deepSeek());
        deepSeekScript();
        ChatProvider genericOpenAi = at(ChatCompletionsProvider.builder(Profiles.OPENAI)).apiKey(KEY).build();

        brokenHistoryIsRefused(deepSeek(), genericOpenAi, ask("deepseek-reasoner", false), UnaryOperator.identity(),
                DeepSeekReasoningContentRule.NAME, "The reasoning_content in the thinking mode must be passed back to the API.");
    }

    @Test
    void deepSeekProfileSendsALostReasoningAsTheEmptyStringDeepSeekAccepts() {
        // RULES-OBSERVED.md "DeepSeek": a synthesized tool-call turn with reasoning_content "" was accepted
        emulator.checking(AcceptanceRules.deepSeek());
        deepSeekScript();
        LoopCompleted first = loop(deepSeek(), 1).run(ask("deepseek-reasoner", false)).ofType(LoopCompleted.class)
                .blockLast(WAIT);
        List<Message> lost = new ArrayList<>(first.conversation());
        AssistantMessage turn = (AssistantMessage) lost.remove(lost.size() - 1);
        lost.add(new AssistantMessage(withoutReasoning(turn.parts()), turn.provider(), turn.model(), turn.finishReason(),
                turn.rawFinishReason(), turn.usage()));

        LoopCompleted done = loop(deepSeek(), 10).run(ChatRequest.builder("deepseek-reasoner").messages(lost).build())
                .ofType(LoopCompleted.class).blockLast(WAIT);

        assertThat(done.stopReason()).isEqualTo(StopReason.FINAL_ANSWER);
        assertThat(emulator.requests()).hasSize(3).extracting(RecordedRequest::rejectedBy).containsOnlyNulls();
        assertThat(emulator.requests().get(1).body()).contains("\"reasoning_content\":\"\"");
    }

    // ---- Anthropic Messages, parallel tool_use

    private void anthropicScript() {
        emulator.enqueue(AnthropicScript.create().thinking("Both cities at once.", "c2lnLTE=")
                .toolUse("toolu_1", "weather", "{\"city\":\"Paris\"}").toolUse("toolu_2", "weather", "{\"city\":\"Rome\"}")
                .stopReason("tool_use").toResponse());
        emulator.enqueue(AnthropicScript.create().thinking("Now the clock.", "c2lnLTI=").redactedThinking("b3BhcXVlLTE=")
                .toolUse("toolu_3", "clock", "{}").stopReason("tool_use").toResponse());
        emulator.enqueue(AnthropicScript.create().thinking("All known.", "c2lnLTM=").text(ANSWER).toResponse());
    }

    private ChatProvider anthropic() {
        return at(AnthropicProvider.builder()).apiKey(KEY).build();
    }

    @Test
    void anthropicThinkingLoopIsAccepted() {
        emulator.checking(AcceptanceRules.anthropic());
        anthropicScript();

        completesInThreeAcceptedSteps(anthropic(), ask("claude-sonnet-4-5", true));
    }

    @Test
    void anthropicToolTurnWhoseThinkingLostItsSignatureIsRefused() {
        emulator.checking(AcceptanceRules.anthropic());
        anthropicScript();

        brokenHistoryIsRefused(anthropic(), ask("claude-sonnet-4-5", true), LoopAgainstCheckingEmulatorTest::withoutSeals,
                // the encoder drops a thinking block that has no signature, so the tool_use comes first
                AnthropicThinkingRule.NAME, "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`");
    }

    @Test
    void withTheRuleSwitchedOffTheSameBrokenHistoryIsServed() {
        emulator.checking(AcceptanceRules.anthropic().without(AnthropicThinkingRule.NAME));
        anthropicScript();

        LoopCompleted first = loop(anthropic(), 1).run(ask("claude-sonnet-4-5", true)).ofType(LoopCompleted.class)
                .blockLast(WAIT);
        List<Message> broken = new ArrayList<>(first.conversation());
        AssistantMessage turn = (AssistantMessage) broken.remove(broken.size() - 1);
        broken.add(new AssistantMessage(withoutSeals(turn.parts()), turn.provider(), turn.model(), turn.finishReason(),
                turn.rawFinishReason(), turn.usage()));
        LoopCompleted done = loop(anthropic(), 10).run(ChatRequest.builder("claude-sonnet-4-5").messages(broken)
                .reasoning(ReasoningOptions.budget(2048)).build()).ofType(LoopCompleted.class).blockLast(WAIT);

        assertThat(done.stopReason()).isEqualTo(StopReason.FINAL_ANSWER);
        assertThat(emulator.requests()).extracting(RecordedRequest::rejectedBy).containsOnlyNulls();
    }

    // ---- OpenAI Responses, store:false, parallel function calls

    private void responsesScript() {
        emulator.enqueue(ResponsesScript.create().reasoning("rs_1", "enc-1", "Both cities at once.")
                .functionCall("call_1", "weather", "{\"city\":\"Paris\"}").functionCall("call_2", "weather", "{\"city\":\"Rome\"}")
                .toResponse());
        emulator.enqueue(ResponsesScript.create().reasoning("rs_2", "enc-2", "Now the clock.")
                .functionCall("call_3", "clock", "{}").toResponse());
        emulator.enqueue(ResponsesScript.create().reasoning("rs_3", "enc-3", "All known.").text(ANSWER).toResponse());
    }

    private ChatProvider responses() {
        return at(ResponsesProvider.builder(ResponsesProfiles.OPENAI)).apiKey(KEY).build();
    }

    @Test
    void responsesStatelessLoopIsAccepted() {
        emulator.checking(AcceptanceRules.responses());
        responsesScript();

        completesInThreeAcceptedSteps(responses(), ask("o4-mini", false));
    }

    @Test
    void responsesFunctionCallWithoutItsReasoningItemIsRefused() {
        emulator.checking(AcceptanceRules.responses());
        responsesScript();

        brokenHistoryIsRefused(responses(), ask("o4-mini", false), LoopAgainstCheckingEmulatorTest::withoutReasoning,
                ResponsesReasoningItemRule.NAME, "was provided without its required 'reasoning' item: 'rs_1'");
    }

    // ---- Gemini 3: parallel calls in the first step (only the first call of a step is signed), then one

    private void geminiScript() {
        emulator.enqueue(GeminiScript.create().thought("Both cities.").functionCall("weather", "{\"city\":\"Paris\"}", "Z3NpZy0x")
                .functionCall("weather", "{\"city\":\"Rome\"}", null).toResponse());
        emulator.enqueue(GeminiScript.create().thought("Now the clock.").functionCall("clock", "{}", "Z3NpZy0y").toResponse());
        emulator.enqueue(GeminiScript.create().thought("All known.").text(ANSWER).toResponse());
    }

    private ChatProvider gemini() {
        return at(GeminiProvider.builder()).apiKey(KEY).build();
    }

    @Test
    void gemini3SignedCallsLoopIsAccepted() {
        emulator.checking(AcceptanceRules.gemini());
        geminiScript();

        completesInThreeAcceptedSteps(gemini(), ask("gemini-3-pro-preview", false));
    }

    @Test
    void gemini3CallThatLostItsThoughtSignatureIsRefused() {
        emulator.checking(AcceptanceRules.gemini());
        geminiScript();

        brokenHistoryIsRefused(gemini(), ask("gemini-3-pro-preview", false), LoopAgainstCheckingEmulatorTest::withoutSeals,
                GeminiThoughtSignatureRule.NAME, "function call `weather` in the 1. content block is missing a `thought_signature`");
    }

    // ---- Bedrock Converse with Claude, parallel toolUse

    private void bedrockScript() {
        emulator.enqueue(BedrockScript.create().reasoning("Both cities at once.", "YnNpZy0x")
                .toolUse("tooluse_1", "weather", "{\"city\":\"Paris\"}").toolUse("tooluse_2", "weather", "{\"city\":\"Rome\"}")
                .stopReason("tool_use").toResponse());
        emulator.enqueue(BedrockScript.create().reasoning("Now the clock.", "YnNpZy0y").toolUse("tooluse_3", "clock", "{}")
                .stopReason("tool_use").toResponse());
        emulator.enqueue(BedrockScript.create().reasoning("All known.", "YnNpZy0z").text(ANSWER).toResponse());
    }

    private ChatProvider bedrock() {
        return at(BedrockProvider.builder("us-east-1")).credentials(AwsCredentials.of("AKID", "s")).build();
    }

    @Test
    void bedrockClaudeReasoningLoopIsAccepted() {
        emulator.checking(AcceptanceRules.bedrock());
        bedrockScript();

        completesInThreeAcceptedSteps(bedrock(), ask("anthropic.claude-sonnet-4-5", true));
    }

    @Test
    void bedrockToolTurnWhoseReasoningLostItsSignatureIsRefused() {
        emulator.checking(AcceptanceRules.bedrock());
        bedrockScript();

        brokenHistoryIsRefused(bedrock(), ask("anthropic.claude-sonnet-4-5", true), LoopAgainstCheckingEmulatorTest::withoutSeals,
                // the encoder sends unsigned reasoning as a <think> text block, which Claude with thinking on refuses
                BedrockReasoningRule.NAME, "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`");
    }
}
