package dev.ruminate.core.request;

import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One chat turn to send: the conversation so far, tools, reasoning and sampling options, and
 * provider-specific extras.
 *
 * <p>Immutable; build one with {@link #builder(String)} and derive variants with
 * {@link #toBuilder()}.
 *
 * @param model the model name as the provider knows it
 * @param messages the conversation, oldest first; earlier {@code AssistantMessage}s carry their
 *     reasoning, which each provider's history rules send back or drop
 * @param tools the tools the model may call
 * @param reasoning reasoning options
 * @param sampling sampling options
 * @param extras provider-specific top-level JSON fields merged into the request body as given
 *     (values: strings, numbers, booleans, null, lists and maps of these); they win over fields
 *     the encoder writes
 * @param output the schema the answer must match (structured output), or null for free text
 *     (since 0.3)
 * @param caching prompt-caching breakpoints, {@link PromptCaching#NONE} for none (since 0.3)
 * @since 0.1
 */
public record ChatRequest(String model, List<Message> messages, List<ToolDefinition> tools,
                          ReasoningOptions reasoning, SamplingOptions sampling, Map<String, @Nullable Object> extras,
                          @Nullable OutputSchema output, PromptCaching caching) {

    /**
     * Creates the value, checking its components.
     *
     * @param model see {@link #model()}
     * @param messages see {@link #messages()}
     * @param tools see {@link #tools()}
     * @param reasoning see {@link #reasoning()}
     * @param sampling see {@link #sampling()}
     * @param extras see {@link #extras()}
     * @param output see {@link #output()}
     * @param caching see {@link #caching()}
     * @throws IllegalArgumentException if there is no message, an extra is not JSON-like, a tool has
     *     the output schema's name, or a cache breakpoint names a message the request does not have
     */
    public ChatRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(reasoning, "reasoning");
        Objects.requireNonNull(sampling, "sampling");
        extras = freezeMap(extras, "extras");
        Objects.requireNonNull(caching, "caching");
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a chat request needs at least one message");
        }
        if (output != null) {
            for (ToolDefinition tool : tools) {
                if (tool.name().equals(output.name())) {
                    throw new IllegalArgumentException("the output schema's name " + output.name()
                            + " is also a tool's: a provider carrying the schema as a tool could not tell them apart");
                }
            }
        }
        for (int i : caching.messages()) {
            if (i >= messages.size()) {
                throw new IllegalArgumentException("a cache breakpoint names message " + i + " of a request with "
                        + messages.size());
            }
        }
    }

    /**
     * Creates a request without output schema or caching (the constructor of 0.1 and 0.2).
     *
     * @param model see {@link #model()}
     * @param messages see {@link #messages()}
     * @param tools see {@link #tools()}
     * @param reasoning see {@link #reasoning()}
     * @param sampling see {@link #sampling()}
     * @param extras see {@link #extras()}
     */
    public ChatRequest(String model, List<Message> messages, List<ToolDefinition> tools, ReasoningOptions reasoning,
                       SamplingOptions sampling, Map<String, @Nullable Object> extras) {
        this(model, messages, tools, reasoning, sampling, extras, null, PromptCaching.NONE);
    }

    /**
     * Returns this request with other messages, everything else the same. Cache breakpoints set on
     * message indexes are kept as they are; a caller that removes or moves messages maps them with
     * {@link #withCaching}.
     *
     * @param other the messages, oldest first
     * @return the request
     * @throws IllegalArgumentException if there is no message, or a cache breakpoint falls outside them
     */
    public ChatRequest withMessages(List<? extends Message> other) {
        return new ChatRequest(model, List.copyOf(other), tools, reasoning, sampling, extras, output, caching);
    }

    /**
     * Returns this request with other caching breakpoints, everything else the same.
     *
     * @param other the breakpoints
     * @return the request
     */
    public ChatRequest withCaching(PromptCaching other) {
        return new ChatRequest(model, messages, tools, reasoning, sampling, extras, output, other);
    }

    /** Deep-copies an extras map into unmodifiable collections, checking that every value is JSON-like. */
    private static Map<String, @Nullable Object> freezeMap(Map<?, ?> map, String path) {
        Map<String, @Nullable Object> copy = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getKey() instanceof String key)) {
                throw new IllegalArgumentException(path + " has a key that is not a string: " + e.getKey());
            }
            copy.put(key, freeze(e.getValue(), path + "." + key));
        }
        return Collections.unmodifiableMap(copy);
    }

    private static @Nullable Object freeze(@Nullable Object value, String path) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            return freezeMap(map, path);
        }
        if (value instanceof List<?> list) {
            List<@Nullable Object> copy = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                copy.add(freeze(list.get(i), path + "[" + i + "]"));
            }
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalArgumentException(path + " is a " + value.getClass().getName()
                + "; extras take strings, numbers, booleans, null, and lists and maps of these");
    }

    /**
     * Starts a request for a model.
     *
     * @param model the model name
     * @return a builder
     */
    public static Builder builder(String model) {
        return new Builder(model);
    }

    /**
     * Returns a builder holding this request's values.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder(model);
        b.messages.addAll(messages);
        b.tools.addAll(tools);
        b.reasoning = reasoning;
        b.sampling = sampling;
        b.extras.putAll(extras);
        b.output = output;
        b.caching = caching;
        return b;
    }

    /**
     * Builds a {@link ChatRequest}. Not thread-safe; each {@link #build()} returns an independent
     * immutable request.
     *
     * @since 0.1
     */
    public static final class Builder {
        private String model;
        private final List<Message> messages = new ArrayList<>();
        private final List<ToolDefinition> tools = new ArrayList<>();
        private ReasoningOptions reasoning = ReasoningOptions.DEFAULT;
        private SamplingOptions sampling = SamplingOptions.DEFAULT;
        private final Map<String, @Nullable Object> extras = new LinkedHashMap<>();
        private @Nullable OutputSchema output;
        private PromptCaching caching = PromptCaching.NONE;

        private Builder(String model) {
            this.model = Objects.requireNonNull(model, "model");
        }

        /**
         * Sets the model.
         *
         * @param model the model name
         * @return this builder
         */
        public Builder model(String model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /**
         * Appends a message.
         *
         * @param message the message
         * @return this builder
         */
        public Builder message(Message message) {
            messages.add(Objects.requireNonNull(message, "message"));
            return this;
        }

        /**
         * Appends messages.
         *
         * @param more the messages, oldest first
         * @return this builder
         */
        public Builder messages(List<? extends Message> more) {
            more.forEach(this::message);
            return this;
        }

        /**
         * Appends a system message.
         *
         * @param text the instructions
         * @return this builder
         */
        public Builder system(String text) {
            return message(Message.system(text));
        }

        /**
         * Appends a user message.
         *
         * @param text what the user says
         * @return this builder
         */
        public Builder user(String text) {
            return message(Message.user(text));
        }

        /**
         * Appends a user message with images or documents, which go before the text.
         *
         * @param text what the user says, possibly empty
         * @param media the images and documents
         * @return this builder
         * @since 0.3
         */
        public Builder user(String text, Media... media) {
            return message(Message.user(text, media));
        }

        /**
         * Removes every message appended so far: how a copy made with {@link ChatRequest#toBuilder()}
         * gets another conversation.
         *
         * @return this builder
         * @since 0.3
         */
        public Builder clearMessages() {
            messages.clear();
            return this;
        }

        /**
         * Asks for the answer as JSON matching a schema (structured output).
         *
         * @param schema the schema, or null for free text
         * @return this builder
         * @since 0.3
         */
        public Builder output(@Nullable OutputSchema schema) {
            this.output = schema;
            return this;
        }

        /**
         * Sets prompt-caching breakpoints.
         *
         * @param breakpoints the breakpoints, {@link PromptCaching#NONE} for none
         * @return this builder
         * @since 0.3
         */
        public Builder caching(PromptCaching breakpoints) {
            this.caching = Objects.requireNonNull(breakpoints, "breakpoints");
            return this;
        }

        /**
         * Adds a tool.
         *
         * @param tool the tool
         * @return this builder
         */
        public Builder tool(ToolDefinition tool) {
            tools.add(Objects.requireNonNull(tool, "tool"));
            return this;
        }

        /**
         * Sets the reasoning options.
         *
         * @param options the options
         * @return this builder
         */
        public Builder reasoning(ReasoningOptions options) {
            this.reasoning = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Sets the sampling options.
         *
         * @param options the options
         * @return this builder
         */
        public Builder sampling(SamplingOptions options) {
            this.sampling = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Sets a provider-specific top-level field of the request body.
         *
         * @param name the JSON field name
         * @param value a string, number, boolean, null, or a list or map of these
         * @return this builder
         */
        public Builder extra(String name, @Nullable Object value) {
            extras.put(Objects.requireNonNull(name, "name"), value);
            return this;
        }

        /**
         * Builds the request.
         *
         * @return the immutable request
         * @throws IllegalArgumentException if there is no message, an extra is not JSON-like, a tool
         *     has the output schema's name, or a cache breakpoint names a missing message
         */
        public ChatRequest build() {
            return new ChatRequest(model, messages, tools, reasoning, sampling, extras, output, caching);
        }
    }
}
