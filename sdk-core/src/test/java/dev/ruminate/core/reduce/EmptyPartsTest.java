package dev.ruminate.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * No message the reducer builds holds a text or reasoning part with empty text and no opaque state
 * (Bedrock rejects an empty text block sent back); parts with empty text and a seal stay, and so do
 * tool calls without arguments.
 */
class EmptyPartsTest {

    private static final ResponseStarted START = new ResponseStarted("test", "m-1", "resp-1");

    /** A stream that opens with an empty text block, has an empty reasoning block, a signed empty thinking block and a call without arguments. */
    private static final List<ChatEvent> EVENTS = List.of(
            START,
            new ContentDelta(0, ""),
            new PartEnded(0),
            new ReasoningDelta(1, "", false, "thinking"),
            new PartEnded(1),
            new ReasoningDelta(2, "", false, "thinking"),
            new Seal(2, Seal.Kind.SIGNATURE, "sig-omitted"),
            new PartEnded(2),
            new ContentDelta(3, "Hello"),
            new ToolCallDelta(4, 0, "call_1", "now", ""),
            new ContentDelta(5, ""),
            new Seal(5, Seal.Kind.SIGNATURE, "sig-trailing"));

    private static final List<Part> KEPT = List.of(
            new ReasoningPart("", false, "thinking", new Seals("sig-omitted", null, null, null, null)),
            TextPart.of("Hello"),
            new ToolCallPart("call_1", "now", "", true, Seals.NONE),
            new TextPart("", new Seals("sig-trailing", null, null, null, null)));

    @Test
    void theResultLeavesOutEmptyUnsealedPartsAndKeepsSealedOnesAndCalls() {
        ChatResult result = ChatReducer.defaults().reduce(Flux.fromIterable(EVENTS)
                .concatWithValues(new ResponseCompleted(FinishReason.STOP, "end_turn"))).block();

        assertThat(result).isNotNull();
        assertThat(result.message().parts()).isEqualTo(KEPT);
    }

    @Test
    void aPartialMessageLeavesThemOutToo() {
        RuminateException failure = null;
        try {
            ChatReducer.defaults().reduce(Flux.fromIterable(EVENTS)).block();
        } catch (IncompleteStreamException e) {
            failure = e;
        }

        assertThat(failure).isNotNull();
        AssistantMessage partial = failure.partial();
        assertThat(partial).isNotNull();
        assertThat(partial.parts()).isEqualTo(KEPT);
    }

    @Test
    void snapshotsShowAPartOnceItHasTextOrAState() {
        List<AssistantMessage> messages = ChatReducer.defaults().snapshots(Flux.fromIterable(EVENTS)
                        .concatWithValues(new ResponseCompleted(FinishReason.STOP, "end_turn")))
                .map(ChatSnapshot::message).collectList().block();

        assertThat(messages).isNotNull().allSatisfy(m -> assertThat(m.parts()).noneMatch(EmptyPartsTest::emptyAndUnsealed));
        // after the opening empty text block: nothing yet
        assertThat(messages.get(1).parts()).isEmpty();
        assertThat(messages.get(messages.size() - 1).parts()).isEqualTo(KEPT);
    }

    @Test
    void aReasoningPartWithOnlyAFinalTextIsKept() {
        ChatResult result = ChatReducer.defaults().reduce(Flux.just(START, new ReasoningFinal(0, "whole thought"),
                new ContentDelta(1, "answer"), new ResponseCompleted(FinishReason.STOP, "stop"))).block();

        assertThat(result).isNotNull();
        assertThat(result.message().parts()).extracting(Part::getClass).containsExactly(ReasoningPart.class, TextPart.class);
    }

    static boolean emptyAndUnsealed(Part part) {
        return part instanceof TextPart t && t.text().isEmpty() && t.seals().isEmpty()
                || part instanceof ReasoningPart r && r.text().isEmpty() && r.seals().isEmpty();
    }
}
