package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.testkit.EveryEventType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The live renderer handles every event type the sealed hierarchy permits, a type added later
 * included: it shows it or skips it on purpose, never by falling through.
 */
class LiveRendererEveryTypeTest {

    static List<ChatEvent> events() {
        return EveryEventType.oneOfEach();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void eachTypeIsHandled(ChatEvent event) {
        LiveRenderer renderer = new LiveRenderer(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                Style.plain());

        assertThatCode(() -> renderer.onEvent(event)).doesNotThrowAnyException();
    }
}
