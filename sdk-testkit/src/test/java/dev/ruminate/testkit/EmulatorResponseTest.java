package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmulatorResponseTest {

    @Test
    void factoriesSetStatusAndContentType() {
        assertThat(EmulatorResponse.json(201, "{}").contentType()).isEqualTo("application/json");
        assertThat(EmulatorResponse.json(201, "{}").status()).isEqualTo(201);
        assertThat(EmulatorResponse.sse("data: x\n\n").contentType()).isEqualTo("text/event-stream");
        assertThat(EmulatorResponse.html(503, "<p>down</p>").contentType()).isEqualTo("text/html; charset=utf-8");
        assertThat(EmulatorResponse.bytes("application/x-ndjson", new byte[] {1}).status()).isEqualTo(200);
        assertThat(EmulatorResponse.rateLimited(30, "{}").headers()).containsExactly(Map.entry("Retry-After", "30"));
        assertThat(EmulatorResponse.sse("x").contentType(null).contentType()).isNull();
    }

    @Test
    void withersReturnNewInstancesAndLeaveTheOriginalAlone() {
        EmulatorResponse base = EmulatorResponse.sse("data: é\n\n");
        EmulatorResponse changed = base.chunked(ChunkPlan.everyByte()).delay(Duration.ofMillis(1))
                .header("x-a", "1").status(202).contentType("text/plain").stallAfter(3);

        assertThat(base.status()).isEqualTo(200);
        assertThat(base.headers()).isEmpty();
        assertThat(base.contentType()).isEqualTo("text/event-stream");
        assertThat(changed.status()).isEqualTo(202);
        assertThat(changed.contentType()).isEqualTo("text/plain");
        assertThat(changed.body()).isEqualTo(base.body()).isEqualTo("data: é\n\n".getBytes(StandardCharsets.UTF_8));
        assertThat(changed.toString()).contains("202", "stall after 3 bytes", "ChunkPlan.fixed(1)");
    }

    @Test
    void keepsItsOwnCopyOfTheBody() {
        byte[] body = {1, 2, 3};
        EmulatorResponse response = EmulatorResponse.bytes("application/octet-stream", body);
        body[0] = 9;
        response.body()[1] = 9;

        assertThat(response.body()).containsExactly(1, 2, 3);
    }

    @Test
    void rejectsInvalidValuesNamingThem() {
        assertThatThrownBy(() -> EmulatorResponse.json(99, "{}")).hasMessageContaining("99");
        assertThatThrownBy(() -> EmulatorResponse.json(200, "{}").status(600)).hasMessageContaining("600");
        assertThatThrownBy(() -> EmulatorResponse.httpError(200, "{}")).hasMessageContaining("200");
        assertThatThrownBy(() -> EmulatorResponse.rateLimited(-1, "{}")).hasMessageContaining("-1");
        assertThatThrownBy(() -> EmulatorResponse.sse("abc").resetAfter(4)).hasMessageContaining("4");
        assertThatThrownBy(() -> EmulatorResponse.sse("abc").stallAfter(-1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> EmulatorResponse.sse("abc").delay(Duration.ofMillis(-5))).hasMessageContaining("-");
        assertThatThrownBy(() -> EmulatorResponse.sse("abc").header("x", "a\r\nInjected: 1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EmulatorResponse.replay(Path.of("does/not/exist.sse"), "text/event-stream"))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("exist.sse");
    }

    @Test
    void faultsMayCoverTheWholeBody() {
        assertThat(EmulatorResponse.sse("abc").resetAfter(3).toString()).contains("reset after 3 bytes");
        assertThat(EmulatorResponse.sse("abc").stallAfter(0).toString()).contains("stall after 0 bytes");
    }
}
