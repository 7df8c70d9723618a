package dev.ruminate.transport.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Bedrock ConverseStream body (binary, as recorded) decodes into the messages its decoded
 * twin lists, one {@code {"<:event-type>": payload}} line per message, whatever the buffer splits.
 */
class RecordedEventStreamTest {

    private static final String RECORDING = "bedrock/pydantic-bedrock-claude-redacted-reasoning-stream";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static byte[] fixture(String path) {
        try (InputStream in = RecordedEventStreamTest.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void decodesTheRecordedBodyIntoTheMessagesOfItsTwin() {
        List<EventStreamMessage> messages = EventStreams.decode(Bodies.wrapped(List.of(fixture(RECORDING + ".eventstream"))))
                .collectList().block();
        String[] twin = new String(fixture(RECORDING + ".jsonl"), StandardCharsets.UTF_8).strip().split("\n");

        assertThat(messages).hasSize(twin.length);
        for (int i = 0; i < twin.length; i++) {
            EventStreamMessage m = messages.get(i);
            JsonNode expected = JSON.readTree(twin[i]);
            String type = expected.propertyNames().iterator().next();
            assertThat(m.headerText(":event-type")).isEqualTo(type);
            assertThat(m.headerText(":message-type")).isEqualTo("event");
            assertThat(m.headerText(":content-type")).isEqualTo("application/json");
            assertThat(JSON.readTree(m.payload())).as("payload of message %d", i).isEqualTo(expected.get(type));
        }
        assertThat(messages.get(0).headerText(":event-type")).isEqualTo("messageStart");
        assertThat(messages.get(messages.size() - 1).headerText(":event-type")).isEqualTo("metadata");
    }

    @Test
    void decodesTheRecordingTheSameAtEverySplitSize() {
        byte[] body = fixture(RECORDING + ".eventstream");
        Outcome<EventStreamMessage> whole = Outcome.of(EventStreams.decode(Bodies.wrapped(List.of(body))), m -> m);
        Random random = new Random(20261122L);
        for (int i = 0; i < 50; i++) {
            Outcome<EventStreamMessage> split = Outcome.of(EventStreams.decode(
                    Bodies.releasedAfterNext(Bodies.HEAP, Bodies.split(body, Texts.bufferSizes(random)))), m -> m);
            assertThat(split).isEqualTo(whole);
        }
        assertThat(Outcome.of(EventStreams.decode(Bodies.releasedAfterNext(Bodies.HEAP, Bodies.bytewise(body))), m -> m))
                .isEqualTo(whole);
    }
}
