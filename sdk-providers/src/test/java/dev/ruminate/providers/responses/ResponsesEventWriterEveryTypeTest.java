package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.testkit.EveryEventType;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Responses encoder handles every event type the sealed hierarchy permits, a type added later
 * included: it writes it or leaves it out on purpose, never by falling through.
 */
class ResponsesEventWriterEveryTypeTest {

    static List<ChatEvent> events() {
        return EveryEventType.oneOfEach();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void eachTypeIsHandled(ChatEvent event) {
        ResponsesEventWriter writer = new ResponsesEventWriter(ResponsesStreamOptions.defaults());

        assertThatCode(() -> writer.onEvent(event)).doesNotThrowAnyException();
    }
}
