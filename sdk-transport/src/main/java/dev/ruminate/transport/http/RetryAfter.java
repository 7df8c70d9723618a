package dev.ruminate.transport.http;

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

    /** The rate-limit reset headers: OpenAI and the compatible servers (a duration), Anthropic (a time). */
    private static final String[] DURATION_RESETS = {"x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"};
    private static final String[] TIME_RESETS = {"anthropic-ratelimit-requests-reset", "anthropic-ratelimit-tokens-reset",
        "anthropic-ratelimit-input-tokens-reset", "anthropic-ratelimit-output-tokens-reset"};

    /**
     * Reads the providers' rate-limit reset headers, for a 429 without {@code Retry-After}: the
     * longest of the resets given, since the request needs every exhausted limit back. OpenAI's
     * form is a duration such as {@code 6m0s} or {@code 20ms}; Anthropic's an RFC 3339 time.
     *
     * @return the delay, or null when no reset header can be read
     */
    static @Nullable Duration fromResetHeaders(HttpHeaders headers, Clock clock) {
        Duration longest = null;
        for (String name : DURATION_RESETS) {
            String value = headers.get(name);
            Duration d = value == null ? null : goDuration(value.strip());
            longest = longer(longest, d);
        }
        for (String name : TIME_RESETS) {
            String value = headers.get(name);
            if (value == null) {
                continue;
            }
            try {
                Duration d = Duration.between(clock.instant(), java.time.OffsetDateTime.parse(value.strip()).toInstant());
                longest = longer(longest, d.isNegative() ? Duration.ZERO : d);
            } catch (DateTimeParseException e) {
                // an unreadable reset is no reset
            }
        }
        return longest;
    }

    private static @Nullable Duration longer(@Nullable Duration a, @Nullable Duration b) {
        if (a == null) {
            return b;
        }
        return b == null || a.compareTo(b) >= 0 ? a : b;
    }

    /** Parses a Go-style duration ({@code 1h2m3.5s}, {@code 20ms}, {@code 6m0s}); null when it is not one. */
    static @Nullable Duration goDuration(String s) {
        if (s.isEmpty() || s.length() > 32) {
            return null;
        }
        double nanos = 0;
        int i = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            Double number = decimal(s.substring(start, i));
            int unitStart = i;
            while (i < s.length() && Character.isLetter(s.charAt(i))) {
                i++;
            }
            if (number == null) {
                return null;
            }
            switch (s.substring(unitStart, i)) {
                case "h" -> nanos += number * 3.6e12;
                case "m" -> nanos += number * 6e10;
                case "s" -> nanos += number * 1e9;
                case "ms" -> nanos += number * 1e6;
                case "us", "µs" -> nanos += number * 1e3;
                case "ns" -> nanos += number;
                default -> {
                    return null;
                }
            }
        }
        return Duration.ofNanos(Math.round(nanos));
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
