package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.Usage;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Cached input tokens reach {@link Usage} from every carrier a Chat Completions server uses:
 * OpenAI's {@code prompt_tokens_details.cached_tokens}, DeepSeek's {@code prompt_cache_hit_tokens},
 * and OpenRouter's {@code prompt_tokens_details.cache_write_tokens} for cache writes.
 */
class ChatCompletionsCacheUsageTest {

    private static Usage usageOf(CompatProfile profile, String body) {
        return Fixtures.run(ChatCompletionsCodec.decodeCompletion(profile, body.getBytes(StandardCharsets.UTF_8))).folded().usage;
    }

    @Test
    void recordedDeepSeekStreamReportsItsCacheHits() {
        // the finish chunk: "prompt_tokens_details":{"cached_tokens":320}, "prompt_cache_hit_tokens":320
        Usage usage = Fixtures.stream(Profiles.DEEPSEEK, "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse").folded().usage;

        assertThat(usage.cachedTokens()).isEqualTo(320L);
        assertThat(usage.inputTokens()).isEqualTo(339L);
        assertThat(usage.cacheWriteTokens()).isNull();
    }

    @Test
    void recordedOpenRouterBodyReportsCacheReadsAndWrites() {
        Usage usage = Fixtures.completion(Profiles.OPENROUTER,
                "openrouter/rubyllm-openrouter-claude-reasoning-details-roundtrip.turn2.json").folded().usage;

        assertThat(usage).isEqualTo(new Usage(762L, 34L, 0L, 0L, 0L));
    }

    @Test
    void deepSeekCacheHitTokensAloneAndOpenRouterCacheWritesAreRead() {
        String deepSeek = "{\"id\":\"x\",\"object\":\"chat.completion\",\"model\":\"deepseek-chat\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":1200,\"completion_tokens\":3,\"total_tokens\":1203,"
                + "\"prompt_cache_hit_tokens\":1024,\"prompt_cache_miss_tokens\":176}}";
        String openRouter = "{\"id\":\"x\",\"object\":\"chat.completion\",\"model\":\"anthropic/claude-sonnet-4.5\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":3000,\"completion_tokens\":3,\"total_tokens\":3003,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":0,\"cache_write_tokens\":2900}}}";

        assertThat(usageOf(Profiles.DEEPSEEK, deepSeek)).isEqualTo(new Usage(1200L, 3L, null, 1024L, null));
        assertThat(usageOf(Profiles.OPENROUTER, openRouter)).isEqualTo(new Usage(3000L, 3L, null, 0L, 2900L));
    }
}
