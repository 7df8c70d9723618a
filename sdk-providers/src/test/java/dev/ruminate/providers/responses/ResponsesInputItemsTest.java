package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.providers.serving.ClientRequestException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ResponsesInput#readItems}: the seed's reasoning forms, and nothing dropped without a word. */
class ResponsesInputItemsTest {

    private static final String USER = "{\"role\":\"user\",\"content\":\"Why?\"}";

    @Test
    void aSeparateReasoningItemWithTextBeforeTheAnswerIsRawReasoning() {
        List<Message> messages = ResponsesInput.readItems(List.of(USER,
                "{\"type\":\"reasoning\",\"text\":\"Because.\"}",
                "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"So.\"}]}",
                "{\"role\":\"user\",\"content\":\"Next\"}"), "Sys");
        assertThat(messages).containsExactly(new SystemMessage("Sys"), new UserMessage("Why?"),
                turn(new ReasoningPart("Because.", false, "reasoning_text", Seals.NONE), new TextPart("So.", Seals.NONE)),
                new UserMessage("Next"));
    }

    @Test
    void reasoningWithTextInsideAnAssistantMessageIsRawReasoningInPlace() {
        List<Message> messages = ResponsesInput.readItems(List.of(USER,
                "{\"role\":\"assistant\",\"content\":[{\"type\":\"reasoning\",\"text\":\"Because.\"},"
                        + "{\"type\":\"output_text\",\"text\":\"So.\"}]}"), null);
        assertThat(messages).containsExactly(new UserMessage("Why?"),
                turn(new ReasoningPart("Because.", false, "reasoning_text", Seals.NONE), new TextPart("So.", Seals.NONE)));
    }

    @Test
    void officialReasoningItemsAndBuiltInToolItemsReadAsBefore() {
        List<Message> messages = ResponsesInput.readItems(List.of(USER,
                "{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"S\"}],"
                        + "\"encrypted_content\":\"ENC\"}",
                "{\"type\":\"web_search_call\",\"id\":\"ws_1\",\"status\":\"completed\"}",
                "{\"type\":\"reasoning\",\"id\":\"rs_2\",\"summary\":[],\"encrypted_content\":\"GATEWAY-STATE\"}"), null);
        Seals rs1 = new Seals(null, null, null, "rs_1", null).with(Seal.Kind.ENCRYPTED, "ENC");
        assertThat(messages).containsExactly(new UserMessage("Why?"), turn(
                new ReasoningPart("S", true, "summary_text", rs1),
                new ServerToolPart("web_search_call", "ws_1", null, "{\"type\":\"web_search_call\",\"id\":\"ws_1\",\"status\":\"completed\"}",
                        Seals.NONE),
                new ReasoningPart("", false, null, new Seals(null, null, "GATEWAY-STATE", "rs_2", null))));
    }

    @Test
    void anUnresolvedItemReferenceIsRejectedNeverAnEmptyTurn() {
        assertThatThrownBy(() -> ResponsesInput.readItems(List.of(USER, "{\"type\":\"item_reference\",\"id\":\"msg_1\"}"), null))
                .isInstanceOfSatisfying(ClientRequestException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().param()).isEqualTo("input[1].type");
                    assertThat(e.getMessage()).doesNotContain("msg_1");
                });
        // the old reader says so too, instead of reading an empty assistant turn
        assertThatThrownBy(() -> ResponsesInput.read("[{\"type\":\"item_reference\",\"id\":\"msg_1\"}]"))
                .isInstanceOf(dev.ruminate.core.error.ProtocolException.class);
    }

    @Test
    void unknownItemTypesAndNonTextPartsAreRejectedWithTheirPlace() {
        assertThatThrownBy(() -> ResponsesInput.readItems(List.of(USER, "{\"type\":\"sk-SECRET\"}"), null))
                .isInstanceOfSatisfying(ClientRequestException.class, e -> {
                    assertThat(e.error().param()).isEqualTo("input[1].type");
                    assertThat(e.getMessage()).doesNotContain("SECRET");
                });
        assertThatThrownBy(() -> ResponsesInput.readItems(List.of("{\"role\":\"user\",\"content\":[{\"type\":\"input_audio\","
                + "\"input_audio\":{\"data\":\"sk-SECRET\"}}]}"), null))
                .isInstanceOfSatisfying(ClientRequestException.class, e -> {
                    assertThat(e.error().param()).isEqualTo("input[0].content[0].type");
                    assertThat(e.getMessage()).contains("not support").doesNotContain("SECRET");
                });
        assertThatThrownBy(() -> ResponsesInput.readItems(List.of("{\"role\":\"assistant\",\"content\":[{\"type\":\"weird\"}]}"),
                null)).isInstanceOfSatisfying(ClientRequestException.class,
                e -> assertThat(e.error().param()).isEqualTo("input[0].content[0].type"));
        assertThatThrownBy(() -> ResponsesInput.readItems(List.of("{\"role\":\"user\"}, {\"role\":\"user\"}"), null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theOutputItemsOfAnEncodedResponseReadBackAsItsTurn() {
        // what a service stores for previous_response_id, or a stateless client sends back
        String body = ResponsesStreamEncoder.encodeBody(reactor.core.publisher.Flux.just(
                new dev.ruminate.core.event.ReasoningDelta(0, "think", false, "reasoning_content"),
                new dev.ruminate.core.event.PartEnded(0),
                new dev.ruminate.core.event.ContentDelta(1, "answer"),
                new dev.ruminate.core.event.Seal(1, Seal.Kind.SIGNATURE, "SIG"),
                new dev.ruminate.core.event.ToolCallDelta(2, 0, "call_1", "f", "{}"),
                new dev.ruminate.core.event.ResponseCompleted(FinishReason.TOOL_CALLS, null)),
                ResponsesStreamOptions.fixed("resp_x", 1L, "m").withEncryptedContent(item -> "STATE-" + item.itemId()))
                .block(java.time.Duration.ofSeconds(5));
        tools.jackson.databind.JsonNode output = tools.jackson.databind.json.JsonMapper.builder().build().readTree(body)
                .get("output");
        List<String> items = new java.util.ArrayList<>();
        output.forEach(item -> items.add(item.toString()));
        List<Message> messages = ResponsesInput.readItems(items, null);
        assertThat(messages).hasSize(1);
        AssistantMessage turn = (AssistantMessage) messages.get(0);
        assertThat(turn.reasoning()).isEqualTo("think");
        assertThat(turn.text()).isEqualTo("answer");
        assertThat(turn.toolCalls()).extracting(dev.ruminate.core.message.ToolCallPart::id).containsExactly("call_1");
        assertThat(turn.parts()).filteredOn(ReasoningPart.class::isInstance)
                .extracting(p -> ((ReasoningPart) p).seals().encrypted())
                .containsExactly("STATE-rs_x_0", "STATE-msg_x_1");
    }

    private static AssistantMessage turn(dev.ruminate.core.message.Part... parts) {
        return new AssistantMessage(List.of(parts), null, null, FinishReason.STOP, null, Usage.UNKNOWN);
    }
}
