package dev.ruminate.core.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChatRequestTest {

    @Test
    void extrasAreDeepCopiedSoLaterChangesDoNotLeakIn() {
        List<Object> stops = new ArrayList<>(List.of("a"));
        Map<String, Object> nested = new HashMap<>(Map.of("stop", stops));
        ChatRequest request = ChatRequest.builder("m").user("hi").extra("options", nested).build();

        stops.add("b");
        nested.put("later", true);

        assertThat(request.extras().get("options")).isEqualTo(Map.of("stop", List.of("a")));
        assertThatThrownBy(() -> ((Map<?, ?>) request.extras().get("options")).clear())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void extrasKeepNullsAndJsonScalars() {
        List<Object> withNull = new ArrayList<>();
        withNull.add(null);
        withNull.add(1.5);
        ChatRequest request = ChatRequest.builder("m").user("hi").extra("a", null).extra("b", withNull).build();
        assertThat(request.extras()).containsEntry("a", null);
        assertThat(request.extras().get("b")).isEqualTo(withNullCopy());
    }

    private static List<Object> withNullCopy() {
        List<Object> expected = new ArrayList<>();
        expected.add(null);
        expected.add(1.5);
        return expected;
    }

    @Test
    void aValueThatIsNotJsonLikeIsRejectedWithItsPath() {
        assertThatThrownBy(() -> ChatRequest.builder("m").user("hi")
                .extra("thinking", Map.of("budget", new Object())).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("extras.thinking.budget is a java.lang.Object");
    }

    @Test
    void aRequestNeedsAMessage() {
        assertThatThrownBy(() -> ChatRequest.builder("m").build()).isInstanceOf(IllegalArgumentException.class);
    }
}
