package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Decodes real recorded provider streams (see {@code fixtures/PROVENANCE.md}); the expected counts
 * and positions were read off the files.
 */
class RecordedStreamsTest {

    private static byte[] fixture(String path) {
        try (InputStream in = RecordedStreamsTest.class.getResourceAsStream("/fixtures/" + path)) {
            assertThat(in).as(path).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<SseEvent> decode(byte[] body, List<Integer> splits) {
        List<SseEvent> events = ServerSentEvents.decode(Bodies.wrapped(Bodies.split(body, splits)))
                .collectList()
                .block(Duration.ofSeconds(10));
        assertThat(events).isNotNull();
        return events;
    }

    @Test
    void decodesOpenRouterSkippingItsProcessingComments() {
        byte[] body = fixture("openrouter/pydantic-openrouter-o3-reasoning-stream.sse");
        List<SseEvent> events = decode(body, List.of(body.length));

        // 7 ": OPENROUTER PROCESSING" comments, 103 data lines, the last one [DONE].
        assertThat(events).hasSize(103);
        assertThat(events).extracting(SseEvent::type).containsOnly("message");
        assertThat(events.get(0).line()).isEqualTo(5);
        assertThat(events.get(0).byteOffset()).isEqualTo(50);
        assertThat(events.get(0).dataAsString())
                .startsWith("{\"id\":\"gen-1762141316-q3fB64DDMstJO0ZakdSK\",\"provider\":\"OpenAI\"")
                .endsWith("}]}");
        assertThat(events.subList(0, 102)).noneMatch(SseEvent::isDone);
        SseEvent last = events.get(102);
        assertThat(last.isDone()).isTrue();
        assertThat(last.line()).isEqualTo(219);
        assertThat(last.byteOffset()).isEqualTo(30606);
        assertThat(events).allSatisfy(event -> assertThat(event.dataAsString()).doesNotStartWith(":"));
    }

    @Test
    void decodesAnthropicEventNamesAndKeepsTheOddWhitespaceInData() {
        byte[] body = fixture("anthropic/pydantic-thinking-stream.sse");
        List<SseEvent> events = decode(body, List.of(body.length));

        assertThat(events).hasSize(118);
        Map<String, Long> types = events.stream().collect(Collectors.groupingBy(SseEvent::type, Collectors.counting()));
        assertThat(types).containsOnly(
                entry("message_start", 1L),
                entry("content_block_start", 2L),
                entry("ping", 1L),
                entry("content_block_delta", 110L),
                entry("content_block_stop", 2L),
                entry("message_delta", 1L),
                entry("message_stop", 1L));
        assertThat(events.get(0).type()).isEqualTo("message_start");
        assertThat(events.get(0).line()).isEqualTo(1);
        assertThat(events.get(0).byteOffset()).isZero();

        SseEvent ping = events.get(2);
        assertThat(ping.type()).isEqualTo("ping");
        assertThat(ping.line()).isEqualTo(7);
        assertThat(ping.byteOffset()).isEqualTo(622);
        assertThat(ping.dataAsString()).isEqualTo("{\"type\": \"ping\"}");

        SseEvent stop = events.get(117);
        assertThat(stop.type()).isEqualTo("message_stop");
        assertThat(stop.line()).isEqualTo(352);
        assertThat(stop.byteOffset()).isEqualTo(16551);
        assertThat(stop.dataAsString()).isEqualTo("{\"type\":\"message_stop\"         }");
        assertThat(events).noneMatch(SseEvent::isDone);
    }

    @Test
    void decodesTheRecordingsIdenticallyWhateverTheBufferSizes() {
        for (String path : List.of(
                "openrouter/pydantic-openrouter-o3-reasoning-stream.sse", "anthropic/pydantic-thinking-stream.sse")) {
            byte[] body = fixture(path);
            List<SseEventValue> whole = values(decode(body, List.of(body.length)));
            assertThat(values(decode(body, List.of(1)))).as(path).isEqualTo(whole);
            assertThat(values(decode(body, List.of(8192, 1, 0, 4096, 3, 1500)))).as(path).isEqualTo(whole);
        }
    }

    private static List<SseEventValue> values(List<SseEvent> events) {
        return events.stream().map(SseEventValue::of).toList();
    }
}
