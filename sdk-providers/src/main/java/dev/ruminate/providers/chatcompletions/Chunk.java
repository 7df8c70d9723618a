package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.message.Usage;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one chunk (or one non-streaming body) says, as parsed, before it becomes events. One
 * instance is reused for every chunk of a response; the parser fills it and the assembler reads it.
 * Keeping the two apart lets fields arrive in any order ({@code choices} before {@code id} and
 * {@code model}, as Snowflake and DashScope send them) while events still come out in a fixed order.
 */
final class Chunk {

    @Nullable String id;
    @Nullable String model;
    @Nullable String finishReason;
    boolean error;

    /** The reasoning text chosen from the profile's plain fields: the highest-priority one present. */
    int reasoningPriority = Integer.MAX_VALUE;
    @Nullable String reasoningText;
    @Nullable String reasoningSource;
    /**
     * The thought signature of the message (Gemini's OpenAI-compatible endpoint:
     * {@code extra_content.google.thought_signature}, or a plain {@code thought_signature}).
     */
    @Nullable String signature;

    final List<Detail> details = new ArrayList<>();
    final List<Segment> segments = new ArrayList<>();
    final List<ToolFragment> tools = new ArrayList<>();
    final UsageCounts usage = new UsageCounts();
    final UsageCounts groqUsage = new UsageCounts();

    /** Where the chunk's object starts in the parsed bytes, so that an error object can be read whole. */
    int from;
    /** Where the chunk's object ends in the parsed bytes, exclusive. */
    int to;

    /** Taken before each choice, so that a choice other than index 0 can be undone. */
    final Mark choiceStart = new Mark();
    /**
     * Taken before a choice's fallback field ({@code message} in a stream), so that the primary
     * field, coming after it, can undo it.
     */
    final Mark fallbackStart = new Mark();

    /**
     * Set by the parser when it reads a {@code usage} or {@code x_groq} object, so that
     * {@link #reset()} clears the counts only then: most chunks have none, and reset runs for
     * every chunk.
     */
    boolean usageRead;

    /** Empties the chunk for the next one; cheap when little was set (it runs once per chunk). */
    void reset() {
        id = null;
        model = null;
        finishReason = null;
        error = false;
        reasoningPriority = Integer.MAX_VALUE;
        reasoningText = null;
        reasoningSource = null;
        signature = null;
        if (!details.isEmpty()) {
            details.clear();
        }
        if (!segments.isEmpty()) {
            segments.clear();
        }
        if (!tools.isEmpty()) {
            tools.clear();
        }
        if (usageRead) {
            usage.reset();
            groqUsage.reset();
            usageRead = false;
        }
    }

    /** Offers a plain reasoning field's text; the field earliest in the profile's list wins. */
    void offerReasoning(int priority, String text, String source) {
        if (priority < reasoningPriority) {
            reasoningPriority = priority;
            reasoningText = text;
            reasoningSource = source;
        }
    }

    /** Offers the message's thought signature; the first non-empty one of a chunk is kept. */
    void offerSignature(@Nullable String value) {
        if (signature == null && value != null && !value.isEmpty()) {
            signature = value;
        }
    }

    /** Records in {@code mark} what the deltas have added so far. */
    void mark(Mark mark) {
        mark.priority = reasoningPriority;
        mark.text = reasoningText;
        mark.source = reasoningSource;
        mark.signature = signature;
        mark.details = details.size();
        mark.segments = segments.size();
        mark.tools = tools.size();
    }

    /** Undoes what the deltas added since {@code mark} was taken; the finish reason is left alone. */
    void rollback(Mark mark) {
        reasoningPriority = mark.priority;
        reasoningText = mark.text;
        reasoningSource = mark.source;
        signature = mark.signature;
        details.subList(mark.details, details.size()).clear();
        segments.subList(mark.segments, segments.size()).clear();
        tools.subList(mark.tools, tools.size()).clear();
    }

    /** A point in what the deltas of a chunk have added, to go back to. */
    static final class Mark {
        private int priority;
        private @Nullable String text;
        private @Nullable String source;
        private @Nullable String signature;
        private int details;
        private int segments;
        private int tools;
    }

    /**
     * One entry of OpenRouter-style {@code reasoning_details}.
     *
     * @param index the detail's {@code index}, which groups fragments of one reasoning block; -1 if absent
     */
    record Detail(@Nullable String type, @Nullable String text, @Nullable String summary, @Nullable String signature,
                  @Nullable String data, @Nullable String id, @Nullable String format, int index) {
    }

    /** A piece of {@code content}: answer text, or reasoning when an array item is a thinking chunk. */
    record Segment(boolean reasoning, String text, String source) {
    }

    /**
     * One element of {@code tool_calls}.
     *
     * @param index the call's {@code index}, -1 when the server omitted it
     * @param position the element's position in its array
     * @param signature the call's thought signature ({@code extra_content.google.thought_signature}), or null
     */
    record ToolFragment(int index, int position, @Nullable String id, @Nullable String name,
                        @Nullable String arguments, @Nullable String signature) {
    }

    /** Token counts of one {@code usage} object. */
    static final class UsageCounts {
        @Nullable Long input;
        @Nullable Long output;
        @Nullable Long reasoning;
        @Nullable Long cached;
        @Nullable Long cacheHit;
        @Nullable Long cachedTopLevel;
        @Nullable Long cacheWrite;

        void reset() {
            input = null;
            output = null;
            reasoning = null;
            cached = null;
            cacheHit = null;
            cachedTopLevel = null;
            cacheWrite = null;
        }

        boolean isEmpty() {
            return input == null && output == null && reasoning == null && cached == null && cacheHit == null
                    && cachedTopLevel == null && cacheWrite == null;
        }

        /**
         * Returns the usage; cached tokens come from {@code prompt_tokens_details.cached_tokens},
         * else DeepSeek's {@code prompt_cache_hit_tokens}, else a top-level {@code cached_tokens}
         * (Together, behind Hugging Face's router); cache writes from OpenRouter's
         * {@code prompt_tokens_details.cache_write_tokens}.
         */
        Usage toUsage() {
            Long cachedTokens = cached != null ? cached : cacheHit != null ? cacheHit : cachedTopLevel;
            return new Usage(input, output, reasoning, cachedTokens, cacheWrite);
        }
    }
}
