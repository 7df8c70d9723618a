package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The emulator's acceptance rules never refuse a request the real API accepted: every later-turn
 * request of {@code shared/sendback} added on 2026-11-25 that a rule family covers (omitted thinking,
 * compaction and {@code pause_turn} continuations on Anthropic, adaptive thinking on Bedrock, DeepSeek
 * V4 within and outside tool turns, Gemini 3 signed and parallel calls, Responses reasoning and
 * compaction items, {@code store:false} over turns) passes its family's rules, at the path it was
 * posted to.
 */
class AcceptedRequestsPassTheRulesTest {

    static Stream<Arguments> accepted() {
        return Stream.of(
                family("anthropic/pydantic-sonnet5-advisor-omitted-thinking-replay.turn2", "/v1/messages", AcceptanceRules::anthropic),
                family("anthropic/pydantic-compaction-multiturn.turn2", "/v1/messages", AcceptanceRules::anthropic),
                family("anthropic/pydantic-pause-turn-web-search-thinking.turn2", "/v1/messages", AcceptanceRules::anthropic),
                family("anthropic/rubyllm-haiku45-thinking-multiturn.turn2", "/v1/messages", AcceptanceRules::anthropic),
                family("bedrock/pydantic-bedrock-claude-adaptive-effort.turn2", "/model/us.anthropic.claude-sonnet-4-6/converse",
                        AcceptanceRules::bedrock),
                family("deepseek/rubyllm-deepseek-v4-flash-reasoner-multiturn.turn2", "/chat/completions", AcceptanceRules::deepSeek),
                family("deepseek/crush-hyper-deepseek-v4-pro-reasoning-parallel-tools-stream.turn4", "/chat/completions",
                        AcceptanceRules::deepSeek),
                family("gemini/rubyllm-gemini31-pro-thought-signed-call.turn2",
                        "/v1beta/models/gemini-3.1-pro-preview:generateContent", AcceptanceRules::gemini),
                family("gemini/fantasy-gemini31-pro-parallel-calls-signature.turn2",
                        "/v1beta/models/gemini-3-pro-preview:generateContent", AcceptanceRules::gemini),
                family("gemini/llmg-gemini3-flash-signed-call-json-array-stream.turn2",
                        "/v1beta/models/gemini-3-flash-preview:streamGenerateContent", AcceptanceRules::gemini),
                family("openai-responses/pydantic-gpt55-phase-encrypted-reasoning-function-call-stream.turn2", "/v1/responses",
                        AcceptanceRules::responses),
                family("openai-responses/pydantic-gpt41-context-compaction-stream.turn4", "/v1/responses", AcceptanceRules::responses),
                family("openai-responses/pydantic-compact-endpoint.turn4", "/v1/responses", AcceptanceRules::responses),
                family("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn2", "/v1/responses", AcceptanceRules::responses),
                family("openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn3", "/v1/responses", AcceptanceRules::responses));
    }

    private static Arguments family(String stem, String path, Supplier<AcceptanceRules> rules) {
        return Arguments.of(stem, path, rules);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void anAcceptedRequestPassesItsFamilysRules(String stem, String path, Supplier<AcceptanceRules> rules) {
        Violation violation = rules.get().check(Sendback.post(path, Sendback.body(stem + ".request.json")));

        assertThat(violation).as(stem).isNull();
    }
}
