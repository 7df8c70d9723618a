package dev.ruminate.providers.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.OpaqueStateRejectedException.Reason;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.OpaqueStateRecovery;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.AnthropicSignatureRule;
import dev.ruminate.testkit.DeepSeekReasoningContentRule;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiThoughtSignatureRule;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.testkit.ResponsesEncryptedContentRule;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * Recovery from a provider refusing the opaque reasoning state sent back, per family, against
 * emulators that refuse what they did not issue ({@link AcceptanceRules}): a real recorded turn is
 * served (so the emulator issued its values), one of its values is altered so that it still looks
 * well formed (one base64 character changed), and the next turn is sent. Without recovery the call
 * fails with the typed {@link OpaqueStateRejectedException} naming the place, after one request;
 * with {@link OpaqueStateRecovery#STRIP_AND_RETRY_ONCE} a {@link Warning} comes first, then the
 * answer, after exactly two requests, the second byte-identical to the first but for the stripped
 * value; a second refusal fails with the second error, the first suppressed, after exactly two.
 */
@ExtendWith(NettyLeakCheck.class)
class OpaqueStateRecoveryTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ApiKey KEY = ApiKey.of("test-key-0123456789");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SSE = "text/event-stream";

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private <B extends ProviderBuilder<B>> B at(B builder, OpaqueStateRecovery recovery) {
        return builder.baseUrl(emulator.baseUrl().toString()).opaqueStateRecovery(recovery);
    }

    /** Serves a recorded response to a first question and returns the assistant turn reduced from it. */
    private AssistantMessage recordedTurn(ChatProvider provider, ChatRequest first, String fixture) {
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(fixture), SSE));
        ChatResult result = ChatReducer.defaults().reduce(provider.stream(first)).block(WAIT);
        assertThat(result).isNotNull();
        assertThat(emulator.requests()).hasSize(1);
        return result.message();
    }

    /** The requests after the one that fetched the recorded turn. */
    private List<RecordedRequest> later() {
        List<RecordedRequest> all = emulator.requests();
        return all.subList(1, all.size());
    }

    /** Changes one character in the middle of a base64 value: still well formed, no longer what was issued. */
    static String corrupt(String value) {
        int mid = value.length() / 2;
        char c = value.charAt(mid);
        return value.substring(0, mid) + (c == 'A' ? 'B' : 'A') + value.substring(mid + 1);
    }

    /** The message with the seals of one part changed. */
    private static AssistantMessage withSeals(AssistantMessage m, int part, Function<Seals, Seals> change) {
        List<Part> parts = new ArrayList<>(m.parts());
        Part p = parts.get(part);
        parts.set(part, p.withSeals(change.apply(p.seals())));
        return new AssistantMessage(parts, m.provider(), m.model(), m.finishReason(), m.rawFinishReason(), m.usage());
    }

    private static int firstPart(AssistantMessage m, Class<? extends Part> type) {
        for (int i = 0; i < m.parts().size(); i++) {
            if (type.isInstance(m.parts().get(i))) {
                return i;
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + m.parts());
    }

    private static JsonNode tree(String json) {
        return JSON.readTree(json);
    }

    /**
     * Checks that the retried body is the first body without one element of an array, byte for byte:
     * the element's JSON (as the encoder writes it, compact) and its comma are all that is gone.
     */
    private static void secondIsFirstWithout(RecordedRequest first, RecordedRequest second, String arrayField,
                                             int index, int element) {
        JsonNode body = tree(first.body());
        JsonNode removedFrom = index < 0 ? body.get(arrayField) : body.get(arrayField).get(index).get("content");
        JsonNode removed = removedFrom.get(element);
        String removedJson = JSON.writeValueAsString(removed);
        assertThat(first.body()).contains(removedJson);
        String expected = element + 1 < removedFrom.size() ? first.body().replace(removedJson + ",", "")
                : first.body().replace("," + removedJson, "");
        assertThat(second.body()).isEqualTo(expected);
        ((ArrayNode) removedFrom).remove(element);
        assertThat(tree(second.body())).isEqualTo(body);
    }

    // ---- Anthropic Messages: a thinking block's signature

    private static final String ANTHROPIC_TURN = "anthropic/pydantic-thinking-stream.sse";
    private static final String CLAUDE = "claude-sonnet-4-5";

    private ChatRequest.Builder anthropicAsk() {
        return ChatRequest.builder(CLAUDE).reasoning(ReasoningOptions.budget(2048));
    }

    /** The recorded turn with its thinking signature altered. */
    private AssistantMessage anthropicCorruptedTurn(ChatProvider provider) {
        AssistantMessage turn = recordedTurn(provider, anthropicAsk().user("How do I cross the street?").build(),
                ANTHROPIC_TURN);
        int thinking = firstPart(turn, ReasoningPart.class);
        assertThat(turn.parts().get(thinking).seals().signature()).isNotBlank();
        return withSeals(turn, thinking, s -> new Seals(corrupt(s.signature()), s.redacted(), s.encrypted(), s.itemId(),
                s.format(), s.provenance()));
    }

    @Test
    void anthropicCorruptedSignatureIsTypedWithItsPlaceAndNotRetriedByDefault() {
        emulator.checking(AcceptanceRules.anthropic());
        ChatProvider provider = at(AnthropicProvider.builder(), OpaqueStateRecovery.OFF).apiKey(KEY).build();
        AssistantMessage turn = anthropicCorruptedTurn(provider);
        String signature = turn.parts().get(0).seals().signature();
        ChatRequest next = anthropicAsk().user("How do I cross the street?").message(turn).user("And at night?").build();

        StepVerifier.create(provider.stream(next))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(OpaqueStateRejectedException.class, r -> {
                    assertThat(r.reason()).isEqualTo(Reason.INVALID_SIGNATURE);
                    assertThat(r.location()).isEqualTo("messages.1.content.0");
                    assertThat(r.turn()).isEqualTo(1);
                    assertThat(r.part()).isEqualTo(0);
                    assertThat(r.status()).isEqualTo(400);
                    assertThat(r.type()).isEqualTo("opaque_state_rejected");
                    assertThat(r.getMessage()).contains("INVALID_SIGNATURE", "messages.1.content.0")
                            .doesNotContain(signature);
                }))
                .verify(WAIT);
        assertThat(later()).hasSize(1).extracting(RecordedRequest::rejectedBy).containsExactly(AnthropicSignatureRule.NAME);
    }

    @Test
    void anthropicRecoveryStripsTheSignatureWarnsAndAnswers() {
        emulator.checking(AcceptanceRules.anthropic());
        ChatProvider provider = at(AnthropicProvider.builder(), OpaqueStateRecovery.STRIP_AND_RETRY_ONCE).apiKey(KEY).build();
        AssistantMessage turn = anthropicCorruptedTurn(provider);
        emulator.enqueue(AnthropicScript.create().text("Look both ways, and wear something bright.").toResponse());
        ChatRequest next = anthropicAsk().user("How do I cross the street?").message(turn).user("And at night?").build();

        List<ChatEvent> events = new ArrayList<>();
        StepVerifier.create(provider.stream(next))
                .recordWith(() -> events)
                .expectNextMatches(e -> e instanceof Warning w && w.code().equals(Warning.OPAQUE_STATE_RECOVERED)
                        && Integer.valueOf(1).equals(w.turn()) && Integer.valueOf(0).equals(w.part())
                        && w.message().contains("INVALID_SIGNATURE at messages.1.content.0")
                        && w.message().contains("signature of message 1, part 0"))
                .thenConsumeWhile(e -> true)
                .verifyComplete();
        ChatResult result = ChatReducer.defaults().reduce(reactor.core.publisher.Flux.fromIterable(events)).block(WAIT);
        assertThat(result.message().text()).isEqualTo("Look both ways, and wear something bright.");
        assertThat(result.warnings()).hasSize(1);
        assertThat(later()).hasSize(2).extracting(RecordedRequest::rejectedBy)
                .containsExactly(AnthropicSignatureRule.NAME, null);
        // the thinking block (whose signature went) is left out by the encoder; nothing else changes
        secondIsFirstWithout(later().get(0), later().get(1), "messages", 1, 0);
    }

    @Test
    void aNonStreamingCallRecoversTheSameWay() {
        emulator.checking(AcceptanceRules.anthropic());
        ChatProvider provider = at(AnthropicProvider.builder(), OpaqueStateRecovery.STRIP_AND_RETRY_ONCE).apiKey(KEY).build();
        AssistantMessage turn = anthropicCorruptedTurn(provider);
        emulator.enqueue(AnthropicScript.create().text("Look both ways.").toMessageResponse());
        ChatRequest next = anthropicAsk().user("How do I cross the street?").message(turn).user("And at night?").build();

        ChatResult result = provider.complete(next).block(WAIT);

        assertThat(result.message().text()).isEqualTo("Look both ways.");
        assertThat(result.warnings()).singleElement().extracting(Warning::code).isEqualTo(Warning.OPAQUE_STATE_RECOVERED);
        assertThat(later()).hasSize(2).extracting(RecordedRequest::rejectedBy)
                .containsExactly(AnthropicSignatureRule.NAME, null);
        secondIsFirstWithout(later().get(0), later().get(1), "messages", 1, 0);
    }

    @Test
    void anthropicSecondRejectionFailsWithTheFirstSuppressedAfterExactlyTwoRequests() {
        emulator.checking(AcceptanceRules.anthropic());
        ChatProvider provider = at(AnthropicProvider.builder(), OpaqueStateRecovery.STRIP_AND_RETRY_ONCE).apiKey(KEY).build();
        AssistantMessage turn = anthropicCorruptedTurn(provider);
        ChatRequest next = anthropicAsk().user("How do I cross the street?").message(turn).user("And at night?")
                .message(turn).user("And in the rain?").build();

        StepVerifier.create(provider.stream(next))
                .expectNextMatches(Warning.class::isInstance)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(OpaqueStateRejectedException.class, r -> {
                    assertThat(r.location()).isEqualTo("messages.3.content.0");
                    assertThat(r.turn()).isEqualTo(3);
                    assertThat(r.getSuppressed()).singleElement().isInstanceOfSatisfying(OpaqueStateRejectedException.class,
                            first -> assertThat(first.location()).isEqualTo("messages.1.content.0"));
                }))
                .verify(WAIT);
        assertThat(later()).hasSize(2).extracting(RecordedRequest::rejectedBy)
                .containsExactly(AnthropicSignatureRule.NAME, AnthropicSignatureRule.NAME);
    }

    // ---- OpenAI Responses: a reasoning item's encrypted content

    private static final String RESPONSES_TURN = "openai-responses/pydantic-o3-mini-reasoning-summary-stream.sse";

    private AssistantMessage responsesCorruptedTurn(ChatProvider provider) {
        AssistantMessage turn = recordedTurn(provider, ChatRequest.builder("o3-mini").user("How do I cross the street?")
                .build(), RESPONSES_TURN);
        int reasoning = firstPart(turn, ReasoningPart.class);
        assertThat(turn.parts().get(reasoning).seals().encrypted()).isNotBlank();
        // every part of the item carries the same blob: alter it in each, as a store would have
        AssistantMessage corrupted = turn;
        for (int i = 0; i < turn.parts().size(); i++) {
            if (turn.parts().get(i).seals().encrypted() != null) {
                corrupted = withSeals(corrupted, i, s -> new Seals(s.signature(), s.redacted(), corrupt(s.encrypted()),
                        s.itemId(), s.format(), s.provenance()));
            }
        }
        return corrupted;
    }

    @Test
    void responsesCorruptedEncryptedContentIsTypedWithItsItem() {
        emulator.checking(AcceptanceRules.responses());
        ChatProvider provider = at(ResponsesProvider.builder(ResponsesProfiles.OPENAI), OpaqueStateRecovery.OFF)
                .apiKey(KEY).build();
        AssistantMessage turn = responsesCorruptedTurn(provider);
        int reasoning = firstPart(turn, ReasoningPart.class);
        String itemId = turn.parts().get(reasoning).seals().itemId();
        ChatRequest next = ChatRequest.builder("o3-mini").user("How do I cross the street?").message(turn)
                .user("And at night?").build();

        StepVerifier.create(provider.stream(next))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(OpaqueStateRejectedException.class, r -> {
                    assertThat(r.reason()).isEqualTo(Reason.INVALID_ENCRYPTED_CONTENT);
                    assertThat(r.error().code()).isEqualTo(ResponsesEncryptedContentRule.CODE);
                    assertThat(r.location()).isEqualTo(itemId).startsWith("rs_");
                    assertThat(r.turn()).isEqualTo(1);
                    assertThat(r.part()).isEqualTo(reasoning);
                }))
                .verify(WAIT);
        assertThat(later()).hasSize(1).extracting(RecordedRequest::rejectedBy)
                .containsExactly(ResponsesEncryptedContentRule.NAME);
    }

    @Test
    void responsesRecoveryDropsTheReasoningItemWarnsAndAnswers() {
        emulator.checking(AcceptanceRules.responses());
        ChatProvider provider = at(ResponsesProvider.builder(ResponsesProfiles.OPENAI),
                OpaqueStateRecovery.STRIP_AND_RETRY_ONCE).apiKey(KEY).build();
        AssistantMessage turn = responsesCorruptedTurn(provider);
        emulator.enqueue(ResponsesScript.create().text("Use a crossing with lights.").toResponse());
        ChatRequest next = ChatRequest.builder("o3-mini").user("How do I cross the street?").message(turn)
                .user("And at night?").build();

        ChatResult result = ChatReducer.defaults().reduce(provider.stream(next)).block(WAIT);

        assertThat(result.message().text()).isEqualTo("Use a crossing with lights.");
        assertThat(result.warnings()).singleElement().satisfies(w -> {
            assertThat(w.code()).isEqualTo(Warning.OPAQUE_STATE_RECOVERED);
            assertThat(w.message()).contains("INVALID_ENCRYPTED_CONTENT", "encrypted content", "item id");
            assertThat(w.turn()).isEqualTo(1);
        });
        assertThat(later()).hasSize(2).extracting(RecordedRequest::rejectedBy)
                .containsExactly(ResponsesEncryptedContentRule.NAME, null);
        // the reasoning item (input[1]) is dropped: without id and blob a stateless server could not take it
        JsonNode input = tree(later().get(0).body()).get("input");
        assertThat(input.get(1).get("type").asString()).isEqualTo("reasoning");
        secondIsFirstWithout(later().get(0), later().get(1), "input", -1, 1);
    }

    // ---- Gemini 3: a function call's thought signature

    private static final String GEMINI_TURN = "gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse";
    private static final String GEMINI_3 = "gemini-3-pro-preview";
    private static final ToolDefinition COUNTRY = new ToolDefinition("get_country", "The user's country",
            "{\"type\":\"object\"}");

    private ChatRequest geminiNext(ChatProvider provider) {
        ChatRequest first = ChatRequest.builder(GEMINI_3).user("What is the capital of my country?").tool(COUNTRY).build();
        AssistantMessage turn = recordedTurn(provider, first, GEMINI_TURN);
        int call = firstPart(turn, ToolCallPart.class);
        assertThat(turn.parts().get(call).seals().signature()).isNotBlank();
        AssistantMessage corrupted = withSeals(turn, call, s -> new Seals(corrupt(s.signature()), s.redacted(),
                s.encrypted(), s.itemId(), s.format(), s.provenance()));
        ToolCallPart called = (ToolCallPart) turn.parts().get(call);
        String id = called.id() != null ? called.id() : "call-1";
        return first.toBuilder().message(corrupted).message(new ToolResultMessage(id, "get_country", "{\"country\":\"Mexico\"}",
                false)).build();
    }

    @Test
    void geminiCorruptedThoughtSignatureIsTypedWithTheFunctionItNames() {
        emulator.checking(AcceptanceRules.gemini());
        ChatProvider provider = at(GeminiProvider.builder(), OpaqueStateRecovery.OFF).apiKey(KEY).build();
        ChatRequest next = geminiNext(provider);

        StepVerifier.create(provider.stream(next))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(OpaqueStateRejectedException.class, r -> {
                    assertThat(r.reason()).isEqualTo(Reason.INVALID_THOUGHT_SIGNATURE);
                    assertThat(r.location()).isEqualTo("function call `get_country` in the 1. content block");
                    assertThat(r.turn()).isEqualTo(1);
                    assertThat(r.part()).isEqualTo(firstPart((AssistantMessage) next.messages().get(1), ToolCallPart.class));
                    assertThat(r.error().type()).isEqualTo("INVALID_ARGUMENT");
                }))
                .verify(WAIT);
        assertThat(later()).hasSize(1).extracting(RecordedRequest::rejectedBy)
                .containsExactly(GeminiThoughtSignatureRule.NAME);
    }

    @Test
    void geminiRecoveryStripsTheSignatureButGemini3RefusesAnUnsignedCallSoTheSecondErrorStands() {
        // Gemini 3 requires a signature on the current turn's call: without it the retry is refused again
        emulator.checking(AcceptanceRules.gemini());
        ChatProvider provider = at(GeminiProvider.builder(), OpaqueStateRecovery.STRIP_AND_RETRY_ONCE).apiKey(KEY).build();
        ChatRequest next = geminiNext(provider);
        int call = firstPart((AssistantMessage) next.messages().get(1), ToolCallPart.class);

        StepVerifier.create(provider.stream(next))
                .expectNextMatches(e -> e instanceof Warning w && Integer.valueOf(call).equals(w.part()))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(OpaqueStateRejectedException.class, r -> {
                    assertThat(r.reason()).isEqualTo(Reason.MISSING_THOUGHT_SIGNATURE);
                    assertThat(r.turn()).isEqualTo(1);
                    assertThat(r.getSuppressed()).singleElement().isInstanceOfSatisfying(OpaqueStateRejectedException.class,
                            first -> assertThat(first.reason()).isEqualTo(Reason.INVALID_THOUGHT_SIGNATURE));
                }))
                .verify(WAIT);
        assertThat(later()).hasSize(2).extracting(RecordedRequest::rejectedBy)
                .containsExactly(GeminiThoughtSignatureRule.NAME, GeminiThoughtSignatureRule.NAME);
        JsonNode first = tree(later().get(0).body());
        JsonNode second = tree(later().get(1).body());
        JsonNode signed = first.get("contents").get(1).get("parts").get(0);
        assertThat(signed.has("thoughtSignature")).isTrue();
        ((tools.jackson.databind.node.ObjectNode) signed).remove("thoughtSignature");
        assertThat(second).isEqualTo(first);
    }

    @Test
    void geminiRecoveryWithSkipSignatureValidationRetriesTheCallWithGooglesPlaceholderAndAnswers() {
        // G4: the stripped call is the first of its step in the current loop, so it carries the placeholder
        emulator.checking(AcceptanceRules.gemini());
        ChatProvider provider = at(GeminiProvider.builder(), OpaqueStateRecovery.STRIP_AND_RETRY_ONCE).apiKey(KEY)
                .skipSignatureValidation(true).build();
        ChatRequest next = geminiNext(provider);
        int call = firstPart((AssistantMessage) next.messages().get(1), ToolCallPart.class);
        emulator.enqueue(dev.ruminate.testkit.GeminiScript.create().text("The capital of Mexico is Mexico City.").toResponse());

        List<ChatEvent> events = new ArrayList<>();
        StepVerifier.create(provider.stream(next))
                .recordWith(() -> events)
                .expectNextMatches(e -> e instanceof Warning w && w.code().equals(Warning.OPAQUE_STATE_RECOVERED)
                        && Integer.valueOf(1).equals(w.turn()) && Integer.valueOf(call).equals(w.part())
                        && w.message().contains("INVALID_THOUGHT_SIGNATURE"))
                .thenConsumeWhile(e -> true)
                .verifyComplete();
        ChatResult result = ChatReducer.defaults().reduce(reactor.core.publisher.Flux.fromIterable(events)).block(WAIT);
        assertThat(result.message().text()).isEqualTo("The capital of Mexico is Mexico City.");
        assertThat(later()).hasSize(2).extracting(RecordedRequest::rejectedBy)
                .containsExactly(GeminiThoughtSignatureRule.NAME, null);
        // the retry is the first request with the corrupted signature replaced by the placeholder, nothing else
        JsonNode first = tree(later().get(0).body());
        JsonNode second = tree(later().get(1).body());
        tools.jackson.databind.node.ObjectNode signed =
                (tools.jackson.databind.node.ObjectNode) first.get("contents").get(1).get("parts").get(0);
        assertThat(signed.get("thoughtSignature").asString()).isNotEqualTo("skip_thought_signature_validator");
        signed.put("thoughtSignature", "skip_thought_signature_validator");
        assertThat(second).isEqualTo(first);
    }

    /**
     * The Gemini next turn with, first in the model turn, an empty thought whose signature is malformed:
     * the integrity check strips it and drops the part, so the prepared turn has one part fewer.
     */
    private ChatRequest geminiNextAfterADroppedPart(ChatProvider provider) {
        ChatRequest next = geminiNext(provider);
        AssistantMessage turn = (AssistantMessage) next.messages().get(1);
        List<Part> parts = new ArrayList<>(turn.parts());
        parts.add(0, new ReasoningPart("", false, null, Seals.NONE.with(dev.ruminate.core.event.Seal.Kind.SIGNATURE,
                "not a signature!")));
        List<Message> messages = new ArrayList<>(next.messages());
        messages.set(1, new AssistantMessage(parts, turn.provider(), turn.model(), turn.finishReason(), turn.rawFinishReason(),
                turn.usage()));
        return ChatRequest.builder(GEMINI_3).messages(messages).tool(COUNTRY).build();
    }

    @Test
    void theRejectionNamesThePartAsGivenWhenHistoryDroppedAPartBeforeIt() {
        emulator.checking(AcceptanceRules.gemini());
        ChatProvider provider = at(GeminiProvider.builder(), OpaqueStateRecovery.OFF).apiKey(KEY).build();
        ChatRequest next = geminiNextAfterADroppedPart(provider);
        int call = firstPart((AssistantMessage) next.messages().get(1), ToolCallPart.class);

        StepVerifier.create(provider.stream(next))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(OpaqueStateRejectedException.class, r -> {
                    assertThat(r.reason()).isEqualTo(Reason.INVALID_THOUGHT_SIGNATURE);
                    assertThat(r.turn()).isEqualTo(1);
                    assertThat(r.part()).isEqualTo(call);
                    assertThat(r.getMessage()).contains("in message 1, part " + call);
                }))
                .verify(WAIT);
    }

    @Test
    void theWarningNamesThePartAsGivenWhenHistoryDroppedAPartBeforeIt() {
        emulator.checking(AcceptanceRules.gemini());
        ChatProvider provider = at(GeminiProvider.builder(), OpaqueStateRecovery.STRIP_AND_RETRY_ONCE).apiKey(KEY)
                .skipSignatureValidation(true).build();
        ChatRequest next = geminiNextAfterADroppedPart(provider);
        int call = firstPart((AssistantMessage) next.messages().get(1), ToolCallPart.class);
        emulator.enqueue(dev.ruminate.testkit.GeminiScript.create().text("Mexico City.").toResponse());

        ChatResult result = ChatReducer.defaults().reduce(provider.stream(next)).block(WAIT);

        assertThat(result.message().text()).isEqualTo("Mexico City.");
        assertThat(result.warnings()).singleElement().satisfies(w -> {
            assertThat(w.turn()).isEqualTo(1);
            assertThat(w.part()).isEqualTo(call);
            assertThat(w.message()).contains("message 1, part " + call).doesNotContain("not a signature!");
        });
    }

    // ---- DeepSeek thinking mode: reasoning_content of a tool-call turn

    @Test
    void deepSeekMissingReasoningContentIsTypedAndNotRetried() {
        emulator.checking(AcceptanceRules.deepSeek());
        // the generic OpenAI profile has no reasoning_content field: pointed at DeepSeek it loses it
        ChatProvider provider = at(ChatCompletionsProvider.builder(Profiles.OPENAI), OpaqueStateRecovery.STRIP_AND_RETRY_ONCE)
                .apiKey(KEY).build();
        AssistantMessage toolTurn = new AssistantMessage(List.of(
                new ReasoningPart("Need the weather.", false, "reasoning_content", Seals.NONE),
                new ToolCallPart("call_1", "weather", "{\"city\":\"Paris\"}", true, Seals.NONE)),
                "deepseek", "deepseek-reasoner", dev.ruminate.core.message.FinishReason.TOOL_CALLS, "tool_calls",
                dev.ruminate.core.message.Usage.UNKNOWN);
        List<Message> conversation = List.of(new UserMessage("Weather in Paris?"), toolTurn,
                new ToolResultMessage("call_1", "weather", "{\"temp\":20}", false));
        ChatRequest next = ChatRequest.builder("deepseek-reasoner").messages(conversation).build();

        StepVerifier.create(provider.stream(next))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(OpaqueStateRejectedException.class, r -> {
                    assertThat(r.reason()).isEqualTo(Reason.MISSING_REASONING_CONTENT);
                    assertThat(r.reason().strippable()).isFalse();
                    assertThat(r.getSuppressed()).isEmpty();
                }))
                .verify(WAIT);
        assertThat(emulator.requests()).hasSize(1).extracting(RecordedRequest::rejectedBy)
                .containsExactly(DeepSeekReasoningContentRule.NAME);
    }

    // ---- an unrelated 400 is not typed and not retried

    @Test
    void anUnrelatedBadRequestStaysAPlainHttpErrorAndIsNotRetried() {
        emulator.enqueue(EmulatorResponse.httpError(400, "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                + "\"message\":\"max_tokens: Field required\"}}"));
        ChatProvider provider = at(AnthropicProvider.builder(), OpaqueStateRecovery.STRIP_AND_RETRY_ONCE).apiKey(KEY).build();

        StepVerifier.create(provider.stream(anthropicAsk().user("Hi").build()))
                .expectErrorSatisfies(e -> assertThat(e).isExactlyInstanceOf(ProviderHttpException.class))
                .verify(WAIT);
        assertThat(emulator.requests()).hasSize(1);
    }
}
