package dev.ruminate.providers.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.loop.LoopEvent.LoopCompleted;
import dev.ruminate.core.loop.LoopEvent.StepChatEvent;
import dev.ruminate.core.loop.LoopOptions;
import dev.ruminate.core.loop.StopReason;
import dev.ruminate.core.loop.Tool;
import dev.ruminate.core.loop.ToolLoop;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tool loop over real HTTP, one provider family at a time, against the emulator: at least three
 * steps with reasoning, and what the later requests carry back (read from the recorded request
 * bodies): DeepSeek's {@code reasoning_content} on the assistant tool-call turns, Anthropic's
 * signed thinking before its tool_use, the Responses reasoning item with its encrypted content
 * before its function_call, Gemini's thought signature on the function call, Bedrock's signed
 * reasoningContent before toolUse, Ollama's {@code thinking} on its assistant tool-call turns. Also: cancellation closes the connection of the step in
 * flight, a provider error ends the loop with its typed exception, and tool errors reach the wire.
 */
@ExtendWith(NettyLeakCheck.class)
class LoopOverHttpTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ApiKey KEY = ApiKey.of("test-key-0123456789");
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}";
    private static final ToolDefinition WEATHER = new ToolDefinition("weather", "Current weather of a city", SCHEMA);
    private static final ToolDefinition CLOCK = new ToolDefinition("clock", "The time now", "{\"type\":\"object\"}");

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

    private static ToolLoop loop(ChatProvider provider) {
        return ToolLoop.builder(provider)
                .tool(Tool.of(WEATHER, call -> Mono.just("{\"temp\":" + (call.arguments().contains("Rome") ? 25 : 20) + "}")))
                .blockingTool(CLOCK, call -> "{\"time\":\"12:00\"}")
                .build();
    }

    private static ChatRequest ask(String model) {
        return ChatRequest.builder(model).user("Weather in Paris and Rome, and the time?").build();
    }

    private LoopCompleted runToCompletion(ToolLoop loop, ChatRequest request) {
        List<LoopEvent> events = new ArrayList<>();
        StepVerifier.create(loop.run(request))
                .recordWith(() -> events)
                .thenConsumeWhile(e -> !(e instanceof LoopCompleted))
                .expectNextMatches(LoopCompleted.class::isInstance)
                .verifyComplete();
        // recordWith keeps the events consumed by thenConsumeWhile; the last one is the completion
        LoopCompleted done = (LoopCompleted) events.get(events.size() - 1);
        assertThat(done.stopReason()).isEqualTo(StopReason.FINAL_ANSWER);
        assertThat(done.step()).isEqualTo(3);
        assertThat(emulator.requests()).hasSize(3);
        return done;
    }

    private JsonNode body(int request) {
        RecordedRequest recorded = emulator.requests().get(request);
        return JSON.readTree(recorded.body());
    }

    private static List<String> types(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.has(field) ? n.get(field).asString() : n.propertyNames().iterator().next()));
        return out;
    }

    @Test
    void deepSeekSendsReasoningContentBackOnEveryAssistantToolCallTurn() {
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Both cities at once.")
                .toolCall("call_1", "weather", "{\"city\":\"Paris\"}").toolCall("call_2", "weather", "{\"city\":\"Rome\"}")
                .finish("tool_calls").toResponse());
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Now the clock.").toolCall("call_3", "clock", "{}")
                .finish("tool_calls").toResponse());
        emulator.enqueue(ChatCompletionsScript.create().reasoning("All known.").content("Paris 20, Rome 25, 12:00.").toResponse());
        ChatProvider deepseek = at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK)).apiKey(KEY).build();

        LoopCompleted done = runToCompletion(loop(deepseek), ask("deepseek-reasoner"));

        assertThat(done.finalMessage().text()).isEqualTo("Paris 20, Rome 25, 12:00.");
        JsonNode second = body(1).get("messages");
        assertThat(types(second, "role")).containsExactly("user", "assistant", "tool", "tool");
        assertThat(second.get(1).get("reasoning_content").asString()).isEqualTo("Both cities at once.");
        assertThat(second.get(1).get("tool_calls").get(0).get("id").asString()).isEqualTo("call_1");
        assertThat(second.get(2).get("tool_call_id").asString()).isEqualTo("call_1");
        assertThat(second.get(2).get("content").asString()).isEqualTo("{\"temp\":20}");
        assertThat(second.get(3).get("tool_call_id").asString()).isEqualTo("call_2");
        assertThat(second.get(3).get("content").asString()).isEqualTo("{\"temp\":25}");
        JsonNode third = body(2).get("messages");
        assertThat(types(third, "role")).containsExactly("user", "assistant", "tool", "tool", "assistant", "tool");
        assertThat(third.get(1).get("reasoning_content").asString()).isEqualTo("Both cities at once.");
        assertThat(third.get(4).get("reasoning_content").asString()).isEqualTo("Now the clock.");
        assertThat(third.get(5).get("content").asString()).isEqualTo("{\"time\":\"12:00\"}");
        assertThat(body(1).get("tools")).hasSize(2);
    }

    @Test
    void ollamaSendsItsThinkingBackOnEveryAssistantToolCallTurn() {
        emulator.enqueue(OllamaScript.create().thinking("Both cities at once.")
                .toolCall("weather", "{\"city\":\"Paris\"}").toolCall("weather", "{\"city\":\"Rome\"}")
                .doneReason("stop").toResponse());
        emulator.enqueue(OllamaScript.create().thinking("Now the clock.").toolCall("clock", "{}").doneReason("stop")
                .toResponse());
        emulator.enqueue(OllamaScript.create().thinking("All known.").content("Paris 20, Rome 25, 12:00.").toResponse());
        ChatProvider ollama = at(OllamaProvider.builder()).build();

        LoopCompleted done = runToCompletion(loop(ollama), ask("qwen3:8b"));

        assertThat(done.finalMessage().text()).isEqualTo("Paris 20, Rome 25, 12:00.");
        JsonNode third = body(2).get("messages");
        assertThat(types(third, "role")).containsExactly("user", "assistant", "tool", "tool", "assistant", "tool");
        assertThat(third.get(1).get("thinking").asString()).isEqualTo("Both cities at once.");
        assertThat(third.get(1).get("tool_calls")).hasSize(2);
        // the results of the parallel calls go back in call order, each naming its tool
        assertThat(third.get(2).get("content").asString()).isEqualTo("{\"temp\":20}");
        assertThat(third.get(3).get("content").asString()).isEqualTo("{\"temp\":25}");
        assertThat(third.get(3).get("tool_name").asString()).isEqualTo("weather");
        assertThat(third.get(4).get("thinking").asString()).isEqualTo("Now the clock.");
        assertThat(third.get(5).get("content").asString()).isEqualTo("{\"time\":\"12:00\"}");
    }

    @Test
    void anthropicSendsSignedThinkingUnmodifiedBeforeToolUse() {
        emulator.enqueue(AnthropicScript.create().thinking("Both cities at once.", "c2lnLTE=")
                .toolUse("toolu_1", "weather", "{\"city\":\"Paris\"}").toolUse("toolu_2", "weather", "{\"city\":\"Rome\"}")
                .stopReason("tool_use").toResponse());
        emulator.enqueue(AnthropicScript.create().thinking("Now the clock.", "c2lnLTI=").redactedThinking("b3BhcXVlLTE=")
                .toolUse("toolu_3", "clock", "{}").stopReason("tool_use").toResponse());
        emulator.enqueue(AnthropicScript.create().thinking("All known.", "c2lnLTM=").text("Paris 20, Rome 25, 12:00.").toResponse());
        ChatProvider anthropic = at(AnthropicProvider.builder()).apiKey(KEY).build();

        runToCompletion(loop(anthropic), ask("claude-sonnet-4-5"));

        JsonNode second = body(1).get("messages");
        assertThat(types(second, "role")).containsExactly("user", "assistant", "user");
        JsonNode turn1 = second.get(1).get("content");
        assertThat(types(turn1, "type")).containsExactly("thinking", "tool_use", "tool_use");
        assertThat(turn1.get(0).get("thinking").asString()).isEqualTo("Both cities at once.");
        assertThat(turn1.get(0).get("signature").asString()).isEqualTo("c2lnLTE=");
        assertThat(types(second.get(2).get("content"), "type")).containsExactly("tool_result", "tool_result");
        assertThat(second.get(2).get("content").get(0).get("tool_use_id").asString()).isEqualTo("toolu_1");
        assertThat(second.get(2).get("content").get(1).get("tool_use_id").asString()).isEqualTo("toolu_2");
        JsonNode third = body(2).get("messages");
        assertThat(types(third, "role")).containsExactly("user", "assistant", "user", "assistant", "user");
        assertThat(third.get(1)).isEqualTo(second.get(1));
        JsonNode turn2 = third.get(3).get("content");
        assertThat(types(turn2, "type")).containsExactly("thinking", "redacted_thinking", "tool_use");
        assertThat(turn2.get(0).get("signature").asString()).isEqualTo("c2lnLTI=");
        assertThat(turn2.get(1).get("data").asString()).isEqualTo("b3BhcXVlLTE=");
    }

    @Test
    void aRecordedAnthropicToolTurnGoesBackAsAnthropicAcceptedIt() {
        // a real claude-sonnet-4 tool turn (signed thinking, text, tool_use), and the request that followed it, accepted
        emulator.enqueue(EmulatorResponse.json(200, Recorded.text("anthropic/pydantic-thinking-tool-use.turn1.json")));
        emulator.enqueue(EmulatorResponse.json(200, Recorded.text("anthropic/pydantic-thinking-tool-use.turn2.json")));
        JsonNode accepted = JSON.readTree(Recorded.text("sendback/anthropic/pydantic-thinking-tool-use.turn2.request.json"));
        ChatProvider anthropic = at(AnthropicProvider.builder()).apiKey(KEY).build();
        ToolLoop loop = ToolLoop.builder(anthropic)
                .tool(Tool.of(new ToolDefinition("get_user_country", "",
                        "{\"additionalProperties\":false,\"properties\":{},\"type\":\"object\"}"), call -> Mono.just("Mexico")))
                .options(LoopOptions.builder().streaming(false).build())
                .build();

        LoopCompleted done = loop.run(ChatRequest.builder("claude-sonnet-4-0")
                        .user("What is the largest city in the user country?").build())
                .ofType(LoopCompleted.class).blockLast(WAIT);

        assertThat(done.stopReason()).isEqualTo(StopReason.FINAL_ANSWER);
        assertThat(done.finalMessage().text()).contains("Mexico City");
        JsonNode sent = body(1).get("messages");
        assertThat(sent).hasSize(3);
        assertThat(sent.get(1)).isEqualTo(accepted.get("messages").get(1));
        assertThat(sent.get(2)).isEqualTo(accepted.get("messages").get(2));
    }

    @Test
    void responsesSendsEachReasoningItemWithItsEncryptedContentBeforeItsFunctionCall() {
        emulator.enqueue(ResponsesScript.create().reasoning("rs_1", "enc-1", "Both cities at once.")
                .functionCall("call_1", "weather", "{\"city\":\"Paris\"}").functionCall("call_2", "weather", "{\"city\":\"Rome\"}")
                .toResponse());
        emulator.enqueue(ResponsesScript.create().reasoning("rs_2", "enc-2", "Now the clock.")
                .functionCall("call_3", "clock", "{}").toResponse());
        emulator.enqueue(ResponsesScript.create().reasoning("rs_3", "enc-3", "All known.").text("Paris 20, Rome 25, 12:00.")
                .toResponse());
        ChatProvider responses = at(ResponsesProvider.builder(ResponsesProfiles.OPENAI)).apiKey(KEY).build();

        runToCompletion(loop(responses), ask("o4-mini"));

        JsonNode third = body(2).get("input");
        // the user message is an item without "type" (its first field is "role")
        assertThat(types(third, "type")).containsExactly("role", "reasoning", "function_call", "function_call",
                "function_call_output", "function_call_output", "reasoning", "function_call", "function_call_output");
        assertThat(third.get(1).get("id").asString()).isEqualTo("rs_1");
        assertThat(third.get(1).get("encrypted_content").asString()).isEqualTo("enc-1");
        assertThat(third.get(2).get("call_id").asString()).isEqualTo("call_1");
        assertThat(third.get(4).get("call_id").asString()).isEqualTo("call_1");
        assertThat(third.get(5).get("call_id").asString()).isEqualTo("call_2");
        assertThat(third.get(6).get("id").asString()).isEqualTo("rs_2");
        assertThat(third.get(6).get("encrypted_content").asString()).isEqualTo("enc-2");
        assertThat(third.get(7).get("call_id").asString()).isEqualTo("call_3");
        assertThat(body(1).get("input")).isEqualTo(JSON.valueToTree(List.of(third.get(0), third.get(1), third.get(2),
                third.get(3), third.get(4), third.get(5))));
    }

    @Test
    void geminiSendsTheThoughtSignatureBackOnTheFunctionCall() {
        emulator.enqueue(GeminiScript.create().thought("Paris first.").functionCall("weather", "{\"city\":\"Paris\"}", "Z3NpZy0x")
                .toResponse());
        emulator.enqueue(GeminiScript.create().thought("Now the clock.").functionCall("clock", "{}", "Z3NpZy0y").toResponse());
        emulator.enqueue(GeminiScript.create().thought("All known.").text("Paris 20, 12:00.").toResponse());
        ChatProvider gemini = at(GeminiProvider.builder()).apiKey(KEY).build();

        runToCompletion(loop(gemini), ask("gemini-3-pro-preview"));

        JsonNode third = body(2).get("contents");
        assertThat(types(third, "role")).containsExactly("user", "model", "user", "model", "user");
        assertThat(functionCall(third.get(1)).get("thoughtSignature").asString()).isEqualTo("Z3NpZy0x");
        assertThat(functionCall(third.get(3)).get("thoughtSignature").asString()).isEqualTo("Z3NpZy0y");
        assertThat(third.get(2).get("parts").get(0).get("functionResponse").get("name").asString()).isEqualTo("weather");
    }

    private static JsonNode functionCall(JsonNode content) {
        for (JsonNode part : content.get("parts")) {
            if (part.has("functionCall")) {
                return part;
            }
        }
        throw new AssertionError("no functionCall part in " + content);
    }

    @Test
    void bedrockSendsSignedReasoningContentBeforeToolUse() {
        emulator.enqueue(BedrockScript.create().reasoning("Both cities at once.", "YnNpZy0x")
                .toolUse("tooluse_1", "weather", "{\"city\":\"Paris\"}").toolUse("tooluse_2", "weather", "{\"city\":\"Rome\"}")
                .stopReason("tool_use").toResponse());
        emulator.enqueue(BedrockScript.create().reasoning("Now the clock.", "YnNpZy0y").toolUse("tooluse_3", "clock", "{}")
                .stopReason("tool_use").toResponse());
        emulator.enqueue(BedrockScript.create().reasoning("All known.", "YnNpZy0z").text("Paris 20, Rome 25, 12:00.").toResponse());
        ChatProvider bedrock = at(BedrockProvider.builder("us-east-1")).credentials(AwsCredentials.of("AKID", "s")).build();

        runToCompletion(loop(bedrock), ask("anthropic.claude-sonnet-4-5"));

        JsonNode third = body(2).get("messages");
        assertThat(types(third, "role")).containsExactly("user", "assistant", "user", "assistant", "user");
        JsonNode turn1 = third.get(1).get("content");
        assertThat(types(turn1, "")).containsExactly("reasoningContent", "toolUse", "toolUse");
        assertThat(turn1.get(0).get("reasoningContent").get("reasoningText").get("signature").asString()).isEqualTo("YnNpZy0x");
        assertThat(types(third.get(2).get("content"), "")).containsExactly("toolResult", "toolResult");
        assertThat(third.get(2).get("content").get(0).get("toolResult").get("toolUseId").asString()).isEqualTo("tooluse_1");
        JsonNode turn2 = third.get(3).get("content");
        assertThat(types(turn2, "")).containsExactly("reasoningContent", "toolUse");
        assertThat(turn2.get(0).get("reasoningContent").get("reasoningText").get("signature").asString()).isEqualTo("YnNpZy0y");
    }

    @Test
    void cancellingTheLoopClosesTheConnectionOfTheStepInFlight() {
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Paris.").toolCall("call_1", "weather", "{\"city\":\"Paris\"}")
                .finish("tool_calls").toResponse());
        EmulatorResponse slow = ChatCompletionsScript.create().reasoning("Thinking for a long while about it.")
                .content("Paris 20.").toResponse();
        emulator.enqueue(slow.chunked(ChunkPlan.fixed(64)).stallAfter(slow.body().length / 2));
        ChatProvider deepseek = at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK)).apiKey(KEY).build();
        Sinks.One<LoopEvent> secondStep = Sinks.one();

        Disposable subscription = loop(deepseek).run(ask("deepseek-reasoner")).subscribe(e -> {
            if (e instanceof StepChatEvent s && s.step() == 2) {
                secondStep.tryEmitValue(e);
            }
        });
        assertThat(secondStep.asMono().block(WAIT)).isNotNull();
        subscription.dispose();

        StepVerifier.create(emulator.connectionClosed(1)).expectComplete().verify(WAIT);
    }

    @Test
    void aProviderErrorInALaterStepEndsTheLoopWithItsTypedException() {
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Paris.").toolCall("call_1", "weather", "{\"city\":\"Paris\"}")
                .finish("tool_calls").toResponse());
        emulator.enqueue(EmulatorResponse.httpError(400, "{\"error\":{\"message\":\"The reasoning_content in the thinking mode"
                + " must be passed back to the API.\",\"type\":\"invalid_request_error\"}}"));
        ChatProvider deepseek = at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK)).apiKey(KEY).build();

        StepVerifier.create(loop(deepseek).run(ask("deepseek-reasoner")))
                .thenConsumeWhile(e -> true)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(ProviderHttpException.class,
                        http -> assertThat(http.status()).isEqualTo(400)).hasMessageContaining("must be passed back"))
                .verify(WAIT);
        assertThat(emulator.requests()).hasSize(2);
    }

    @Test
    void toolErrorsGoBackToTheModelAsToolResults() {
        emulator.enqueue(ChatCompletionsScript.create().reasoning("Try.").toolCall("call_1", "forecast", "{}")
                .toolCall("call_2", "weather", "{\"city\":").finish("tool_calls").toResponse());
        emulator.enqueue(ChatCompletionsScript.create().content("Sorry.").toResponse());
        ChatProvider deepseek = at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK)).apiKey(KEY).build();

        List<LoopEvent> events = loop(deepseek).run(ask("deepseek-reasoner")).collectList().block(WAIT);

        assertThat(events).last().isInstanceOf(LoopCompleted.class);
        JsonNode second = body(1).get("messages");
        assertThat(types(second, "role")).containsExactly("user", "assistant", "tool", "tool");
        assertThat(second.get(2).get("content").asString()).contains("no tool named \"forecast\"").contains("weather, clock");
        assertThat(second.get(3).get("content").asString()).contains("not valid JSON");
    }

    @Test
    void aLoopRestartedFromUnansweredToolCallsRunsThemBeforeAskingTheModel() {
        emulator.enqueue(AnthropicScript.create().thinking("Paris.", "c2lnLTE=").toolUse("toolu_1", "weather", "{\"city\":\"Paris\"}")
                .stopReason("tool_use").toResponse());
        emulator.enqueue(AnthropicScript.create().text("Paris 20.").toResponse());
        ChatProvider anthropic = at(AnthropicProvider.builder()).apiKey(KEY).build();
        ToolLoop stopsAtOnce = ToolLoop.builder(anthropic).tool(Tool.of(WEATHER, call -> Mono.just("{\"temp\":20}")))
                .options(LoopOptions.builder().maxSteps(1).build()).build();

        LoopCompleted interrupted = stopsAtOnce.run(ask("claude-sonnet-4-5")).ofType(LoopCompleted.class).blockLast(WAIT);
        assertThat(interrupted.stopReason()).isEqualTo(StopReason.STEP_LIMIT);
        assertThat(interrupted.conversation()).last().isInstanceOf(AssistantMessage.class);

        ChatRequest resumed = ChatRequest.builder("claude-sonnet-4-5").messages(interrupted.conversation()).build();
        LoopCompleted done = loop(anthropic).run(resumed).ofType(LoopCompleted.class).blockLast(WAIT);

        assertThat(done.finalMessage().text()).isEqualTo("Paris 20.");
        JsonNode second = body(1).get("messages");
        assertThat(types(second, "role")).containsExactly("user", "assistant", "user");
        assertThat(second.get(1).get("content").get(0).get("signature").asString()).isEqualTo("c2lnLTE=");
        assertThat(second.get(2).get("content").get(0).get("tool_use_id").asString()).isEqualTo("toolu_1");
        assertThat(second.get(2).get("content").get(0).toString()).contains("temp");
    }
}
