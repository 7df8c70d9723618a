package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import dev.ruminate.testkit.NettyLeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@ExtendWith(NettyLeakCheck.class)
class ReplayCommandTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode json(CliRun run) {
        return JSON.readTree(run.out());
    }

    @Test
    void replaysADeepSeekToolCallStreamAsTheDesignSchema() {
        CliRun run = CliRun.of("replay", "--provider", "deepseek", CliRun.fixture("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse"));

        assertThat(run.status()).isZero();
        JsonNode root = json(run);
        assertThat(fieldNames(root)).containsExactly("provider", "model", "finishReason", "parts", "usage", "reasoningCheck");
        assertThat(root.get("provider").stringValue()).isEqualTo("deepseek");
        assertThat(root.get("model").stringValue()).isEqualTo("deepseek-reasoner");
        assertThat(root.get("finishReason").stringValue()).isEqualTo("tool_calls");
        JsonNode reasoning = root.get("parts").get(0);
        assertThat(reasoning.get("type").stringValue()).isEqualTo("reasoning");
        assertThat(reasoning.get("text").stringValue()).startsWith("The user is asking for the weather in San Francisco.");
        assertThat(reasoning.get("summary").booleanValue()).isFalse();
        assertThat(reasoning.get("source").stringValue()).isEqualTo("reasoning_content");
        JsonNode call = root.get("parts").get(1);
        assertThat(call.get("type").stringValue()).isEqualTo("tool_call");
        assertThat(call.get("id").stringValue()).isEqualTo("call_00_ioIn7yN9p1ZOMNpDLwd4MgAF");
        assertThat(call.get("name").stringValue()).isEqualTo("weather");
        // Arguments are parsed JSON, not a string.
        assertThat(call.get("arguments").isObject()).isTrue();
        assertThat(call.get("arguments").get("location").stringValue()).isEqualTo("San Francisco");
        assertThat(root.get("usage").toString())
                .isEqualTo("{\"inputTokens\":339,\"outputTokens\":83,\"reasoningTokens\":39,\"cachedTokens\":320}");
        assertThat(root.get("reasoningCheck").stringValue()).isEqualTo("unavailable");
        assertThat(run.out()).doesNotContain("null");
    }

    @Test
    void replaysTheBinaryBedrockRecordingThroughTheSignedClient() {
        CliRun run = CliRun.of("replay", "--provider", "bedrock",
                CliRun.fixture("bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream"));

        assertThat(run.status()).isZero();
        JsonNode root = json(run);
        assertThat(root.get("provider").stringValue()).isEqualTo("bedrock");
        assertThat(root.get("finishReason").stringValue()).isEqualTo("stop");
        JsonNode parts = root.get("parts");
        assertThat(parts).hasSize(3);
        assertThat(parts.get(0).get("type").stringValue()).isEqualTo("reasoning");
        assertThat(parts.get(0).get("redacted").stringValue()).hasSize(1080).startsWith("RXRrRUNrZ0");
        assertThat(parts.get(1).get("redacted").stringValue()).hasSize(752);
        assertThat(parts.get(2).get("text").stringValue()).startsWith("I notice you've sent what appears to be ");
        assertThat(root.get("usage").toString()).isEqualTo("{\"inputTokens\":92,\"outputTokens\":253}");
    }

    @Test
    void replaysABedrockConverseBodyWithItsSignature() {
        CliRun run = CliRun.of("replay", "--provider", "bedrock", "--format", "text", "--no-color",
                CliRun.fixture("bedrock/vercel-bedrock-converse-reasoning-signature.json"));

        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("reasoning (reasoningContent) [signed]", "Let me count the r's in \"strawberry\"",
                "There are **3** r's", "matched");
    }

    @Test
    void replaysAnOllamaNativeNdjsonStreamWithItsThinking() {
        CliRun run = CliRun.of("replay", "--provider", "ollama-native",
                CliRun.fixture("ollama/attogram-generate-gpt-oss-120b-thinking-stream.ndjson"));

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode root = json(run);
        assertThat(root.get("provider").stringValue()).isEqualTo("ollama-native");
        assertThat(root.get("parts").get(0).get("type").stringValue()).isEqualTo("reasoning");
        assertThat(root.get("parts").get(0).get("text").stringValue()).startsWith("User asks: \"");
        assertThat(root.get("parts").get(1).get("type").stringValue()).isEqualTo("text");
        assertThat(root.get("usage").toString()).isEqualTo("{\"inputTokens\":81,\"outputTokens\":53}");
    }

    @Test
    void replaysOllamaThinkTagsWhenAsked() {
        String file = CliRun.fixture("think-tags/attogram-ollama-generate-qwen3-1.7b-think-tags-stream.ndjson");
        JsonNode split = json(CliRun.of("replay", "--provider", "ollama-native", "--think-tags", file));
        JsonNode raw = json(CliRun.of("replay", "--provider", "ollama-native", file));

        assertThat(split.get("parts").get(0).get("type").stringValue()).isEqualTo("reasoning");
        assertThat(split.get("parts").get(0).get("source").stringValue()).isEqualTo("tags");
        assertThat(raw.get("parts")).hasSize(1);
        assertThat(raw.get("parts").get(0).get("text").stringValue()).startsWith("<think>");
    }

    @Test
    void replaysMistralThinkingChunks() {
        CliRun run = CliRun.of("replay", "--provider", "mistral", CliRun.fixture("mistral/vercel-magistral-thinking-chunks-stream.sse"));

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode parts = json(run).get("parts");
        assertThat(parts.get(0).get("type").stringValue()).isEqualTo("reasoning");
        assertThat(parts.get(0).get("text").stringValue()).startsWith("The user is asking for 2+2.");
        assertThat(parts.get(0).get("source").stringValue()).isEqualTo("thinking");
        assertThat(parts.get(1).get("text").stringValue()).startsWith("2");
    }

    @Test
    void replaysAnthropicServerToolBlocksAsTheirOwnParts() {
        CliRun run = CliRun.of("replay", "--provider", "anthropic",
                CliRun.fixture("anthropic/pydantic-thinking-web-search-stream.sse"));

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode parts = json(run).get("parts");
        assertThat(parts.get(0).get("type").stringValue()).isEqualTo("reasoning");
        assertThat(parts.get(0).get("signature").stringValue()).isNotEmpty();
        JsonNode call = parts.get(1);
        assertThat(call.get("type").stringValue()).isEqualTo("server_tool");
        assertThat(call.get("blockType").stringValue()).isEqualTo("server_tool_use");
        assertThat(call.get("name").stringValue()).isEqualTo("web_search");
        assertThat(call.get("block").get("input").get("query").stringValue()).isEqualTo("San Francisco weather today");
        assertThat(parts.get(2).get("blockType").stringValue()).isEqualTo("web_search_tool_result");
        assertThat(parts.get(2).get("id").stringValue()).isEqualTo(call.get("id").stringValue());
    }

    @Test
    void replaysAnXaiResponsesStreamWithItsEncryptedReasoning() {
        CliRun run = CliRun.of("replay", "--provider", "xai-responses",
                CliRun.fixture("xai/vercel-xai-responses-reasoning-store-false-stream.sse"));

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode root = json(run);
        JsonNode reasoning = root.get("parts").get(0);
        assertThat(reasoning.get("summary").booleanValue()).isTrue();
        assertThat(reasoning.get("id").stringValue()).isEqualTo("rs_0b824fe9-3250-2588-0bbf-0810402fc822");
        assertThat(reasoning.get("encrypted").stringValue()).startsWith("WjtnRFdCMihgUoZ7mSMscKCe3dmgPFa5M5kX7HQJ");
        assertThat(root.get("parts").get(1).get("text").stringValue()).startsWith("### Overview of Sonoran Cuisine");
        assertThat(root.get("reasoningCheck").stringValue()).isEqualTo("matched");
        assertThat(root.get("usage").get("reasoningTokens").longValue()).isEqualTo(253);
    }

    @Test
    void replaysVertexPartialArgumentsAsWholeCalls() {
        CliRun run = CliRun.of("replay", "--provider", "vertex", CliRun.fixture("gemini/vercel-vertex-partial-args-tool-call-stream.sse"));

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode root = json(run);
        assertThat(root.get("provider").stringValue()).isEqualTo("vertex");
        assertThat(root.get("finishReason").stringValue()).isEqualTo("tool_calls");
        JsonNode parts = root.get("parts");
        assertThat(parts.get(0).get("arguments").get("location").stringValue()).isEqualTo("Boston");
        assertThat(parts.get(0).get("signature").stringValue()).startsWith("CiMBjz1rX2");
        assertThat(parts.get(1).get("arguments").get("location").stringValue()).isEqualTo("San Francisco");
    }

    @Test
    void replaysAGeminiBodyWithThoughtsAndASignedAnswer() {
        CliRun run = CliRun.of("replay", "--provider", "gemini",
                CliRun.fixture("gemini/pydantic-gemini-thought-summaries-multiturn.turn1.json"));

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode parts = json(run).get("parts");
        assertThat(parts.get(0).get("summary").booleanValue()).isTrue();
        assertThat(parts.get(0).get("text").stringValue()).startsWith("**A Safe Street-Crossing Guide");
        assertThat(parts.get(1).get("signature").stringValue()).hasSize(5180);
        assertThat(json(run).get("reasoningCheck").stringValue()).isEqualTo("matched");
    }

    @Test
    void replaysANonStreamingBodyDetectedFromItsContent() {
        CliRun run = CliRun.of("replay", "--provider", "deepseek", CliRun.fixture("deepseek/pydantic-deepseek-reasoner.json"));

        assertThat(run.status()).isZero();
        JsonNode root = json(run);
        assertThat(root.get("parts").get(0).get("type").stringValue()).isEqualTo("reasoning");
        assertThat(root.get("parts").get(1).get("type").stringValue()).isEqualTo("text");
        // The body holds the provider's final reasoning, so the check has something to compare.
        assertThat(root.get("reasoningCheck").stringValue()).isEqualTo("matched");
    }

    @Test
    void keepsOpenRouterSignaturesOnTheReasoningPart() {
        CliRun run = CliRun.of("replay", "--provider", "openrouter",
                CliRun.fixture("openrouter/pydantic-openrouter-claude-reasoning-details-stream.sse"));

        assertThat(run.status()).isZero();
        JsonNode reasoning = json(run).get("parts").get(0);
        assertThat(reasoning.get("text").stringValue()).isEqualTo("This is a simple arithmetic question. 2+2 equals 4.");
        assertThat(reasoning.get("signature").stringValue()).startsWith("Et0BCkgIChAC");
        assertThat(reasoning.get("source").stringValue()).isEqualTo("reasoning_details");
        assertThat(json(run).get("parts").get(1).get("text").stringValue()).isEqualTo("2 + 2 = 4");
    }

    @Test
    void aStreamThatFailsPrintsThePartialMessageWithTheErrorAndExitsThree() {
        CliRun run = CliRun.of("replay", "--provider", "groq",
                CliRun.fixture("groq/pydantic-groq-tool-use-failed-error-stream.turn1.sse"));

        assertThat(run.status()).isEqualTo(3);
        JsonNode root = json(run);
        assertThat(root.get("finishReason").stringValue()).isEqualTo("error");
        assertThat(root.get("parts").get(0).get("type").stringValue()).isEqualTo("reasoning");
        assertThat(root.get("parts").get(0).get("text").stringValue()).startsWith("We");
        assertThat(root.get("error").get("type").stringValue()).isEqualTo("provider_stream_error");
        assertThat(root.get("error").get("message").stringValue()).contains("tool_use_failed");
    }

    @Test
    void thinkTagsFlagSplitsReasoningOutOfTheContent() {
        String file = CliRun.fixture("think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse");
        JsonNode split = json(CliRun.of("replay", "--provider", "openai-compatible", "--think-tags", file));
        JsonNode raw = json(CliRun.of("replay", "--provider", "openai-compatible", file));

        assertThat(split.get("parts").get(0).get("type").stringValue()).isEqualTo("reasoning");
        assertThat(split.get("parts").get(0).get("source").stringValue()).isEqualTo("tags");
        assertThat(split.get("parts").get(0).get("text").stringValue()).contains("Uruguayan alfajores");
        assertThat(split.get("parts").get(1).get("text").stringValue()).endsWith("Enjoy your homemade Uruguayan alfajores!");
        assertThat(raw.get("parts")).hasSize(1);
        assertThat(raw.get("parts").get(0).get("text").stringValue()).startsWith("<think>");
    }

    @Test
    void textFormatSetsReasoningApartFromTheAnswer() {
        CliRun run = CliRun.of("replay", "--provider", "openrouter", "--format", "text", "--no-color",
                CliRun.fixture("openrouter/pydantic-openrouter-claude-reasoning-details-stream.sse"));

        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("── reasoning (reasoning_details) [signed] ──")
                .contains("── answer ──\n2 + 2 = 4")
                .contains("reasoning check: unavailable");
        assertThat(run.out().indexOf("reasoning (")).isLessThan(run.out().indexOf("answer"));
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(CliRun.of().status()).isEqualTo(2);
        assertThat(CliRun.of("replay", "--provider", "deepseek").status()).isEqualTo(2);
        assertThat(CliRun.of("replay", "--provider", "nope", "x.sse").err()).contains("unknown provider 'nope'");
        assertThat(CliRun.of("replay", "--provider", "deepseek", "/no/such/file.sse").err()).contains("no such file");
        assertThat(CliRun.of("replay", "--bogus").status()).isEqualTo(2);
        assertThat(CliRun.of("replay", "--provider", "deepseek", "--format", "xml", "x").status()).isEqualTo(2);
        assertThat(CliRun.of("frobnicate").err()).contains("unknown command 'frobnicate'");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
