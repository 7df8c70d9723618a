package dev.ruminate.providers.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.providers.chatcompletions.CompatProfile;
import dev.ruminate.providers.responses.ResponsesProfile;
import org.junit.jupiter.api.Test;

/** Both server profiles refuse a bad endpoint the same way, naming the component. */
class ProfileChecksTest {

    @Test
    void refusesAPathWithoutItsLeadingSlashNamingTheProfilesComponent() {
        assertThatThrownBy(() -> CompatProfile.builder("x").chatPath("chat/completions").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("chatPath must start with '/', was chat/completions");
        assertThatThrownBy(() -> ResponsesProfile.builder("x").path("responses").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("path must start with '/', was responses");
    }

    @Test
    void refusesBlankNamesAndHeadersAndAMalformedBaseUrl() {
        assertThatThrownBy(() -> ResponsesProfile.builder(" ").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("name must not be blank");
        assertThatThrownBy(() -> CompatProfile.builder("x").auth("", "").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("authHeader must not be blank");
        assertThatThrownBy(() -> ResponsesProfile.builder("x").baseUrl("ftp://example.com").build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProfileChecks.requireEndpoint("x", null, "path", "/p", "Authorization", null))
                .isInstanceOf(NullPointerException.class).hasMessage("authPrefix");
    }

    @Test
    void acceptsAnEmptyPrefixAndNoBaseUrl() {
        assertThatCode(() -> ProfileChecks.requireEndpoint("x", null, "path", "/p", "api-key", ""))
                .doesNotThrowAnyException();
        assertThatCode(() -> CompatProfile.builder("x").baseUrl("https://example.com/v1").auth("api-key", "").build())
                .doesNotThrowAnyException();
    }
}
