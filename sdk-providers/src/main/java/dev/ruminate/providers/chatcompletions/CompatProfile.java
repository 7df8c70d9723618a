package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.ProfileBuilder;
import dev.ruminate.providers.internal.ProfileChecks;
import dev.ruminate.transport.http.BaseUrl;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Everything that makes one Chat Completions server different from another: where it is, how it
 * authenticates, where it puts reasoning, how reasoning is requested and how it goes back.
 *
 * <p>Each value is small enough to write by hand; {@link Profiles} holds the known servers, and
 * {@code Profiles.OPENAI_COMPATIBLE.toBuilder()} is the start for a new one.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the profile name; it is the {@code provider} of every
 *     {@link dev.ruminate.core.event.ResponseStarted} and decides which history is "own" reasoning
 * @param baseUrl the API root, e.g. {@code https://api.deepseek.com}; null for self-hosted servers,
 *     which then need one at call time
 * @param chatPath the path appended to the base URL, {@code /chat/completions}
 * @param authHeader the header carrying the key, {@code Authorization} (or {@code api-key} for Azure)
 * @param authPrefix what precedes the key in that header, {@code "Bearer "} (or {@code ""})
 * @param reasoningFields the message/delta fields read as reasoning text, in priority order; per
 *     chunk only the first present, non-empty one is taken, so two fields carrying the same text
 *     are never doubled (an unmodifiable copy is kept)
 * @param readsReasoningDetails true to read OpenRouter-style {@code reasoning_details}, which then
 *     win over the plain fields
 * @param thinkTags how reasoning appears as tags in the content, or null when it never does
 * @param reasoningStyle how {@link dev.ruminate.core.request.ReasoningOptions} are written
 * @param streamUsage true to send {@code stream_options: {"include_usage": true}} when streaming
 * @param maxTokensField the field for the output limit: {@code max_completion_tokens} (OpenAI) or
 *     {@code max_tokens}
 * @param sendBack how earlier reasoning goes back, decided per model
 * @since 0.1
 */
public record CompatProfile(String name, @Nullable String baseUrl, String chatPath, String authHeader,
                            String authPrefix, List<String> reasoningFields, boolean readsReasoningDetails,
                            @Nullable ThinkTagOptions thinkTags, ReasoningRequestStyle reasoningStyle,
                            boolean streamUsage, String maxTokensField, SendBackRule sendBack) {

    /**
     * Validates and copies the components.
     *
     * @param name see {@link #name()}
     * @param baseUrl see {@link #baseUrl()}
     * @param chatPath see {@link #chatPath()}
     * @param authHeader see {@link #authHeader()}
     * @param authPrefix see {@link #authPrefix()}
     * @param reasoningFields see {@link #reasoningFields()}
     * @param readsReasoningDetails see {@link #readsReasoningDetails()}
     * @param thinkTags see {@link #thinkTags()}
     * @param reasoningStyle see {@link #reasoningStyle()}
     * @param streamUsage see {@link #streamUsage()}
     * @param maxTokensField see {@link #maxTokensField()}
     * @param sendBack see {@link #sendBack()}
     * @throws IllegalArgumentException naming the offending value when a name is blank, the base URL
     *     is not an absolute http(s) URL, the path does not start with {@code /}, or a reasoning
     *     field is blank or repeated
     */
    public CompatProfile {
        ProfileChecks.requireEndpoint(name, baseUrl, "chatPath", chatPath, authHeader, authPrefix);
        reasoningFields = List.copyOf(reasoningFields);
        HashSet<String> seen = new HashSet<>();
        for (String field : reasoningFields) {
            ProfileChecks.requireText(field, "reasoning field");
            if (!seen.add(field)) {
                throw new IllegalArgumentException("reasoning field listed twice: " + field);
            }
        }
        Objects.requireNonNull(reasoningStyle, "reasoningStyle");
        ProfileChecks.requireText(maxTokensField, "maxTokensField");
        Objects.requireNonNull(sendBack, "sendBack");
    }

    /**
     * Starts a profile with the defaults of a plain OpenAI-compatible server: no base URL,
     * {@code /chat/completions}, {@code Authorization: Bearer}, reasoning read from
     * {@code reasoning_content}, {@code reasoning}, {@code reasoning_text}, no details, no tags, no
     * reasoning request fields, no {@code stream_options}, {@code max_tokens}, reasoning never sent back.
     *
     * @param name the profile name
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Returns a builder holding this profile's values, to derive a variant.
     *
     * @return a builder
     */
    public Builder toBuilder() {
        Builder b = new Builder(name);
        b.baseUrl(baseUrl);
        b.chatPath = chatPath;
        b.auth(authHeader, authPrefix);
        b.reasoningFields = new ArrayList<>(reasoningFields);
        b.readsReasoningDetails = readsReasoningDetails;
        b.thinkTags = thinkTags;
        b.reasoningStyle = reasoningStyle;
        b.streamUsage = streamUsage;
        b.maxTokensField = maxTokensField;
        b.sendBack = sendBack;
        return b;
    }

    /**
     * Returns the chat endpoint: the base URL (the override if given, else the profile's) with
     * trailing slashes removed from its path, followed by {@link #chatPath()}; a query on the base
     * URL (Azure's {@code ?api-version=…}) is kept after the chat path.
     *
     * @param baseUrlOverride a base URL to use instead of the profile's, or null
     * @return the endpoint
     * @throws IllegalStateException if neither base URL is set
     * @throws IllegalArgumentException if the override is not an absolute http(s) URL
     */
    public URI chatUri(@Nullable String baseUrlOverride) {
        return BaseUrl.of(baseUrlOverride, baseUrl, "profile " + name).resolve(chatPath);
    }

    /**
     * Returns how earlier reasoning goes back in a request for a model.
     *
     * @param model the model of the request
     * @return the rule
     */
    public ReasoningSendBack sendBackFor(String model) {
        return Objects.requireNonNull(sendBack.forModel(model), "send-back rule returned null");
    }

    /**
     * Builds a {@link CompatProfile}. Not thread-safe; every {@link #build()} returns an independent
     * immutable profile.
     *
     * @since 0.1
     */
    public static final class Builder extends ProfileBuilder<Builder> {
        private String chatPath = "/chat/completions";
        private List<String> reasoningFields = new ArrayList<>(List.of("reasoning_content", "reasoning", "reasoning_text"));
        private boolean readsReasoningDetails;
        private @Nullable ThinkTagOptions thinkTags;
        private ReasoningRequestStyle reasoningStyle = ReasoningRequestStyle.NONE;
        private boolean streamUsage;
        private String maxTokensField = "max_tokens";
        private SendBackRule sendBack = SendBackRule.always(ReasoningSendBack.DROP);

        private Builder(String name) {
            super(name);
        }

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * Sets the chat path.
         *
         * @param chatPath the path, starting with {@code /}
         * @return this builder
         */
        public Builder chatPath(String chatPath) {
            this.chatPath = Objects.requireNonNull(chatPath, "chatPath");
            return this;
        }

        /**
         * Sets the reasoning fields, in priority order.
         *
         * @param fields the field names
         * @return this builder
         */
        public Builder reasoningFields(List<String> fields) {
            this.reasoningFields = new ArrayList<>(fields);
            return this;
        }

        /**
         * Sets whether {@code reasoning_details} are read.
         *
         * @param reads true to read them
         * @return this builder
         */
        public Builder readsReasoningDetails(boolean reads) {
            this.readsReasoningDetails = reads;
            return this;
        }

        /**
         * Sets the think-tag mode.
         *
         * @param mode the tags, or null when the content never holds tagged reasoning
         * @return this builder
         */
        public Builder thinkTags(@Nullable ThinkTagOptions mode) {
            this.thinkTags = mode;
            return this;
        }

        /**
         * Sets how reasoning is requested.
         *
         * @param style the style
         * @return this builder
         */
        public Builder reasoningStyle(ReasoningRequestStyle style) {
            this.reasoningStyle = Objects.requireNonNull(style, "style");
            return this;
        }

        /**
         * Sets whether {@code stream_options: {"include_usage": true}} is sent when streaming.
         *
         * @param include true to ask for a usage chunk
         * @return this builder
         */
        public Builder streamUsage(boolean include) {
            this.streamUsage = include;
            return this;
        }

        /**
         * Sets the field for the output token limit.
         *
         * @param field {@code max_tokens} or {@code max_completion_tokens}
         * @return this builder
         */
        public Builder maxTokensField(String field) {
            this.maxTokensField = Objects.requireNonNull(field, "field");
            return this;
        }

        /**
         * Sets one send-back rule for every model.
         *
         * @param sendBack the rule
         * @return this builder
         */
        public Builder sendBack(ReasoningSendBack sendBack) {
            this.sendBack = SendBackRule.always(sendBack);
            return this;
        }

        /**
         * Sets a send-back rule decided per model.
         *
         * @param rule the rule
         * @return this builder
         */
        public Builder sendBackRule(SendBackRule rule) {
            this.sendBack = Objects.requireNonNull(rule, "rule");
            return this;
        }

        /**
         * Builds the profile.
         *
         * @return the immutable profile
         * @throws IllegalArgumentException as {@link CompatProfile#CompatProfile} documents
         */
        public CompatProfile build() {
            return new CompatProfile(name(), baseUrl(), chatPath, authHeader(), authPrefix(), reasoningFields,
                    readsReasoningDetails, thinkTags, reasoningStyle, streamUsage, maxTokensField, sendBack);
        }
    }
}
