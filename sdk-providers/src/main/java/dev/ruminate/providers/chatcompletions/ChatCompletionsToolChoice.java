package dev.ruminate.providers.chatcompletions;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Chat Completions client's {@code tool_choice}: whether the model may, must or must not call a
 * tool, or which one it must call.
 *
 * <p>Ruminate's neutral {@link dev.ruminate.core.request.ChatRequest} has no tool choice, so
 * {@link ChatCompletionsCall#toChatRequest} can honour only {@link Mode#NONE} (by not offering the
 * tools); a gateway that fronts a Chat Completions server may pass the other modes on with
 * {@link #toChatCompletionsValue()} as an extra of the request.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param mode the mode
 * @param function the function the model must call, for {@link Mode#FUNCTION}; null otherwise
 * @since 0.2
 */
public record ChatCompletionsToolChoice(Mode mode, @Nullable String function) {

    /** The model decides, the default ({@code "auto"}). */
    public static final ChatCompletionsToolChoice AUTO = new ChatCompletionsToolChoice(Mode.AUTO, null);

    /** No tool may be called ({@code "none"}). */
    public static final ChatCompletionsToolChoice NONE = new ChatCompletionsToolChoice(Mode.NONE, null);

    /** Some tool must be called ({@code "required"}). */
    public static final ChatCompletionsToolChoice REQUIRED = new ChatCompletionsToolChoice(Mode.REQUIRED, null);

    /**
     * Creates the value, checking its components.
     *
     * @param mode see {@link #mode()}
     * @param function see {@link #function()}
     * @throws IllegalArgumentException when {@code function} is given for any mode but
     *     {@link Mode#FUNCTION}, or missing for it
     */
    public ChatCompletionsToolChoice {
        Objects.requireNonNull(mode, "mode");
        if ((mode == Mode.FUNCTION) != (function != null)) {
            throw new IllegalArgumentException("a function is named exactly when the mode is FUNCTION");
        }
    }

    /**
     * Names the function the model must call.
     *
     * @param name the function's name
     * @return the choice
     */
    public static ChatCompletionsToolChoice function(String name) {
        return new ChatCompletionsToolChoice(Mode.FUNCTION, Objects.requireNonNull(name, "name"));
    }

    /**
     * Returns the value as Chat Completions writes it, as a plain Java value that
     * {@link dev.ruminate.core.request.ChatRequest.Builder#extra} takes: {@code "auto"},
     * {@code "none"}, {@code "required"}, or {@code {"type":"function","function":{"name":…}}}.
     *
     * @return a string, or a map for {@link Mode#FUNCTION}
     */
    public Object toChatCompletionsValue() {
        return switch (mode) {
            case AUTO -> "auto";
            case NONE -> "none";
            case REQUIRED -> "required";
            case FUNCTION -> java.util.Map.of("type", "function", "function",
                    java.util.Map.of("name", Objects.requireNonNull(function)));
        };
    }

    /**
     * How the model may use the tools.
     *
     * @since 0.2
     */
    public enum Mode {
        /** The model decides. */
        AUTO,
        /** The model must not call a tool. */
        NONE,
        /** The model must call some tool. */
        REQUIRED,
        /** The model must call the named function. */
        FUNCTION
    }
}
