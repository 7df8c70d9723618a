package dev.ruminate.cli;

import dev.ruminate.core.loop.Tool;
import dev.ruminate.core.loop.ToolCall;
import dev.ruminate.core.request.ToolDefinition;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The two tools of {@code ruminate loop} and the demo's loop: {@code clock} (the current time in UTC,
 * and in an IANA zone when asked) and {@code calculator} ({@link Calculator}). Their handlers compute
 * on the calling thread without blocking; a bad argument fails the call with a message for the model.
 * Thread-safe.
 */
final class BuiltinTools {

    static final ToolDefinition CLOCK = new ToolDefinition("clock",
            "Returns the current date and time in UTC, and in the given IANA time zone if one is given.",
            "{\"type\":\"object\",\"properties\":{\"timezone\":{\"type\":\"string\","
                    + "\"description\":\"IANA time zone name, e.g. Europe/Paris\"}}}");

    static final ToolDefinition CALCULATOR = new ToolDefinition("calculator",
            "Evaluates an arithmetic expression exactly (34 significant digits): numbers, + - * / ^ and parentheses.",
            "{\"type\":\"object\",\"properties\":{\"expression\":{\"type\":\"string\","
                    + "\"description\":\"e.g. (17.5 + 2.5) * 3 ^ 2\"}},\"required\":[\"expression\"]}");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private BuiltinTools() {
    }

    /**
     * Returns both tools.
     *
     * @param clock the time source of the {@code clock} tool (fixed in the demo and tests)
     */
    static List<Tool> all(Clock clock) {
        return List.of(Tool.of(CLOCK, call -> Mono.fromCallable(() -> clock(clock, call))),
                Tool.of(CALCULATOR, call -> Mono.fromCallable(() -> calculator(call))));
    }

    static String clock(Clock clock, ToolCall call) {
        JsonNode zoneArg = arguments(call).get("timezone");
        ZonedDateTime now = ZonedDateTime.now(clock).truncatedTo(ChronoUnit.SECONDS);
        ObjectNode result = JSON.createObjectNode();
        result.put("utc", DateTimeFormatter.ISO_INSTANT.format(now.withZoneSameInstant(ZoneOffset.UTC)));
        if (zoneArg != null && !zoneArg.isNull()) {
            if (!zoneArg.isString()) {
                throw new IllegalArgumentException("timezone must be a string such as \"Europe/Paris\"");
            }
            ZoneId zone = zone(zoneArg.asString());
            ZonedDateTime local = now.withZoneSameInstant(zone);
            result.put("timezone", zone.getId());
            result.put("local", DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(local));
            result.put("day_of_week", local.getDayOfWeek().toString());
        }
        return JSON.writeValueAsString(result);
    }

    static String calculator(ToolCall call) {
        JsonNode expression = arguments(call).get("expression");
        if (expression == null || !expression.isString()) {
            throw new IllegalArgumentException("expression is required, as a string such as \"2 * (3 + 4)\"");
        }
        ObjectNode result = JSON.createObjectNode();
        result.put("expression", expression.asString());
        result.put("value", Calculator.format(Calculator.evaluate(expression.asString())));
        return JSON.writeValueAsString(result);
    }

    private static ZoneId zone(String id) {
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone \"" + id + "\": use an IANA name such as Europe/Paris or UTC");
        }
    }

    /** The loop hands over only complete JSON values; one that is not an object is the model's mistake. */
    private static JsonNode arguments(ToolCall call) {
        @Nullable JsonNode node;
        try {
            node = JSON.readTree(call.arguments());
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the arguments are not JSON");
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("the arguments must be a JSON object");
        }
        return node;
    }
}
