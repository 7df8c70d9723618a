package dev.ruminate.core.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningCheck;
import dev.ruminate.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The message JSON: documented shapes, round trips, the older shapes, opaque state, bad input. */
class MessageJsonTest {

    private static final Seals SIGNED = new Seals("SIG-abc", null, null, null, null);
    private static final Seals ENCRYPTED = new Seals(null, null, "gAAAA-ENC", "rs_1", null);

    static LongStream seeds() {
        return Seeds.of(200);
    }

    private static AssistantMessage interleaved() {
        return new AssistantMessage(List.of(
                new ReasoningPart("I should check the weather.", false, "thinking", SIGNED),
                new ToolCallPart("call_1", "get_weather", "{\"city\":\"Paris\"}", true, Seals.NONE),
                new ReasoningPart("", false, null, new Seals(null, "REDACTED-BLOB", null, null, null)),
                new ReasoningPart("It is sunny.", true, "summary_text", ENCRYPTED),
                new TextPart("Sunny in Paris.", Seals.NONE)),
                "anthropic", "claude-sonnet-4-5", FinishReason.STOP, "end_turn", new Usage(10L, 50L, 30L, null));
    }

    @Test
    void simpleRolesHaveTheirDocumentedShape() {
        assertJson(new SystemMessage("Be brief."), "{\"role\":\"system\",\"content\":\"Be brief.\"}");
        assertJson(new UserMessage("Hi"), "{\"role\":\"user\",\"content\":\"Hi\"}");
        assertJson(new ToolResultMessage("call_1", "get_weather", "{\"t\":21}", true),
                "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"name\":\"get_weather\",\"content\":\"{\\\"t\\\":21}\",\"is_error\":true}");
        assertJson(new ToolResultMessage("call_1", null, "21", false), "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"21\"}");
    }

    private static void assertJson(Message m, String json) {
        assertThat(MessageJson.write(m)).isEqualTo(json);
        assertThat(MessageJson.read(json)).isEqualTo(m);
    }

