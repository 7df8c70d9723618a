package dev.ruminate.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiKeyTest {

    @Test
    void neverShowsItsValue() {
        ApiKey key = ApiKey.of("sk-live-abcdef");
        assertThat(key.toString()).doesNotContain("sk-live").isEqualTo("ApiKey[redacted]");
        assertThat(String.valueOf(key)).doesNotContain("abcdef");
        assertThat(key.reveal()).isEqualTo("sk-live-abcdef");
    }

    @Test
    void rejectsBlankValuesAndLineBreaksWithoutEchoingThem() {
        assertThatThrownBy(() -> ApiKey.of(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ApiKey.of("sk-1\r\nX-Evil: 1"))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("sk-1"));
    }

    @Test
    void readsTheEnvironmentStrippingWhitespace() {
        Map<String, String> env = Map.of("ACME_KEY", "  sk-env-1\n", "EMPTY", " ");
        assertThat(ApiKey.fromEnv("ACME_KEY", env::get).reveal()).isEqualTo("sk-env-1");
        assertThatThrownBy(() -> ApiKey.fromEnv("MISSING", env::get))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("MISSING");
        assertThatThrownBy(() -> ApiKey.fromEnv("EMPTY", env::get)).isInstanceOf(IllegalStateException.class);
    }
}
