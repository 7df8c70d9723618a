package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.Usage;
import dev.ruminate.transport.wire.SseEvent;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * Prompt-cache usage: {@code cache_read_input_tokens} becomes {@link Usage#cachedTokens()} and
 * {@code cache_creation_input_tokens} {@link Usage#cacheWriteTokens()}, in {@code message_start},
 * {@code message_delta} and whole bodies.
 */
class AnthropicCacheUsageTest {

    private static List<Usage> usages(Flux<ChatEvent> events) {
        return events.ofType(UsageUpdate.class).map(UsageUpdate::usage).collectList().block();
    }

    @Test
    void theRecordedCompactionStreamReportsItsCacheReadInMessageStart() {
        List<Usage> usages = usages(AnthropicRecordings.decode("anthropic/pydantic-compaction-stream.sse"));

        // message_start: 55096 read from the cache, nothing written
        assertThat(usages.get(0).cachedTokens()).isEqualTo(55096L);
        assertThat(usages.get(0).cacheWriteTokens()).isEqualTo(0L);
    }

    @Test
    void aRecordedBodyReportsZeroCacheReadsAndWritesAsZeroNotUnknown() {
        Usage usage = AnthropicRecordings.reduce(AnthropicRecordings.decode("anthropic/pydantic-thinking-tool-use.turn1.json"))
                .message().usage();

        assertThat(usage.cachedTokens()).isEqualTo(0L);
        assertThat(usage.cacheWriteTokens()).isEqualTo(0L);
    }

    @Test
    void aWholeBodyWithCacheWritesAndReads() {
        String body = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}],\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":12,"
                + "\"cache_creation_input_tokens\":2048,\"cache_read_input_tokens\":4096,\"output_tokens\":3}}";

        List<Usage> usages = usages(AnthropicCodec.decodeMessage(body.getBytes(StandardCharsets.UTF_8)));

        assertThat(usages).containsExactly(new Usage(12L, 3L, null, 4096L, 2048L));
    }

    @Test
    void aStreamWithCacheCountsInMessageStartAndMessageDelta() {
        List<SseEvent> sse = List.of(
                sse("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                        + "\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"usage\":{\"input_tokens\":12,"
                        + "\"cache_creation_input_tokens\":1500,\"cache_read_input_tokens\":0,\"output_tokens\":1}}}"),
                sse("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                        + "\"usage\":{\"output_tokens\":9,\"cache_read_input_tokens\":300}}"),
                sse("message_stop", "{\"type\":\"message_stop\"}"));

        List<Usage> usages = usages(Flux.fromIterable(sse).transform(AnthropicCodec.streamDecoder()));

        assertThat(usages).containsExactly(new Usage(12L, 1L, null, 0L, 1500L), new Usage(null, 9L, null, 300L, null));
        assertThat(usages.get(0).merge(usages.get(1))).isEqualTo(new Usage(12L, 9L, null, 300L, 1500L));
    }

    private static SseEvent sse(String type, String data) {
        return new SseEvent(type, data.getBytes(StandardCharsets.UTF_8), null, 1, 0);
    }
}
