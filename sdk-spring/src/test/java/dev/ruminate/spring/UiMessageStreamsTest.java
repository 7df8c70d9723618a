package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.ui.ServerTurns;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Flux;

/** The Spring wrapping of the UI message stream: its headers, one nameless event per chunk, a bad body a 400. */
class UiMessageStreamsTest {

    @Test
    void theResponseCarriesTheProtocolHeaderAndOneEventPerChunk() {
        ResponseEntity<Flux<ServerSentEvent<String>>> response =
                UiMessageStreams.response(Flux.just("{\"type\":\"start\"}", "[DONE]"));

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.TEXT_EVENT_STREAM);
        assertThat(response.getHeaders().getFirst("x-vercel-ai-ui-message-stream")).isEqualTo("v1");
        assertThat(response.getHeaders().getFirst("X-Accel-Buffering")).isEqualTo("no");
        List<ServerSentEvent<String>> events = response.getBody().collectList().block(Duration.ofSeconds(5));
        assertThat(events).extracting(ServerSentEvent::data).containsExactly("{\"type\":\"start\"}", "[DONE]");
        assertThat(events).extracting(ServerSentEvent::event).containsOnlyNulls();
    }

    @Test
    void aBodyThatIsNotAUseChatRequestIsA400NamingThePlace() {
        assertThatThrownBy(() -> UiMessageStreams.read("{\"id\":\"c\",\"messages\":[{\"role\":\"user\"}]}",
                ServerTurns.inMemory(1)))
                .isInstanceOfSatisfying(ResponseStatusException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
                    assertThat(e.getReason()).contains("messages[0].parts");
                });
    }
}