    @Test
    void anAssistantMessageKeepsThePlainFieldsAndTheOrderedParts() {
        String json = MessageJson.write(interleaved());
        assertThat(json).isEqualTo("{\"role\":\"assistant\",\"content\":\"Sunny in Paris.\","
                + "\"reasoning_content\":\"I should check the weather.It is sunny.\","
                + "\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
                + "\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}],"
                + "\"parts\":[{\"type\":\"reasoning\",\"text\":\"I should check the weather.\",\"source\":\"thinking\","
                + "\"provider_state\":{\"signature\":\"SIG-abc\"}},"
                + "{\"type\":\"tool_call\",\"id\":\"call_1\",\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"},"
                + "{\"type\":\"reasoning\",\"text\":\"\",\"provider_state\":{\"redacted\":\"REDACTED-BLOB\"}},"
                + "{\"type\":\"reasoning\",\"text\":\"It is sunny.\",\"summary\":true,\"source\":\"summary_text\","
                + "\"provider_state\":{\"encrypted\":\"gAAAA-ENC\",\"item_id\":\"rs_1\"}},"
                + "{\"type\":\"text\",\"text\":\"Sunny in Paris.\"}],"
                + "\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\",\"finish_reason\":\"stop\","
                + "\"raw_finish_reason\":\"end_turn\",\"usage\":{\"input_tokens\":10,\"output_tokens\":50,\"reasoning_tokens\":30}}");
        assertThat(MessageJson.read(json)).isEqualTo(interleaved());
    }

    @Test
    void emptyReasoningIsLeftOutAndAnAnswerOnlyMessageIsPlain() {
        String json = MessageJson.write(AssistantMessage.ofText("Hello"));
        assertThat(json).doesNotContain("reasoning_content").doesNotContain("tool_calls").isEqualTo(
                "{\"role\":\"assistant\",\"content\":\"Hello\",\"parts\":[{\"type\":\"text\",\"text\":\"Hello\"}],\"finish_reason\":\"stop\"}");
        AssistantMessage redactedOnly = new AssistantMessage(List.of(
                new ReasoningPart("", false, null, new Seals(null, "REDACTED-BLOB", null, null, null)), TextPart.of("Hi")),
                null, null, FinishReason.STOP, null, Usage.UNKNOWN);
        assertThat(MessageJson.write(redactedOnly)).doesNotContain("reasoning_content");
    }

    @Test
    void opaqueStateIsNeverReasoningTextAndTheClientFormLeavesItOut() {
        AssistantMessage m = interleaved();
        String stored = MessageJson.write(m);
        AssistantMessage read = (AssistantMessage) MessageJson.read(stored);
        assertThat(read.reasoning()).doesNotContain("SIG-abc", "REDACTED-BLOB", "gAAAA-ENC");

        String client = MessageJson.writeForClient(m);
        assertThat(client).doesNotContain("provider_state", "SIG-abc", "REDACTED-BLOB", "gAAAA-ENC", "rs_1")
                .contains("\"reasoning_content\":\"I should check the weather.It is sunny.\"");
        AssistantMessage fromClient = (AssistantMessage) MessageJson.read(client);
        assertThat(fromClient.parts()).allSatisfy(p -> assertThat(p.seals()).isEqualTo(Seals.NONE));
        assertThat(fromClient.reasoning()).isEqualTo(m.reasoning());
        assertThat(MessageJson.writeAll(List.of(new UserMessage("q"), m), ProviderState.OMIT)).doesNotContain("SIG-abc");
    }

    @Test
    void theServerFormKeepsProvenanceSoAStoredConversationReloadsWithItAndTheClientFormOmitsIt() {
        Origin origin = new Origin("openai", "responses", "api.openai.com/v1", "0123456789abcdef");
        AssistantMessage m = new AssistantMessage(List.of(
                new ReasoningPart("Sum.", true, "summary_text",
                        ENCRYPTED.withProvenance(new Provenance(origin, "gpt-5", 0, true))),
                new ReasoningPart("", false, null, SIGNED.withProvenance(
                        new Provenance(new Origin("bedrock", "bedrock-converse", "bedrock-runtime.us-east-1.amazonaws.com", null),
                                null, 1, false))),
                TextPart.of("Done.")), "openai", "gpt-5", FinishReason.STOP, "completed", Usage.UNKNOWN);

        String stored = MessageJson.write(m);

        assertThat(stored).contains("\"provider_state\":{\"encrypted\":\"gAAAA-ENC\",\"item_id\":\"rs_1\",\"provenance\":{"
                + "\"provider\":\"openai\",\"api\":\"responses\",\"endpoint\":\"api.openai.com/v1\","
                + "\"account\":\"0123456789abcdef\",\"model\":\"gpt-5\",\"block\":0,\"finished\":true}}");
        // null account and model are left out
        assertThat(stored).contains("\"provenance\":{\"provider\":\"bedrock\",\"api\":\"bedrock-converse\","
                + "\"endpoint\":\"bedrock-runtime.us-east-1.amazonaws.com\",\"block\":1,\"finished\":false}");
        assertThat(MessageJson.read(stored)).isEqualTo(m);
        assertThat(MessageJson.readAll(MessageJson.writeAll(List.of(new UserMessage("q"), m))))
                .containsExactly(new UserMessage("q"), m);
        String client = MessageJson.writeForClient(m);
        assertThat(client).doesNotContain("provenance", "0123456789abcdef", "api.openai.com", "provider_state");
    }

    @Test
    void provenanceWithoutItsFinishedFlagReadsAsUnfinished() {
        String json = "{\"role\":\"assistant\",\"content\":\"\",\"parts\":[{\"type\":\"reasoning\",\"text\":\"\","
                + "\"provider_state\":{\"signature\":\"S\",\"provenance\":{\"provider\":\"p\",\"api\":\"a\","
                + "\"endpoint\":\"e\",\"block\":0}}}]}";
        AssistantMessage m = (AssistantMessage) MessageJson.read(json);
        assertThat(m.parts().get(0).seals().provenance()).isEqualTo(new Provenance(new Origin("p", "a", "e", null), null, 0, false));
        assertThatThrownBy(() -> MessageJson.read(json.replace("\"api\":\"a\",", "")))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("api");
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomConversationsRoundTrip(long seed) {
        Samples samples = new Samples(seed);
        List<Message> conversation = new ArrayList<>();
        int n = 1 + (int) (seed % 6);
        for (int i = 0; i < n; i++) {
            conversation.add(samples.message());
        }
        String json = MessageJson.writeAll(conversation);
        assertThat(json).doesNotContain("\n");
        assertThat(MessageJson.readAll(json)).as(json).isEqualTo(conversation);
        for (Message m : conversation) {
            assertThat(MessageJson.read(MessageJson.write(m))).isEqualTo(m);
            if (m instanceof AssistantMessage a) {
                assertThat(MessageJson.writeForClient(a)).doesNotContain("provider_state").doesNotContain("\"block\"")
                        .doesNotContain("provenance");
            }
        }
    }

    @Test
    void readsAThoughtString() {
        assertLegacy("{\"role\":\"assistant\",\"content\":\"4\",\"thought\":\"2+2 is 4\"}", "2+2 is 4", "4");
    }

    @Test
    void readsAThoughtObjectWithTextAndReasoningContent() {
        assertLegacy("{\"role\":\"assistant\",\"content\":\"4\",\"thought\":{\"text\":\"2+2 is 4\",\"reasoning_content\":\"2+2 is 4\"}}",
                "2+2 is 4", "4");
        assertLegacy("{\"role\":\"assistant\",\"content\":\"4\",\"thought\":{\"text\":\"2+2 is 4\"}}", "2+2 is 4", "4");
        assertLegacy("{\"role\":\"assistant\",\"content\":\"4\",\"thought\":{\"text\":\"\",\"reasoning_content\":\"sum\"}}", "sum", "4");
    }

    @Test
    void readsReasoningContentBesideAThoughtWithoutDoublingIt() {
        assertLegacy("{\"role\":\"assistant\",\"content\":\"4\",\"thought\":\"2+2 is 4\",\"reasoning_content\":\"2+2 is 4\"}",
                "2+2 is 4", "4");
        assertLegacy("{\"role\":\"assistant\",\"content\":\"4\",\"reasoning_content\":\"2+2 is 4\"}", "2+2 is 4", "4");
        assertLegacy("{\"role\":\"assistant\",\"content\":\"4\",\"reasoning_content\":\"\",\"thought\":\"old\"}", "old", "4");
    }

    @Test
    void readsPlainAssistantShapesWithToolCalls() {
        AssistantMessage m = (AssistantMessage) MessageJson.read("{\"role\":\"assistant\",\"content\":null,"
                + "\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}},"
                + "{\"id\":\"call_2\",\"name\":\"g\",\"arguments\":{\"b\": [2]}},{\"name\":\"h\",\"arguments\":\"{broken\"}]}");
        assertThat(m.parts()).containsExactly(
                new ToolCallPart("call_1", "f", "{\"a\":1}", true, Seals.NONE),
                new ToolCallPart("call_2", "g", "{\"b\": [2]}", true, Seals.NONE),
                new ToolCallPart(null, "h", "{broken", false, Seals.NONE));
        assertThat(m.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(MessageJson.read("{\"role\":\"developer\",\"content\":[{\"type\":\"input_text\",\"text\":\"a\"},"
                + "{\"type\":\"input_text\",\"text\":\"b\"}]}")).isEqualTo(new SystemMessage("ab"));
    }

    private static void assertLegacy(String json, String reasoning, String answer) {
        AssistantMessage m = (AssistantMessage) MessageJson.read(json);
        assertThat(m.parts()).containsExactly(new ReasoningPart(reasoning, false, "reasoning_content", Seals.NONE),
                TextPart.of(answer));
        // written again, it takes the current shape
        assertThat(MessageJson.write(m)).contains("\"reasoning_content\":" + "\"" + reasoning + "\"").doesNotContain("thought");
    }

    @Test
    void serverToolBlocksKeepTheirBytes() {
        String block = "{\"type\":\"web_search_call\", \"id\":\"ws_1\",\"action\":{\"query\":\"q\"}}";
        AssistantMessage m = new AssistantMessage(List.of(new ServerToolPart("web_search_call", "ws_1", null, block, Seals.NONE)),
                "openai-responses", null, FinishReason.STOP, null, Usage.UNKNOWN);
        AssistantMessage read = (AssistantMessage) MessageJson.read(MessageJson.write(m));
        assertThat(((ServerToolPart) read.parts().get(0)).json()).isEqualTo(block);
        // the client form names the block but leaves its provider JSON out
        assertThat(MessageJson.writeForClient(m)).contains("\"block_type\":\"web_search_call\"").doesNotContain("\"block\"");
    }

    @Test
    void writesAResultWithItsReasoningCheck() {
        String json = MessageJson.write(new ChatResult(AssistantMessage.ofText("x"), ReasoningCheck.UNAVAILABLE), ProviderState.OMIT);
        assertThat(json).startsWith("{\"message\":{\"role\":\"assistant\"")
                .endsWith("\"reasoning_check\":{\"verdict\":\"unavailable\",\"checked_parts\":0}}");
        ChatResult signed = new ChatResult(interleaved(), ReasoningCheck.UNAVAILABLE);
        assertThat(MessageJson.write(signed)).contains("SIG-abc");
        assertThat(MessageJson.write(signed, ProviderState.OMIT)).doesNotContain("SIG-abc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{\"role\":", "[]", "{\"content\":\"x\"}", "{\"role\":\"sk-SECRET\"}",
        "{\"role\":\"user\",\"content\":42}", "{\"role\":\"tool\",\"content\":\"x\"}",
        "{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"sk-SECRET\"}]}",
        "{\"role\":\"assistant\",\"parts\":[\"sk-SECRET\"]}",
        "{\"role\":\"assistant\",\"thought\":17}",
        "{\"role\":\"assistant\",\"parts\":[{\"type\":\"reasoning\",\"text\":\"t\",\"provider_state\":{\"encrypted\":5}}]}",
        "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c\",\"function\":{\"arguments\":\"{}\"}}]}"})
    void badInputIsATypedErrorThatQuotesNoValue(String json) {
        assertThatThrownBy(() -> MessageJson.read(json))
                .isInstanceOf(ProtocolException.class)
                .hasMessageNotContaining("SECRET");
    }

    @Test
    void shapeErrorsSayWhere() {
        assertThatThrownBy(() -> MessageJson.readAll("[{\"role\":\"user\",\"content\":\"a\"},"
                + "{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"arguments\":\"{}\"}]}]"))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("[1].parts[0].name is required");
        assertThatThrownBy(() -> MessageJson.readAll("{\"role\":\"user\"}"))
                .hasMessageContaining("must be a JSON array");
        assertThatThrownBy(() -> MessageJson.read("{\"role\":\"user\",\n\"content\":\"a\"\n,}"))
                .isInstanceOf(ProtocolException.class)
                .satisfies(e -> assertThat(((ProtocolException) e).line()).isEqualTo(3));
    }
}
