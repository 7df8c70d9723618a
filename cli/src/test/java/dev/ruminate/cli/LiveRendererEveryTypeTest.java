package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.testkit.EveryEventType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
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

    @Test
    void aWarningIsShownWithItsCodeAndMessage() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LiveRenderer renderer = new LiveRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8), Style.plain());

        renderer.onEvent(new Warning(Warning.OPAQUE_STATE_RECOVERED, "retried once without the signature of message 1, part 0",
                1, 0));

        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("warning opaque-state-recovered: retried once without the signature of message 1, part 0");
    }

    @Test
    void aStructuredOutputVerdictIsShownWithItsViolations() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LiveRenderer renderer = new LiveRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8), Style.plain());

        renderer.onEvent(new OutputChecked("weather", StructuredOutputMethod.TOOL_AUTO, false,
                List.of("$: required property 'temp' not found"), true));
        renderer.onEvent(new OutputChecked("weather", StructuredOutputMethod.TOOL_AUTO, true, List.of(), false));

        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("! output weather (tool_auto) invalid: $: required property 'temp' not found (asking once more)")
                .contains("✓ output weather (tool_auto) valid");
    }
}
