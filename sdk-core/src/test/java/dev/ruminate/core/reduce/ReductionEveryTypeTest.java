package dev.ruminate.core.reduce;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.testing.EveryEventType;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The reducer folds every event type the sealed hierarchy permits, a type added later included. */
class ReductionEveryTypeTest {

    static List<ChatEvent> events() {
        return EveryEventType.oneOfEach();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void eachTypeIsFolded(ChatEvent event) {
        Reduction reduction = ChatReducer.defaults().start();

        assertThatCode(() -> reduction.accept(event)).doesNotThrowAnyException();
    }
}
