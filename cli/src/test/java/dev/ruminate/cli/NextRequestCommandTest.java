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
    void badOptionsAreUsageErrors() {
        assertThat(CliRun.of("next-request", "--provider", "anthropic", "--retention", "forever", CliRun.fixture(TURN)).status())
                .isEqualTo(Main.USAGE);
        assertThat(CliRun.of("next-request", "--provider", "anthropic").status()).isEqualTo(Main.USAGE);
        assertThat(CliRun.of("next-request", "--provider", "anthropic", "--tool-result", "nothing", CliRun.fixture(TURN)).status())
                .isEqualTo(Main.USAGE);
    }
}
