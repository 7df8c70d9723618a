package dev.ruminate.providers.responses;

import dev.ruminate.providers.internal.JsonWriting;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * A Responses request's {@code tool_choice}: {@code auto}, {@code none}, {@code required}, or one
 * named function ({@code {"type":"function","name":…}}).
 *
 * <p>Ruminate's {@link dev.ruminate.core.request.ChatRequest} has no neutral tool choice, and each
 * API spells it differently, so this type gives the value for each wire, for a request's
 * {@code extras}: {@link #chatCompletionsValue()}, {@link #responsesValue()},
 * {@link #anthropicValue()}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param mode {@link #AUTO_MODE}, {@link #NONE_MODE}, {@link #REQUIRED_MODE} or {@link #FUNCTION_MODE}
 * @param function the function's name for {@link #FUNCTION_MODE}, else null
 * @since 0.2
 */
public record ToolChoice(String mode, @Nullable String function) {

    /** The model chooses (the default). */
    public static final String AUTO_MODE = "auto";
    /** The model calls no tool. */
    public static final String NONE_MODE = "none";
    /** The model calls at least one tool. */
    public static final String REQUIRED_MODE = "required";
    /** The model calls the named function. */
    public static final String FUNCTION_MODE = "function";

    /** {@code auto}. */
    public static final ToolChoice AUTO = new ToolChoice(AUTO_MODE, null);
    /** {@code none}. */
    public static final ToolChoice NONE = new ToolChoice(NONE_MODE, null);
    /** {@code required}. */
    public static final ToolChoice REQUIRED = new ToolChoice(REQUIRED_MODE, null);

    /**
     * Creates the value, checking its components.
     *
     * @param mode see {@link #mode()}
     * @param function see {@link #function()}
     * @throws IllegalArgumentException for an unknown mode, or a function name with another mode or
     *     none with {@link #FUNCTION_MODE}
     */
    public ToolChoice {
        Objects.requireNonNull(mode, "mode");
        switch (mode) {
            case AUTO_MODE, NONE_MODE, REQUIRED_MODE -> {
                if (function != null) {
                    throw new IllegalArgumentException("only the function mode names a function");
                }
            }
            case FUNCTION_MODE -> {
                if (function == null || function.isEmpty()) {
                    throw new IllegalArgumentException("the function mode needs a function name");
                }
            }
            default -> throw new IllegalArgumentException("unknown tool choice mode");
        }
    }

    /**
     * Returns the choice of one function.
     *
     * @param name the function's name
     * @return the choice
     */
    public static ToolChoice function(String name) {
        return new ToolChoice(FUNCTION_MODE, name);
    }

    /**
     * Returns the value for a Chat Completions request's {@code tool_choice}: the mode as a string,
     * or {@code {"type":"function","function":{"name":…}}}.
     *
     * @return a string or a map, for {@code ChatRequest.Builder#extra}
     */
    public Object chatCompletionsValue() {
        if (function == null) {
            return mode;
        }
        Map<String, Object> named = new LinkedHashMap<>();
        named.put("type", "function");
        named.put("function", Map.of("name", function));
        return named;
    }

    /**
     * Returns the value for a Responses request's {@code tool_choice}: the mode as a string, or
     * {@code {"type":"function","name":…}}.
     *
     * @return a string or a map, for {@code ChatRequest.Builder#extra}
     */
    public Object responsesValue() {
        if (function == null) {
            return mode;
        }
        Map<String, Object> named = new LinkedHashMap<>();
        named.put("type", "function");
        named.put("name", function);
        return named;
    }

    /**
     * Returns the value for an Anthropic Messages request's {@code tool_choice}: {@code {"type":"auto"}},
     * {@code {"type":"none"}}, {@code {"type":"any"}} for required, or {@code {"type":"tool","name":…}}.
     *
     * @return a map, for {@code ChatRequest.Builder#extra}
     */
    public Object anthropicValue() {
        Map<String, Object> value = new LinkedHashMap<>();
        switch (mode) {
            case REQUIRED_MODE -> value.put("type", "any");
            case FUNCTION_MODE -> {
                value.put("type", "tool");
                value.put("name", Objects.requireNonNull(function));
            }
            default -> value.put("type", mode);
        }
        return value;
    }

    /** Returns the choice as the response object echoes it: JSON text. */
    String echoJson() {
        if (function == null) {
            return "\"" + mode + "\"";
        }
        return functionJson(function);
    }

    private static String functionJson(String name) {
        StringWriter w = new StringWriter(48);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), w)) {
            g.writeStartObject();
            g.writeStringProperty("type", "function");
            g.writeStringProperty("name", name);
            g.writeEndObject();
        }
        return w.toString();
    }
}
