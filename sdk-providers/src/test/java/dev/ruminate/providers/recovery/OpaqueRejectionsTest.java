package dev.ruminate.providers.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.OpaqueStateRejectedException.Reason;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.bedrock.BedrockCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiCodec;
import dev.ruminate.providers.responses.ResponsesCodec;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.spi.WireCodec;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Each family's codec types the provider's documented refusals of opaque state
 * ({@link WireCodec#classifyRejection}) from the error bodies in PROTOCOLS.md (§2, §3, §4, §5; the
 * wordings marked UNVERIFIED there in the forms reported), maps the place they name back to the
 * prepared conversation only where the encoder's mapping is known, and leaves every unrelated error
 * untyped.
 */
class OpaqueRejectionsTest {

    private static ProviderHttpException http(String provider, int status, @Nullable String type, @Nullable String code,
                                              String message) {
        return new ProviderHttpException(provider, status, new ProviderError(type, code, message, null), "req_1", null,
                "{\"error\":{\"message\":\"" + message.replace("\"", "\\\"") + "\"}}");
    }

    private static AssistantMessage assistant(String provider, Part... parts) {
        return new AssistantMessage(List.of(parts), provider, "m", FinishReason.STOP, null, Usage.UNKNOWN);
    }

    private static Seals signed(String signature) {
        return new Seals(signature, null, null, null, null);
    }

    private static ChatRequest request(String model, Message... messages) {
        return ChatRequest.builder(model).messages(List.of(messages)).build();
    }

    // Anthropic: system lifted out, same-role messages merged, an unsigned thinking block dropped
    private static final ChatRequest ANTHROPIC = request("claude-sonnet-4-5",
            new SystemMessage("Be brief."),
            new UserMessage("Weather?"),
            assistant("anthropic", new ReasoningPart("lost", false, "thinking", Seals.NONE),
                    new ReasoningPart("Check it.", false, "thinking", signed("EqQBCkYIBxgCKkA")),
                    new ToolCallPart("toolu_1", "weather", "{}", true, Seals.NONE)),
            new ToolResultMessage("toolu_1", "weather", "{\"temp\":20}", false),
            new UserMessage("And tomorrow?"),
            assistant("anthropic", new ReasoningPart("Again.", false, "thinking", signed("EqQBCkYIBxgCKkB")),
                    new TextPart("Sunny.", Seals.NONE)),
            new UserMessage("Thanks"));

    private static @Nullable OpaqueStateRejectedException anthropic(String message) {
        return AnthropicCodec.of(1024).classifyRejection("anthropic", ANTHROPIC,
                http("anthropic", 400, "invalid_request_error", null, message));
    }

    @Test
    void anthropicSignatureErrorsAreTypedAndMappedThroughTheEncodersGrouping() {
        OpaqueStateRejectedException invalid = anthropic("messages.1.content.0: Invalid `signature` in `thinking` block");
        assertThat(invalid.reason()).isEqualTo(Reason.INVALID_SIGNATURE);
        assertThat(invalid.location()).isEqualTo("messages.1.content.0");
        // wire message 1 is prepared message 2 (system lifted out); block 0 is part 1 (the unsigned one is dropped)
        assertThat(invalid.turn()).isEqualTo(2);
        assertThat(invalid.part()).isEqualTo(1);
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.requestId()).isEqualTo("req_1");
        assertThat(invalid.isRetryable()).isFalse();
        assertThat(invalid).isInstanceOf(ProviderHttpException.class).hasCauseInstanceOf(ProviderHttpException.class);

        OpaqueStateRejectedException later = anthropic("messages.3.content.0: Invalid `signature` in `thinking` block");
        assertThat(later.turn()).isEqualTo(5);
        assertThat(later.part()).isEqualTo(0);

        OpaqueStateRejectedException missing = anthropic("messages.3.content.0.thinking.signature: Field required");
        assertThat(missing.reason()).isEqualTo(Reason.MISSING_SIGNATURE);
        assertThat(missing.reason().strippable()).isFalse();

        OpaqueStateRejectedException noThinking = anthropic(
                "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking`"
                        + " is enabled, a final `assistant` message must start with a thinking block.");
        assertThat(noThinking.reason()).isEqualTo(Reason.MISSING_THINKING);

        // a user message of the merged tool results and text: the message resolves, no assistant part does
        OpaqueStateRejectedException inUser = anthropic("messages.2.content.1: Invalid `signature` in `thinking` block");
        assertThat(inUser.turn()).isEqualTo(4);
        assertThat(inUser.part()).isNull();

        OpaqueStateRejectedException outside = anthropic("messages.9.content.0: Invalid `signature` in `thinking` block");
        assertThat(outside.turn()).isNull();
        assertThat(outside.location()).isEqualTo("messages.9.content.0");

        // Bedrock passes Claude's words on in a ValidationException: typed, place kept, not mapped
        OpaqueStateRejectedException bedrock = BedrockCodec.of("bedrock").classifyRejection("bedrock", ANTHROPIC,
                http("bedrock", 400, null, null, "The model returned the following errors: messages.1.content.0: Invalid "
                        + "`signature` in `thinking` block"));
        assertThat(bedrock.reason()).isEqualTo(Reason.INVALID_SIGNATURE);
        assertThat(bedrock.location()).isEqualTo("messages.1.content.0");
        assertThat(bedrock.turn()).isNull();
    }

    @Test
    void responsesErrorsAreTypedByCodeOrWordsAndNameTheirItem() {
        ChatRequest prepared = request("o3", new UserMessage("Hi"),
                assistant("openai", new ReasoningPart("a", true, "summary_text", new Seals(null, null, "gAAAAB", "rs_123", null)),
                        new ReasoningPart("b", true, "summary_text", new Seals(null, null, "gAAAAB", "rs_456", null)),
                        new TextPart("Hello", Seals.NONE)),
                new UserMessage("Again"));
        ResponsesCodec codec = ResponsesCodec.of(ResponsesProfiles.OPENAI);

        OpaqueStateRejectedException byCode = codec.classifyRejection("openai", prepared, http("openai", 400,
                "invalid_request_error", "invalid_encrypted_content",
                "The encrypted content for item rs_456 could not be verified."));
        assertThat(byCode.reason()).isEqualTo(Reason.INVALID_ENCRYPTED_CONTENT);
        assertThat(byCode.location()).isEqualTo("rs_456");
        assertThat(byCode.turn()).isEqualTo(1);
        assertThat(byCode.part()).isEqualTo(1);

        OpaqueStateRejectedException byWords = codec.classifyRejection("openai", prepared, http("openai", 400,
                "invalid_request_error", null, "The encrypted content for item rs_123 could not be verified."));
        assertThat(byWords.reason()).isEqualTo(Reason.INVALID_ENCRYPTED_CONTENT);
        assertThat(byWords.part()).isEqualTo(0);

        OpaqueStateRejectedException notFound = codec.classifyRejection("openai", prepared, http("openai", 404,
                "invalid_request_error", null, "Item with id 'rs_999' not found. Items are not persisted when `store` is"
                        + " set to false. Try again with `store` set to true, or remove this item from your input."));
        assertThat(notFound.reason()).isEqualTo(Reason.ITEM_NOT_FOUND);
        assertThat(notFound.location()).isEqualTo("rs_999");
        assertThat(notFound.turn()).isNull();

        // the pairing rule's 400 is about item order, not opaque state
        assertThat(codec.classifyRejection("openai", prepared, http("openai", 400, "invalid_request_error", null,
                "Item 'rs_123' of type 'reasoning' was provided without its required following item."))).isNull();
    }

    @Test
    void geminiSignatureErrorsAreTypedAndTheCallIsFoundByName() {
        ChatRequest prepared = request("gemini-3-pro-preview", new UserMessage("Weather and time?"),
                assistant("gemini", new ToolCallPart("c1", "get_weather", "{}", true, Seals.NONE),
                        new ToolCallPart("c2", "get_time", "{}", true, signed("CiIBsig"))),
                new ToolResultMessage("c1", "get_weather", "{}", false),
                new ToolResultMessage("c2", "get_time", "{}", false));
        GeminiCodec codec = GeminiCodec.of("gemini", false);

        OpaqueStateRejectedException missing = codec.classifyRejection("gemini", prepared, http("gemini", 400,
                "INVALID_ARGUMENT", "400", "Unable to submit request because function call `get_weather` in the 2. content"
                        + " block is missing a `thought_signature`. Learn more: https://ai.google.dev/gemini-api/docs/thought-signatures"));
        assertThat(missing.reason()).isEqualTo(Reason.MISSING_THOUGHT_SIGNATURE);
        assertThat(missing.location()).isEqualTo("function call `get_weather` in the 2. content block");
        assertThat(missing.turn()).isEqualTo(1);
        assertThat(missing.part()).isEqualTo(0);
        assertThat(missing.reason().strippable()).isFalse();

        OpaqueStateRejectedException general = codec.classifyRejection("gemini", prepared, http("gemini", 400,
                "INVALID_ARGUMENT", "400", "Function call is missing a thought_signature in functionCall parts. This is "
                        + "required for tools to work correctly, and missing thought_signature may lead to degraded model performance."));
        assertThat(general.reason()).isEqualTo(Reason.MISSING_THOUGHT_SIGNATURE);
        assertThat(general.turn()).isNull();

        OpaqueStateRejectedException corrupted = codec.classifyRejection("gemini", prepared, http("gemini", 400,
                "INVALID_ARGUMENT", "400", "Unable to submit request because function call `get_time` in the 2. content"
                        + " block has an invalid `thought_signature`: Corrupted thought signature."));
        assertThat(corrupted.reason()).isEqualTo(Reason.INVALID_THOUGHT_SIGNATURE);
        assertThat(corrupted.turn()).isEqualTo(1);
        assertThat(corrupted.part()).isEqualTo(1);
        assertThat(corrupted.reason().strippable()).isTrue();
    }

    @Test
    void deepSeekMissingReasoningContentIsTypedAndGroqsRefusalIsNot() {
        ChatRequest prepared = request("deepseek-reasoner", new SystemMessage("Be brief."), new UserMessage("Weather?"),
                assistant("deepseek", new ToolCallPart("call_1", "weather", "{}", true, Seals.NONE)),
                new ToolResultMessage("call_1", "weather", "{}", false));
        ChatCompletionsCodec codec = ChatCompletionsCodec.of(Profiles.DEEPSEEK);

        OpaqueStateRejectedException current = codec.classifyRejection("deepseek", prepared, http("deepseek", 400,
                "invalid_request_error", "invalid_request_error",
                "The reasoning_content in the thinking mode must be passed back to the API."));
        assertThat(current.reason()).isEqualTo(Reason.MISSING_REASONING_CONTENT);
        assertThat(current.turn()).isNull();

        OpaqueStateRejectedException older = codec.classifyRejection("deepseek", prepared, http("deepseek", 400,
                "invalid_request_error", null, "Missing `reasoning_content` field in the assistant message at message index 2"));
        assertThat(older.reason()).isEqualTo(Reason.MISSING_REASONING_CONTENT);
        assertThat(older.location()).isEqualTo("message index 2");
        // one wire message per conversation message, the system message included
        assertThat(older.turn()).isEqualTo(2);
        assertThat(older.part()).isNull();

        assertThat(ChatCompletionsCodec.of(Profiles.GROQ).classifyRejection("groq", prepared, http("groq", 400,
                "invalid_request_error", null, "'messages.1' : for 'role:assistant' the following must be satisfied"
                        + "[('messages.1' : property 'reasoning_content' is unsupported)]"))).isNull();
    }

    @Test
    void unrelatedErrorsAreNotTyped() {
        AnthropicCodec anthropic = AnthropicCodec.of(1024);
        assertThat(anthropic.classifyRejection("anthropic", ANTHROPIC, http("anthropic", 400, "invalid_request_error", null,
                "max_tokens: Field required"))).isNull();
        assertThat(anthropic.classifyRejection("anthropic", ANTHROPIC, http("anthropic", 400, "invalid_request_error", null,
                "`max_tokens` must be greater than `thinking.budget_tokens`"))).isNull();
        // the right words with another status are something else (an overloaded server quoting a request, say)
        assertThat(anthropic.classifyRejection("anthropic", ANTHROPIC, http("anthropic", 529, "overloaded_error", null,
                "messages.1.content.0: Invalid `signature` in `thinking` block"))).isNull();
        assertThat(ResponsesCodec.of(ResponsesProfiles.OPENAI).classifyRejection("openai", ANTHROPIC, http("openai", 400,
                "invalid_request_error", "unsupported_parameter", "Unsupported parameter: 'temperature'"))).isNull();
        assertThat(GeminiCodec.of("gemini", false).classifyRejection("gemini", ANTHROPIC, http("gemini", 400,
                "INVALID_ARGUMENT", "400", "Invalid value at 'generation_config.thinking_config.thinking_budget'"))).isNull();
        // a server that does not know the field refuses its name, not the value: stripping every signature is no answer
        assertThat(GeminiCodec.of("gemini", false).classifyRejection("gemini", ANTHROPIC, http("gemini", 400,
                "INVALID_ARGUMENT", "400", "Invalid JSON payload received. Unknown name \"thoughtSignature\" at "
                        + "'contents[1].parts[0]': Cannot find field."))).isNull();
        assertThat(ChatCompletionsCodec.of(Profiles.DEEPSEEK).classifyRejection("deepseek", ANTHROPIC, http("deepseek", 400,
                "invalid_request_error", null, "Model Not Exist"))).isNull();
        // a family without opaque state classifies nothing
        WireCodec<?> plain = ChatCompletionsCodec.of(Profiles.OPENAI);
        assertThat(plain.classifyRejection("openai", ANTHROPIC, http("openai", 400, "invalid_request_error", null,
                "Invalid 'messages[1].content': string too long."))).isNull();
    }
}
