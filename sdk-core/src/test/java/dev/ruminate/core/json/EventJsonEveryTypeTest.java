package dev.ruminate.core.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.testing.EveryEventType;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wire JSON handles every event type the sealed hierarchy permits, a type added later
 * included: each is written under a type of its own and reads back as itself.
 */
class EventJsonEveryTypeTest {

    static List<ChatEvent> events() {
        return EveryEventType.oneOfEach();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void eachTypeIsWrittenAsItselfAndReadsBack(ChatEvent event) {
        assertThat(EventJson.read(EventJson.write(event))).isEqualTo(event);
    }

    @Test
    void noTwoTypesShareAWireName() {
        List<String> names = events().stream().map(EventJson::type).collect(Collectors.toList());

        assertThat(names).doesNotHaveDuplicates().hasSize(EveryEventType.concrete(ChatEvent.class).size());
    }
}
