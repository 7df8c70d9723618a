package dev.ruminate.core.http;

import io.netty.handler.codec.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/**
 * Reads the delay a provider asks for before a retry.
 *
 * @see <a href="https://www.rfc-editor.org/rfc/rfc9110#field.retry-after">RFC 9110, Retry-After</a>
 */
final class RetryAfter {

    private RetryAfter() {
    }

    /**
     * Reads {@code retry-after-ms} (OpenAI's millisecond variant) if present and valid, else
     * {@code Retry-After}.
     */
    static @Nullable Duration from(HttpHeaders headers, Clock clock) {
        String millis = headers.get("retry-after-ms");
        if (millis != null) {
            Double ms = decimal(millis.strip());
            if (ms != null) {
                return Duration.ofNanos(Math.round(ms * 1_000_000d));
            }
        }
        String value = headers.get("retry-after");
        return value == null ? null : parse(value, clock);
    }

    /**
     * Parses delta-seconds (decimals tolerated) or an IMF-fixdate; a date in the past yields zero.
     *
     * @return the delay, or null when the value is neither form
     */
    static @Nullable Duration parse(String value, Clock clock) {
        String s = value.strip();
        if (s.isEmpty()) {
            return null;
        }
        Double seconds = decimal(s);
        if (seconds != null) {
            return Duration.ofMillis(Math.round(seconds * 1000d));
        }
        try {
            ZonedDateTime at = ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration delay = Duration.between(clock.instant(), at.toInstant());
            return delay.isNegative() ? Duration.ZERO : delay;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Parses a non-negative decimal made of digits and at most one dot; null for anything else. */
    private static @Nullable Double decimal(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return null;
        }
        boolean dot = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '.' && !dot && i > 0) {
                dot = true;
            } else if (c < '0' || c > '9') {
                return null;
            }
        }
        return Double.parseDouble(s);
    }
}
