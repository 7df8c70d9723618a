package dev.ruminate.providers.responses;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The fields of one output item ({@code reasoning}, {@code message}, {@code function_call}, a
 * built-in tool call, …) that decoding needs, plus where the item lies in the bytes it was read
 * from, so a built-in tool's block can be kept exactly as sent.
 */
final class WireItem {

    @Nullable String type;
    @Nullable String id;
    @Nullable String callId;
    @Nullable String name;
    @Nullable WireText arguments;
    @Nullable WireText input;
    @Nullable String encryptedContent;
    /** The texts of {@code summary[]}, in order ({@code ""} for an entry without one). */
    final List<WireText> summary = new ArrayList<>(2);
    /** The {@code content[]} parts, in order. */
    final List<ContentPart> content = new ArrayList<>(2);
    /**
     * The array the item was read from, and where in it the item lies; its JSON is made only when
     * asked for. For a streamed event the array may be a lent frame's: valid only during the decode
     * call, so {@link #json()} is read there and the item not kept.
     */
    byte @Nullable [] source;
    int from;
    int to;

    /** Returns the item's exact JSON, as sent. */
    String json() {
        byte[] bytes = source;
        return bytes == null ? "{}" : new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }

    /**
     * One element of an item's {@code content}: {@code output_text}, {@code refusal} or
     * {@code reasoning_text}.
     *
     * @param type the part's type, or null
     * @param text its text ({@code text}, or {@code refusal} for a refusal), or null
     */
    record ContentPart(@Nullable String type, @Nullable WireText text) {
    }
}
