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
     * and redacted data as issued); errors as {@code {"type":"error","error":{…}}}.
     *
     * @return new rules
     */
    public static AcceptanceRules anthropic() {
        return new AcceptanceRules(ErrorFormat.ANTHROPIC, List.of(new AnthropicThinkingRule(), new AnthropicSignatureRule()));
    }

    /**
     * DeepSeek Chat Completions in thinking mode: {@link DeepSeekReasoningContentRule}; OpenAI-style errors.
     *
     * @return new rules
     */
    public static AcceptanceRules deepSeek() {
        return new AcceptanceRules(ErrorFormat.OPENAI, List.of(new DeepSeekReasoningContentRule()));
    }

    /**
     * OpenAI Responses: {@link ResponsesReasoningItemRule} and {@link ResponsesEncryptedContentRule}
     * (used statelessly: encrypted content as issued), then the request's parameters:
     * {@link ResponsesTextFormatRule} (a json_schema format with its name and schema),
     * {@link ResponsesInputImageRule} (inline images of an image type), {@link ResponsesSamplingRule}
     * (no temperature or top_p on reasoning models); OpenAI errors.
     *
     * @return new rules
     */
    public static AcceptanceRules responses() {
        return new AcceptanceRules(ErrorFormat.OPENAI, List.of(new ResponsesReasoningItemRule(),
                new ResponsesEncryptedContentRule(), new ResponsesTextFormatRule(), new ResponsesInputImageRule(),
                new ResponsesSamplingRule()));
    }

    /**
     * Gemini 3: {@link GeminiThoughtSignatureRule} (present, and as issued); errors as {@code {"error":{"code","message","status"}}}.
     *
     * @return new rules
     */
    public static AcceptanceRules gemini() {
        return new AcceptanceRules(ErrorFormat.GEMINI, List.of(new GeminiThoughtSignatureRule()));
    }

    /**
     * Bedrock Converse with Claude: {@link BedrockReasoningRule}; {@code ValidationException} errors.
     *
     * @return new rules
     */
    public static AcceptanceRules bedrock() {
        return new AcceptanceRules(ErrorFormat.BEDROCK, List.of(new BedrockReasoningRule()));
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
