package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.NettyLeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code ruminate next-request} prints the exact request the client sends after recorded turns. */
@ExtendWith(NettyLeakCheck.class)
class NextRequestCommandTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String TURN = "anthropic/pydantic-thinking-tool-use.turn1.json";

    @Test
    void anthropicToolLoopCarriesTheSignedThinkingBeforeTheCallAndTheResultAfter() {
        CliRun run = CliRun.of("next-request", "--provider", "anthropic",
                "--tool-result", "toolu_01YGzqpRE16Vricda3Aqcejo={\"country\":\"Mexico\"}", CliRun.fixture(TURN));

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode body = JSON.readTree(run.out());
        assertThat(body.get("model").stringValue()).isEqualTo("claude-sonnet-4-20250514");
        JsonNode assistant = body.get("messages").get(1).get("content");
        assertThat(assistant.get(0).get("type").stringValue()).isEqualTo("thinking");
        assertThat(assistant.get(0).get("signature").stringValue()).startsWith("EqEECkYICxgCKkAo3UA4WwDbB8ihhpykVCsP");
        assertThat(assistant.get(2).get("type").stringValue()).isEqualTo("tool_use");
        JsonNode result = body.get("messages").get(2).get("content").get(0);
        assertThat(result.get("tool_use_id").stringValue()).isEqualTo("toolu_01YGzqpRE16Vricda3Aqcejo");
        assertThat(result.get("content").stringValue()).isEqualTo("{\"country\":\"Mexico\"}");
    }

    @Test
    void retentionNoneSendsNoThinking() {
        CliRun run = CliRun.of("next-request", "--provider", "anthropic", "--retention", "none", "--user", "Thanks!",
                CliRun.fixture(TURN));

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).doesNotContain("\"thinking\"").doesNotContain("signature").contains("Thanks!");
    }

    @Test
    void deepSeekThinkingModeCarriesReasoningContentInTheToolLoop() {
        CliRun run = CliRun.of("next-request", "--provider", "deepseek", "--model", "deepseek-v4-flash",
                "--tool-result", "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF={\"temperature\":18}",
                CliRun.fixture("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse"));

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode messages = JSON.readTree(run.out()).get("messages");
        assertThat(messages.get(1).get("reasoning_content").stringValue())
                .startsWith("The user is asking for the weather in San Francisco.");
        assertThat(messages.get(1).get("tool_calls").get(0).get("id").stringValue()).isEqualTo("call_00_ioIn7yN9p1ZOMNpDLwd4MgAF");
        assertThat(messages.get(2).get("role").stringValue()).isEqualTo("tool");
    }

    @Test
    void explainPrintsThePlanAfterTheBodyOneLinePerReasoningPartAndValue() {
        CliRun run = CliRun.of("next-request", "--provider", "anthropic", "--explain",
                "--tool-result", "toolu_01YGzqpRE16Vricda3Aqcejo={\"country\":\"Mexico\"}", CliRun.fixture(TURN));

        assertThat(run.status()).as(run.err()).isZero();
        int plan = run.out().indexOf("\n\n" + NextRequestCommand.PLAN_HEADING + "\n");
        assertThat(plan).isPositive();
        // the body before it is the request, unchanged
        JsonNode body = JSON.readTree(run.out().substring(0, plan));
        assertThat(body.get("messages").get(1).get("content").get(0).get("signature").stringValue())
                .startsWith("EqEECkYICxgCKkAo3UA4WwDbB8ihhpykVCsP");
        assertThat(run.out().substring(plan + 2 + NextRequestCommand.PLAN_HEADING.length() + 1)).isEqualTo("""
                  turn 1 part 0 signature: keep [boundary] same provider, API, endpoint and account; same model family
                  turn 1 part 0 reasoning: keep [A1] a thinking block with its signature, in place
                  turn 1 part 0 signature: keep [A1] the thinking block's signature, byte-identical
                """);
    }

    @Test
    void explainNamesEachFamilysRule() {
        CliRun toolTurn = CliRun.of("next-request", "--provider", "deepseek", "--model", "deepseek-v4-flash", "--explain",
                "--tool-result", "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF={\"temperature\":18}",
                CliRun.fixture("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse"));
        CliRun plainTurn = CliRun.of("next-request", "--provider", "deepseek", "--explain", "--user", "And then?",
                CliRun.fixture("deepseek/pydantic-deepseek-reasoner.json"));
        CliRun gemini = CliRun.of("next-request", "--provider", "gemini", "--explain", "--user", "And then?",
                CliRun.fixture("gemini/pydantic-gemini-thought-summaries-multiturn.turn1.json"));

        assertThat(toolTurn.status()).as(toolTurn.err()).isZero();
        assertThat(toolTurn.out()).containsPattern("\n  turn 1 part \\d+ reasoning: to field \\[C1\\] sent as the "
                + "message's reasoning_content\n");
        assertThat(plainTurn.status()).as(plainTurn.err()).isZero();
        assertThat(plainTurn.out()).containsPattern("\n  turn 1 part 0 reasoning: drop \\[C1\\] not in a user turn with "
                + "tool calls, where deepseek ignores it\n");
        assertThat(gemini.status()).as(gemini.err()).isZero();
        assertThat(gemini.out()).contains(" reasoning: drop [G2] an unsigned thought summary is not sent")
                .contains(" signature: keep [G1] the thoughtSignature stays on the part it came on");
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertThat(CliRun.of("next-request", "--provider", "anthropic", "--retention", "forever", CliRun.fixture(TURN)).status())
                .isEqualTo(Main.USAGE);
        assertThat(CliRun.of("next-request", "--provider", "anthropic").status()).isEqualTo(Main.USAGE);
        assertThat(CliRun.of("next-request", "--provider", "anthropic", "--tool-result", "nothing", CliRun.fixture(TURN)).status())
                .isEqualTo(Main.USAGE);
    }
}
