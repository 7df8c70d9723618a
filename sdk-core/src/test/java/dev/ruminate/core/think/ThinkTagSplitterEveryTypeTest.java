package dev.ruminate.core.think;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.testing.EveryEventType;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The think-tag splitter takes every event type the sealed hierarchy permits, a type added later included. */
class ThinkTagSplitterEveryTypeTest {

    static List<ChatEvent> events() {
        return EveryEventType.oneOfEach();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void eachTypeComesOutOfTheSplitter(ChatEvent event) {
        ThinkTagSplitter splitter = new ThinkTagSplitter(ThinkTagOptions.DEFAULT);

        assertThatCode(() -> splitter.onEvent(event)).doesNotThrowAnyException();
    }
}
