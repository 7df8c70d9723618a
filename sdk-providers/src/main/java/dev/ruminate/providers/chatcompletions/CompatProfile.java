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
 * authenticates, where it puts reasoning, how reasoning is requested and how it goes back, and
 * (since 0.3) which structured-output forms, media and prompt-caching fields it takes.
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
 * @param jsonSchema the server constrains output to a JSON schema with
 *     {@code response_format: {"type": "json_schema", …}} (since 0.3)
 * @param jsonObject the server has a JSON mode, {@code response_format: {"type": "json_object"}} (since 0.3)
 * @param tools the server takes function tools, so structured output may use one (the request's own
 *     tools are sent as given either way) (since 0.3)
 * @param forcedToolChoice when the server accepts a {@code tool_choice} that forces one function (since 0.3)
 * @param images user messages may hold {@code image_url} parts (since 0.3)
 * @param imageUrls an {@code image_url} part may hold an {@code https:} URL, not only a
 *     {@code data:} URL (since 0.3)
 * @param pdfFiles user messages may hold PDF documents as {@code file} parts with {@code file_data} (since 0.3)
 * @param pdfUrls a {@code file} part's {@code file_data} may be an {@code https:} URL (since 0.3)
 * @param promptCache how the server caches prompts, and so what becomes of
 *     {@link dev.ruminate.core.request.PromptCaching} (since 0.3)
 * @param seedField the field that carries {@link dev.ruminate.core.request.SamplingOptions#seed()},
 *     or null when the server takes none (the seed is then left out with a warning) (since 0.3)
 * @since 0.1
 */
public record CompatProfile(String name, @Nullable String baseUrl, String chatPath, String authHeader,
                            String authPrefix, List<String> reasoningFields, boolean readsReasoningDetails,
                            @Nullable ThinkTagOptions thinkTags, ReasoningRequestStyle reasoningStyle,
                            boolean streamUsage, String maxTokensField, SendBackRule sendBack,
                            boolean jsonSchema, boolean jsonObject, boolean tools, ForcedToolChoice forcedToolChoice,
                            boolean images, boolean imageUrls, boolean pdfFiles, boolean pdfUrls,
                            PromptCacheStyle promptCache, @Nullable String seedField) {

    /**
     * When a server accepts {@code tool_choice: {"type": "function", "function": {"name": …}}}, the
     * form structured output through a tool uses when it can.
     *
     * @since 0.3
     */
    public enum ForcedToolChoice {
        /** Always. */
        ALWAYS,
        /**
         * Not while the model reasons (DeepSeek thinking mode, DashScope; PROTOCOLS.md §19). Reasoning
         * counts as on unless the request turns it off ({@code enabled=false}, effort {@code NONE}, or
         * an extra {@code thinking: {"type": "disabled"}} / {@code enable_thinking: false}): models
         * that think by default would otherwise refuse the request.
         */
        NOT_WHILE_THINKING,
        /** Never: the server takes only {@code tool_choice: "auto"} (Z.ai GLM). */
        NEVER
    }

    /**
     * How a server caches prompts, which decides what the encoder writes for
     * {@link dev.ruminate.core.request.PromptCaching} and what it reports as ignored.
     *
     * @since 0.3
     */
    public enum PromptCacheStyle {
        /**
         * The server caches on its own (or not at all) and takes no caching field: breakpoints, key
         * and time to live are ignored with a warning.
         */
        AUTOMATIC,
        /** As {@link #AUTOMATIC}, but the key goes as {@code prompt_cache_key} (Azure OpenAI). */
        PROMPT_CACHE_KEY,
        /**
         * OpenAI: the key goes as {@code prompt_cache_key}, and a one-hour time to live asks for
         * {@code prompt_cache_retention: "24h"}, OpenAI's extended retention, the only one longer
         * than its default (reported as coerced); breakpoints are ignored with a warning.
         */
        OPENAI,
        /**
         * OpenRouter: breakpoints on the system prompt and on user messages become
         * {@code cache_control: {"type": "ephemeral"}} on their last text part, which OpenRouter
         * passes on to the providers that need breakpoints (Anthropic, Gemini); breakpoints elsewhere,
         * the key and a time to live are ignored with a warning.
         */
        CACHE_CONTROL
    }

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
     * @param jsonSchema see {@link #jsonSchema()}
     * @param jsonObject see {@link #jsonObject()}
     * @param tools see {@link #tools()}
     * @param forcedToolChoice see {@link #forcedToolChoice()}
     * @param images see {@link #images()}
     * @param imageUrls see {@link #imageUrls()}
     * @param pdfFiles see {@link #pdfFiles()}
     * @param pdfUrls see {@link #pdfUrls()}
     * @param promptCache see {@link #promptCache()}
     * @param seedField see {@link #seedField()}
     * @throws IllegalArgumentException naming the offending value when a name is blank, the base URL
     *     is not an absolute http(s) URL, the path does not start with {@code /}, a reasoning
     *     field is blank or repeated, or the seed field is blank
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
        Objects.requireNonNull(forcedToolChoice, "forcedToolChoice");
        Objects.requireNonNull(promptCache, "promptCache");
        if (seedField != null) {
            ProfileChecks.requireText(seedField, "seedField");
        }
    }

    /**
     * Starts a profile with the defaults of a plain OpenAI-compatible server: no base URL,
     * {@code /chat/completions}, {@code Authorization: Bearer}, reasoning read from
     * {@code reasoning_content}, {@code reasoning}, {@code reasoning_text}, no details, no tags, no
     * reasoning request fields, no {@code stream_options}, {@code max_tokens}, reasoning never sent back;
     * no {@code response_format} (structured output through a forced tool), tools, images by
     * {@code data:} or {@code https:} URL, no documents, prompts cached automatically, {@code seed}.
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
        b.jsonSchema = jsonSchema;
        b.jsonObject = jsonObject;
        b.tools = tools;
        b.forcedToolChoice = forcedToolChoice;
        b.images = images;
        b.imageUrls = imageUrls;
        b.pdfFiles = pdfFiles;
        b.pdfUrls = pdfUrls;
        b.promptCache = promptCache;
        b.seedField = seedField;
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
        private boolean jsonSchema;
        private boolean jsonObject;
        private boolean tools = true;
        private ForcedToolChoice forcedToolChoice = ForcedToolChoice.ALWAYS;
        private boolean images = true;
        private boolean imageUrls = true;
        private boolean pdfFiles;
        private boolean pdfUrls;
        private PromptCacheStyle promptCache = PromptCacheStyle.AUTOMATIC;
        private @Nullable String seedField = "seed";

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
         * Sets the structured-output forms the server has.
         *
         * @param schema true when it takes {@code response_format} {@code json_schema}
         * @param object true when it takes {@code response_format} {@code json_object}
         * @return this builder
         * @since 0.3
         */
        public Builder structuredOutput(boolean schema, boolean object) {
            this.jsonSchema = schema;
            this.jsonObject = object;
            return this;
        }

        /**
         * Sets whether the server takes function tools, and when it accepts a forced tool choice.
         *
         * @param takesTools true when it takes {@code tools}
         * @param forced when a forced {@code tool_choice} is accepted
         * @return this builder
         * @since 0.3
         */
        public Builder tools(boolean takesTools, ForcedToolChoice forced) {
            this.tools = takesTools;
            this.forcedToolChoice = Objects.requireNonNull(forced, "forced");
            return this;
        }

        /**
         * Sets which images the server takes in user messages.
         *
         * @param accepted true when it takes {@code image_url} parts
         * @param byUrl true when an {@code https:} URL is accepted besides a {@code data:} URL
         * @return this builder
         * @since 0.3
         */
        public Builder images(boolean accepted, boolean byUrl) {
            this.images = accepted;
            this.imageUrls = byUrl;
            return this;
        }

        /**
         * Sets which PDF documents the server takes in user messages, as {@code file} parts.
         *
         * @param accepted true when it takes {@code file} parts with inline {@code file_data}
         * @param byUrl true when {@code file_data} may also be an {@code https:} URL
         * @return this builder
         * @since 0.3
         */
        public Builder pdfFiles(boolean accepted, boolean byUrl) {
            this.pdfFiles = accepted;
            this.pdfUrls = byUrl;
            return this;
        }

        /**
         * Sets how the server caches prompts.
         *
         * @param style the style
         * @return this builder
         * @since 0.3
         */
        public Builder promptCache(PromptCacheStyle style) {
            this.promptCache = Objects.requireNonNull(style, "style");
            return this;
        }

        /**
         * Sets the field that carries the sampling seed.
         *
         * @param field {@code seed}, {@code random_seed} (Mistral), or null when the server takes none
         * @return this builder
         * @since 0.3
         */
        public Builder seedField(@Nullable String field) {
            this.seedField = field;
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
                    readsReasoningDetails, thinkTags, reasoningStyle, streamUsage, maxTokensField, sendBack,
                    jsonSchema, jsonObject, tools, forcedToolChoice, images, imageUrls, pdfFiles, pdfUrls, promptCache,
                    seedField);
        }
    }
}
