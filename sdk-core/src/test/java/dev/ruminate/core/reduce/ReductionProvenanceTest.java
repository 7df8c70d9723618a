package dev.ruminate.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Provenance;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/** The provenance the reducer records on sealed parts: origin, model, block, and whether the block finished. */
class ReductionProvenanceTest {

    private static final Origin ORIGIN = new Origin("anthropic", "anthropic-messages", "api.anthropic.com", "0123456789abcdef");
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** Reasoning signed and ended, text without state, a call with an item id whose end is still to come. */
    private static List<ChatEvent> events(boolean withOrigin) {
        ResponseStarted started = new ResponseStarted("anthropic", "claude-x", "msg_1");
        return new ArrayList<>(List.of(withOrigin ? started.withOrigin(ORIGIN) : started,
                new ReasoningDelta(0, "Plan.", false, "thinking"),
                new Seal(0, Seal.Kind.SIGNATURE, "sig-0"),
                new PartEnded(0),
                new ContentDelta(1, "Calling."),
                new PartEnded(1),
                new ToolCallDelta(2, 0, "call_1", "f", "{}"),
                new Seal(2, Seal.Kind.ITEM_ID, "fc_1")));
    }

    private static RuminateException failure(List<ChatEvent> events) {
        try {
            ChatReducer.defaults().reduce(Flux.fromIterable(events).concatWith(Flux.error(new IOException("reset")))).block(WAIT);
        } catch (RuminateException e) {
            return e;
        }
        throw new AssertionError("the reduction did not fail");
    }

    @Test
    void aCompletedResponseFinishesEverySealedPartAndLeavesUnsealedOnesAlone() {
        List<ChatEvent> events = events(true);
        events.add(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"));

        AssistantMessage m = Objects.requireNonNull(ChatReducer.defaults().reduce(Flux.fromIterable(events)).block(WAIT)).message();

        assertThat(m.parts().get(0).seals().provenance()).isEqualTo(new Provenance(ORIGIN, "claude-x", 0, true));
        assertThat(m.parts().get(1).seals().provenance()).isNull();
        // its end never came, but the response completed: nothing of it is cut short
        assertThat(m.parts().get(2).seals().provenance()).isEqualTo(new Provenance(ORIGIN, "claude-x", 2, true));
        assertThat(m.parts().get(0).seals().signature()).isEqualTo("sig-0");
    }

    @Test
    void aPartialMarksTheSealedPartWhoseBlockNeverEndedUnfinished() {
        AssistantMessage partial = failure(events(true)).partial();

        assertThat(Objects.requireNonNull(partial).parts().get(0).seals().provenance())
                .isEqualTo(new Provenance(ORIGIN, "claude-x", 0, true));
        assertThat(partial.parts().get(2).seals().provenance()).isEqualTo(new Provenance(ORIGIN, "claude-x", 2, false));
    }

    @Test
    void withoutAnOriginSealsStayAsTheyCame() {
        List<ChatEvent> events = events(false);
        events.add(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"));

        AssistantMessage m = Objects.requireNonNull(ChatReducer.defaults().reduce(Flux.fromIterable(events)).block(WAIT)).message();

        assertThat(m.parts()).allSatisfy(p -> assertThat(p.seals().provenance()).isNull());
        assertThat(Objects.requireNonNull(failure(events(false)).partial()).parts())
                .allSatisfy(p -> assertThat(p.seals().provenance()).isNull());
    }

    @Test
    void stateThatArrivesAfterItsPartEndedIsFinishedAndTheBlockIsThePositionInTheMessage() {
        // Responses: a summary part ends, then the item's done event brings its id and encrypted content;
        // part indices with a hole (no part 1) still give blocks by position in the message
        Reduction r = ChatReducer.defaults().start();
        r.accept(new ResponseStarted("openai", "gpt-5", "resp_1").withOrigin(ORIGIN));
        r.accept(new ReasoningDelta(0, "Sum.", true, "summary_text"));
        r.accept(new PartEnded(0));
        r.accept(new Seal(0, Seal.Kind.ITEM_ID, "rs_1"));
        r.accept(new Seal(0, Seal.Kind.ENCRYPTED, "ENC"));
        r.accept(new Seal(2, Seal.Kind.ENCRYPTED, "ENC-HIDDEN"));

        AssistantMessage partial = r.partial();

        assertThat(partial.parts()).hasSize(2);
        assertThat(partial.parts().get(0).seals().provenance()).isEqualTo(new Provenance(ORIGIN, "gpt-5", 0, true));
        assertThat(partial.parts().get(1).seals().provenance()).isEqualTo(new Provenance(ORIGIN, "gpt-5", 1, false));
        r.accept(new PartEnded(2));
        assertThat(r.partial().parts().get(1).seals().provenance()).isEqualTo(new Provenance(ORIGIN, "gpt-5", 1, true));
        assertThatThrownBy(r::finish).isInstanceOf(IncompleteStreamException.class);
    }

    @Test
    void aSnapshotBeforeTheEndShowsTheSealedPartUnfinishedAndTheLastOneFinished() {
        List<ChatEvent> events = events(true);
        events.add(new PartEnded(2));
        events.add(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"));

        List<ChatSnapshot> snapshots = ChatReducer.defaults().snapshots(Flux.fromIterable(events)).collectList().block(WAIT);
        List<AssistantMessage> messages = Objects.requireNonNull(snapshots).stream().map(ChatSnapshot::message).toList();

        // read after the flux ended: state and ends as they are then, completion as it was at the snapshot
        assertThat(messages.get(2).parts().get(0).seals().provenance()).isEqualTo(new Provenance(ORIGIN, "claude-x", 0, true));
        assertThat(messages.get(messages.size() - 1).parts().get(2).seals().provenance())
                .isEqualTo(new Provenance(ORIGIN, "claude-x", 2, true));
    }

    @Test
    void aSnapshotReadAtOnceShowsAnOpenSealedBlockUnfinished() {
        List<ChatEvent> events = events(true);
        events.add(new ResponseCompleted(FinishReason.TOOL_CALLS, "tool_use"));
        List<Boolean> finished = new ArrayList<>();

        ChatReducer.defaults().snapshots(Flux.fromIterable(events))
                .doOnNext(s -> {
                    AssistantMessage m = s.message();
                    if (!m.parts().isEmpty() && m.parts().get(0).seals().provenance() != null) {
                        finished.add(Objects.requireNonNull(m.parts().get(0).seals().provenance()).finished());
                    }
                })
                .blockLast(WAIT);

        // after the seal: not yet ended; after PartEnded(0) and on: ended
        assertThat(finished).containsExactly(false, true, true, true, true, true, true);
    }
}
