package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The acceptance rules of one provider family and the way that family writes its error, for
 * {@link ProviderEmulator#checking(AcceptanceRules)}: a request that breaks a rule is answered
 * with the provider's own 4xx status and error body instead of the queued response.
 *
 * <pre>{@code
 * emulator.checking(AcceptanceRules.anthropic());                  // refuse lost or moved thinking
 * emulator.checking(AcceptanceRules.anthropic().without(AnthropicThinkingRule.NAME));   // show what happens without it
 * emulator.checking(null);                                         // stop checking
 * }</pre>
 *
 * <p>The rules were written from the providers' documentation and from requests they accepted
 * (see each rule's class), not from Ruminate's encoders. Each factory call makes new rule
 * instances; some rules learn from the responses served ({@link ResponsesReasoningItemRule}), so
 * give each emulator its own set. Immutable apart from that learning; thread-safe.
 *
 * @since 0.2
 */
public final class AcceptanceRules {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ErrorFormat format;
    private final List<AcceptanceRule> rules;

    private AcceptanceRules(ErrorFormat format, List<AcceptanceRule> rules) {
        this.format = format;
        this.rules = List.copyOf(rules);
    }

    /**
     * Anthropic Messages: {@link AnthropicThinkingRule}, then {@link AnthropicSignatureRule} (signatures
     * and redacted data as issued), {@link AnthropicToolChoiceRule} (no forced tool with thinking),
     * {@link AnthropicCacheControlRule} (at most four breakpoints), {@link AnthropicImageRule} (image
     * media types); errors as {@code {"type":"error","error":{…}}}.
     *
     * @return new rules
     */
    public static AcceptanceRules anthropic() {
        return new AcceptanceRules(ErrorFormat.ANTHROPIC, List.of(new AnthropicThinkingRule(), new AnthropicSignatureRule(),
                new AnthropicToolChoiceRule(), new AnthropicCacheControlRule(), new AnthropicImageRule()));
    }

    /**
     * DeepSeek Chat Completions: {@link DeepSeekReasoningContentRule} and (since 0.3)
     * {@link DeepSeekForcedToolChoiceRule} in thinking mode, {@link JsonObjectPromptRule} for JSON
     * mode, {@link TextOnlyContentRule} (DeepSeek's API takes text only); OpenAI-style errors.
     *
     * @return new rules
     */
    public static AcceptanceRules deepSeek() {
        return new AcceptanceRules(ErrorFormat.OPENAI, List.of(new DeepSeekReasoningContentRule(),
                new DeepSeekForcedToolChoiceRule(), new JsonObjectPromptRule(), new TextOnlyContentRule()));
    }

    /**
     * A Chat Completions server scripted as text-only: {@link TextOnlyContentRule}; OpenAI-style
     * errors. Add a family's other rules with {@link #with(AcceptanceRule)}.
     *
     * @return new rules
     * @since 0.3
     */
    public static AcceptanceRules chatCompletionsTextOnly() {
        return new AcceptanceRules(ErrorFormat.OPENAI, List.of(new TextOnlyContentRule()));
    }

    /**
     * OpenAI Responses: {@link ResponsesReasoningItemRule} and {@link ResponsesEncryptedContentRule}
     * (used statelessly: encrypted content as issued), then the request's parameters:
     * {@link ResponsesTextFormatRule} (a json_schema format with its name and schema),
     * {@link ResponsesInputImageRule} (inline images of an image type), {@link ResponsesSamplingRule}
     * (no temperature or top_p on reasoning models), {@link ResponsesBackgroundStoreRule} (background
     * mode only with {@code store}); OpenAI errors.
     *
     * @return new rules
     */
    public static AcceptanceRules responses() {
        return new AcceptanceRules(ErrorFormat.OPENAI, List.of(new ResponsesReasoningItemRule(),
                new ResponsesEncryptedContentRule(), new ResponsesTextFormatRule(), new ResponsesInputImageRule(),
                new ResponsesSamplingRule(), new ResponsesBackgroundStoreRule()));
    }

    /**
     * Gemini (AI Studio and Vertex AI): {@link GeminiThoughtSignatureRule} (Gemini 3 signatures present,
     * and as issued), {@link GeminiResponseSchemaRule} (a response schema with its JSON media type),
     * {@link GeminiMediaRule} (media parts typed, inline data base64); errors as
     * {@code {"error":{"code","message","status"}}}.
     *
     * @return new rules
     */
    public static AcceptanceRules gemini() {
        return new AcceptanceRules(ErrorFormat.GEMINI, List.of(new GeminiThoughtSignatureRule(),
                new GeminiResponseSchemaRule(), new GeminiMediaRule()));
    }

    /**
     * Ollama's native API ({@code /api/chat}, {@code /api/generate}): {@link OllamaImagesRule}; errors as
     * {@code {"error": "…"}}.
     *
     * @return new rules
     * @since 0.3
     */
    public static AcceptanceRules ollama() {
        return new AcceptanceRules(ErrorFormat.OLLAMA, List.of(new OllamaImagesRule()));
    }

    /**
     * Bedrock Converse with Claude: {@link BedrockReasoningRule}, {@link BedrockToolChoiceRule} (no
     * forced tool with thinking); {@code ValidationException} errors.
     *
     * @return new rules
     */
    public static AcceptanceRules bedrock() {
        return new AcceptanceRules(ErrorFormat.BEDROCK, List.of(new BedrockReasoningRule(), new BedrockToolChoiceRule()));
    }

    /**
     * Returns these rules without one of them, to show what the client does when the API does not check it.
     *
     * @param ruleName the {@linkplain AcceptanceRule#name() name} of the rule to switch off
     * @return a new set sharing the remaining rule instances
     * @throws IllegalArgumentException if no rule has that name
     */
    public AcceptanceRules without(String ruleName) {
        List<AcceptanceRule> kept = new ArrayList<>(rules);
        if (!kept.removeIf(rule -> rule.name().equals(ruleName))) {
            throw new IllegalArgumentException("no rule named " + ruleName + " in " + names());
        }
        return new AcceptanceRules(format, kept);
    }

    /**
     * Returns these rules plus one more, answered in the same error format.
     *
     * @param rule the rule to add
     * @return a new set
     */
    public AcceptanceRules with(AcceptanceRule rule) {
        List<AcceptanceRule> all = new ArrayList<>(rules);
        all.add(Objects.requireNonNull(rule, "rule"));
        return new AcceptanceRules(format, all);
    }

    /**
     * Returns the names of the rules in force, in the order they are checked.
     *
     * @return an immutable list
     */
    public List<String> names() {
        return rules.stream().map(AcceptanceRule::name).toList();
    }

    /**
     * Checks a request against every rule, in order.
     *
     * @param request the request
     * @return the first violation, or {@code null} when the request is accepted (also when its body is not JSON)
     */
    public @Nullable Violation check(RecordedRequest request) {
        JsonNode body;
        try {
            body = JSON.readTree(request.body());
        } catch (JacksonException e) {
            return null;
        }
        if (body == null || !body.isObject()) {
            return null;
        }
        for (AcceptanceRule rule : rules) {
            Violation violation = rule.check(request, body);
            if (violation != null) {
                return violation;
            }
        }
        return null;
    }

    /**
     * Renders a violation the way this provider family answers it: status, error body and headers.
     *
     * @param violation the violation
     * @return the error response
     */
    public EmulatorResponse reject(Violation violation) {
        return format.render(violation);
    }

    /** Lets every rule learn from a response served for an accepted request. */
    void served(EmulatorResponse response) {
        for (AcceptanceRule rule : rules) {
            rule.served(response);
        }
    }

    @Override
    public String toString() {
        return "AcceptanceRules[" + format + ", " + names() + "]";
    }
}
