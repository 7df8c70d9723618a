package dev.ruminate.core.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.loop.Tool;
import dev.ruminate.core.loop.ToolLoop;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@link UiChat} stores: the whole turn (every step of a tool loop with the tool results between them, opaque
 * state included) under the message id the page was given, and nothing for a turn that failed; and that the stored
 * turn is what the next request sends the model.
 */
class UiChatTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SIGNATURE = "SIG-kept-on-the-server-0123456789";

    /** A provider that answers the first call with signed reasoning and a tool call, later calls with text. */
    private static final class TwoStepProvider implements ChatProvider {
        final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public Flux<ChatEvent> stream(ChatRequest request) {
            requests.add(request);
            if (requests.size() % 2 == 1) {
                return Flux.just(new ResponseStarted("scripted", "m", null),
                        new ReasoningDelta(0, "Look it up.", false, "thinking"),
                        new Seal(0, Seal.Kind.SIGNATURE, SIGNATURE), new PartEnded(0),
                        new ToolCallDelta(1, 0, "call_1", "lookup", "{\"q\":\"x\"}"), new PartEnded(1),
                        new ResponseCompleted(FinishReason.TOOL_CALLS, null));
            }
            return Flux.just(new ResponseStarted("scripted", "m", null), new ContentDelta(0, "It is 42."),
                    new ResponseCompleted(FinishReason.STOP, null));
        }

        @Override
        public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
            return stream(request);
        }
    }

    private static String firstTurn(String chatId) {
        return "{\"id\":\"" + chatId + "\",\"trigger\":\"submit-message\",\"messages\":["
                + "{\"id\":\"u1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"What is it?\"}]}]}";
    }

    /** The second request a page sends: its own copy of the answer (no signature) under the id it was given. */
    private static String secondTurn(String chatId, String answerId) {
        return "{\"id\":\"" + chatId + "\",\"trigger\":\"submit-message\",\"messages\":["
                + "{\"id\":\"u1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"What is it?\"}]},"
                + "{\"id\":\"" + answerId + "\",\"role\":\"assistant\",\"parts\":[{\"type\":\"step-start\"},"
                + "{\"type\":\"reasoning\",\"text\":\"Look it up.\",\"state\":\"done\"},"
                + "{\"type\":\"dynamic-tool\",\"toolName\":\"lookup\",\"toolCallId\":\"call_1\","
                + "\"state\":\"output-available\",\"input\":{\"q\":\"x\"},\"output\":\"42\"},"
                + "{\"type\":\"step-start\"},{\"type\":\"text\",\"text\":\"It is 42.\",\"state\":\"done\"}]},"
                + "{\"id\":\"u2\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"Sure?\"}]}]}";
    }

    private static List<JsonNode> chunks(Flux<String> data) {
        return data.filter(d -> !d.equals(UiMessageStream.DONE)).map(JSON::readTree).collectList()
                .block(Duration.ofSeconds(10));
    }

    @Test
    void aToolLoopRunIsStoredWholeUnderTheMessageIdAndGoesBackWithItsSignature() {
        TwoStepProvider provider = new TwoStepProvider();
        ToolLoop loop = ToolLoop.builder(provider)
                .tool(Tool.blocking(new ToolDefinition("lookup", "Looks it up.", "{\"type\":\"object\"}"), call -> "42"))
                .build();
        ServerTurns turns = ServerTurns.inMemory(8);

        List<JsonNode> out = chunks(UiChat.answerWithTools(UiChatRequest.read(firstTurn("chat-1"), turns), loop,
                messages -> ChatRequest.builder("m").messages(messages).build(), turns));

        String messageId = out.get(0).path("messageId").asString();
        assertThat(out.get(0).path("type").asString()).isEqualTo("start");
        assertThat(out.toString()).doesNotContain(SIGNATURE);
        List<Message> stored = turns.find("chat-1", messageId).orElseThrow();
        assertThat(stored).hasSize(3);
        AssistantMessage step1 = (AssistantMessage) stored.get(0);
        assertThat(step1.parts().get(0).seals().signature()).isEqualTo(SIGNATURE);
        assertThat(((ToolResultMessage) stored.get(1)).toolCallId()).isEqualTo("call_1");
        assertThat(((AssistantMessage) stored.get(2)).text()).isEqualTo("It is 42.");

        // the next turn: the page's copy (without the signature) is replaced by the stored run
        UiChatRequest next = UiChatRequest.read(secondTurn("chat-1", messageId), turns);
        assertThat(next.restored()).isEqualTo(1);
        assertThat(next.messages()).hasSize(5);
        assertThat(next.messages().subList(1, 4)).isEqualTo(stored);
        assertThat(next.messages().get(4)).isEqualTo(new UserMessage("Sure?"));
        chunks(UiChat.answerWithTools(next, loop, messages -> ChatRequest.builder("m").messages(messages).build(),
                turns));
        ChatRequest sent = provider.requests.get(2);
        assertThat(((AssistantMessage) sent.messages().get(1)).parts().get(0).seals().signature())
                .isEqualTo(SIGNATURE);
    }

    @Test
    void aFailedAnswerIsNotStored() {
        ChatProvider failing = new ChatProvider() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public Flux<ChatEvent> stream(ChatRequest request) {
                return Flux.concat(Flux.just(new ResponseStarted("failing", "m", null), new ContentDelta(0, "Par")),
                        Flux.error(new IncompleteStreamException("the connection closed", null)));
            }

            @Override
            public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
                return stream(request);
            }
        };
        ServerTurns turns = ServerTurns.inMemory(8);

        List<JsonNode> out = chunks(UiChat.answer(UiChatRequest.read(firstTurn("chat-2"), turns), failing,
                messages -> ChatRequest.builder("m").messages(messages).build(), turns));

        String messageId = out.get(0).path("messageId").asString();
        assertThat(out.get(out.size() - 1).path("type").asString()).isEqualTo("error");
        assertThat(turns.find("chat-2", messageId)).isEmpty();
    }
}
