package dev.ruminate.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2015-10-21T07:28:00Z"), ZoneOffset.UTC);

    @Test
    void parsesDeltaSeconds() {
        assertThat(RetryAfter.parse("120", CLOCK)).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse(" 0 ", CLOCK)).isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.parse("1.5", CLOCK)).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void parsesHttpDates() {
        assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:28:30 GMT", CLOCK)).isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:00:00 GMT", CLOCK)).isEqualTo(Duration.ZERO);
    }

    @Test
    void ignoresGarbage() {
        assertThat(RetryAfter.parse("soon", CLOCK)).isNull();
        assertThat(RetryAfter.parse("-5", CLOCK)).isNull();
        assertThat(RetryAfter.parse("", CLOCK)).isNull();
    }

    @Test
    void prefersMillisecondHeader() {
        DefaultHttpHeaders headers = new DefaultHttpHeaders();
        headers.set("retry-after", "20");
        headers.set("retry-after-ms", "250");
        assertThat(RetryAfter.from(headers, CLOCK)).isEqualTo(Duration.ofMillis(250));
        headers.set("retry-after-ms", "n/a");
        assertThat(RetryAfter.from(headers, CLOCK)).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void readsGoDurationsOfOpenAiResetHeaders() {
        assertThat(RetryAfter.goDuration("6m0s")).isEqualTo(Duration.ofMinutes(6));
        assertThat(RetryAfter.goDuration("1h2m3.5s")).isEqualTo(Duration.ofMillis(3_723_500));
        assertThat(RetryAfter.goDuration("20ms")).isEqualTo(Duration.ofMillis(20));
        assertThat(RetryAfter.goDuration("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(RetryAfter.goDuration("soon")).isNull();
        assertThat(RetryAfter.goDuration("5x")).isNull();
        assertThat(RetryAfter.goDuration("")).isNull();
    }

    @Test
    void takesTheLongestResetOfOpenAiOrAnthropic() {
        DefaultHttpHeaders openai = new DefaultHttpHeaders();
        openai.set("x-ratelimit-reset-requests", "1s");
        openai.set("x-ratelimit-reset-tokens", "6m0s");
        assertThat(RetryAfter.fromResetHeaders(openai, CLOCK)).isEqualTo(Duration.ofMinutes(6));

        DefaultHttpHeaders anthropic = new DefaultHttpHeaders();
        anthropic.set("anthropic-ratelimit-requests-reset", "2015-10-21T07:28:10Z");
        anthropic.set("anthropic-ratelimit-tokens-reset", "2015-10-21T07:29:00Z");
        anthropic.set("anthropic-ratelimit-output-tokens-reset", "not a time");
        assertThat(RetryAfter.fromResetHeaders(anthropic, CLOCK)).isEqualTo(Duration.ofSeconds(60));

        assertThat(RetryAfter.fromResetHeaders(new DefaultHttpHeaders(), CLOCK)).isNull();
    }
}
