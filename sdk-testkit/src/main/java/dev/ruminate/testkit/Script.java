package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the scripts of all six wire formats share: the steps, played in the order they are added,
 * and how their texts are cut into deltas.
 *
 * <p>Each format's script ({@link ChatCompletionsScript}, {@link ResponsesScript},
 * {@link AnthropicScript}, {@link GeminiScript}, {@link OllamaScript}, {@link BedrockScript}) adds
 * the steps its API has and the settings that are its own, and writes them in its wire shape.
 *
 * <p><b>Cutting texts.</b> Reasoning and answer texts are streamed in pieces of
 * {@link #tokensOf(int)} characters, one delta each (a chunk, an event, a line or a frame,
 * whatever the format calls a delta). Characters are Unicode code points, so a surrogate pair is
 * never split and every delta is a well-formed string; the last piece of a text may be shorter.
 *
 * <p><b>Empty text</b> is one empty piece in every format: a text step never disappears from the
 * stream, it shows as one delta carrying {@code ""} (as DeepSeek's first reasoning chunk does).
 * Tool-call arguments are cut the same way, except that empty arguments add no fragment: the
 * call's own opening event already shows the call.
 *
 * <p>A script is a mutable builder: not thread-safe, but each {@code to…} method may be called any
 * number of times and renders the current steps.
 *
 * @param <S> the format's own script type, returned by the fluent methods
 * @since 0.1
 */
public abstract sealed class Script<S extends Script<S>>
        permits ChatCompletionsScript, ResponsesScript, AnthropicScript, GeminiScript, OllamaScript, BedrockScript {

    private static final int DEFAULT_TOKEN_SIZE = 4;

    private final List<Step> steps = new ArrayList<>();
    private int tokenSize = DEFAULT_TOKEN_SIZE;

    Script() {
    }

    /**
     * Sets how many characters each text delta and argument fragment holds.
     *
     * @param codePoints code points per delta, at least 1 (default 4)
     * @return this script
     * @throws IllegalArgumentException if {@code codePoints < 1}
     * @since 0.1
     */
    public S tokensOf(int codePoints) {
        if (codePoints < 1) {
            throw new IllegalArgumentException("a delta needs at least one code point, got " + codePoints);
        }
        this.tokenSize = codePoints;
        return self();
    }

    /**
     * Renders the streamed response: the body in the format's streaming wire shape, with its
     * content type and status 200.
     *
     * @return the response, chunked with {@link ChunkPlan#whole()}; refine it with {@link EmulatorResponse#chunked}
     * @throws IllegalStateException if the script cannot be rendered (each format says when)
     * @since 0.1
     */
    public abstract EmulatorResponse toResponse();

    abstract S self();

    S add(Step step) {
        steps.add(step);
        return self();
    }

    List<Step> steps() {
        return Collections.unmodifiableList(steps);
    }

    /** Cuts a reasoning or answer text into its deltas: at least one, {@code ""} for empty text. */
    List<String> pieces(String text) {
        return cut(text, tokenSize);
    }

    /** Cuts tool-call arguments into the fragments that follow the call's opening: none for empty arguments. */
    List<String> fragments(String arguments) {
        return arguments.isEmpty() ? List.of() : cut(arguments, tokenSize);
    }

    /**
     * The one text cutter of the testkit: pieces of {@code codePoints} code points, never splitting
     * a surrogate pair; an empty text is one empty piece.
     */
    static List<String> cut(String text, int codePoints) {
        if (text.isEmpty()) {
            return List.of("");
        }
        List<String> pieces = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            // Walks at most one piece's code points, so cutting a long text takes linear time.
            int end = start;
            for (int n = 0; n < codePoints && end < text.length(); n++) {
                end += Character.charCount(text.codePointAt(end));
            }
            pieces.add(text.substring(start, end));
            start = end;
        }
        return pieces;
    }
}
