package dev.ruminate.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.json.EventJson;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.core.think.ThinkTags;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * The {@link OutputChecked} event: its final verdict becomes {@link ChatResult#output()}; a verdict
 * that refuses the answer starts the message over (parts and their reasoning check discarded,
 * warnings kept, usage summed); snapshots taken before the restart keep the refused answer; the
 * wire JSON writes it as {@code output.checked}.
 */
class OutputCheckedTest {

    private static final String VALID = "{\"city\":\"Oslo\"}";
    private static final OutputChecked REFUSED = new OutputChecked("weather", StructuredOutputMethod.TOOL_AUTO, false,
            List.of("$: the answer is not JSON"), true, "Cold.");
    private static final OutputChecked ACCEPTED = new OutputChecked("weather", StructuredOutputMethod.TOOL_AUTO, true,
            List.of(), false, VALID);
    private static final Warning RETRIED = new Warning(Warning.STRUCTURED_OUTPUT_RETRIED, "asked once more");

    /** A refused first answer (with signed reasoning and a mismatching final) and an accepted second one. */
    private static Flux<ChatEvent> retried() {
        return Flux.just(new ResponseStarted("p", "m-1", "r-1"),
                new ReasoningDelta(0, "Think.", false, "reasoning_content"), new Seal(0, Seal.Kind.SIGNATURE, "sig"),
                new ReasoningFinal(0, "Other."),
                new ContentDelta(1, "Cold."), new PartEnded(1),
                new UsageUpdate(new Usage(10L, 5L, 2L, 4L, null)),
                REFUSED, RETRIED,
                new ResponseStarted("p", "m-2", "r-2"), new ContentDelta(0, VALID),
                new UsageUpdate(new Usage(30L, 7L, null, 6L, 1L)),
                ACCEPTED, new ResponseCompleted(FinishReason.STOP, "stop"));
    }

    @Test
    void aRefusedAnswerIsDiscardedAndTheSecondIsTheResult() {
        ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(retried()).block(Duration.ofSeconds(5)));

        assertThat(result.message().parts()).hasSize(1);
        assertThat(result.message().text()).isEqualTo(VALID);
        assertThat(result.message().reasoning()).isEmpty();
        assertThat(result.message().model()).isEqualTo("m-2");
        // the first answer's reasoning mismatch went with it
        assertThat(result.reasoningCheck()).isEqualTo(ReasoningCheck.UNAVAILABLE);
        assertThat(result.warnings()).containsExactly(RETRIED);
        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.TOOL_AUTO, true,
                List.of(), 2, VALID));
    }

    @Test
    void theRetriedAnswerStartsAFreshPartWhereTheRefusedOneEnded() {
        // Both attempts write text to part 0, so the retried answer's first delta goes to the index and kind of the
        // refused answer's last one: it must start a new part, not extend the discarded one.
        Flux<ChatEvent> sameIndex = Flux.just(new ResponseStarted("p", "m-1", "r-1"), new ContentDelta(0, "Cold."),
                REFUSED, RETRIED,
                new ResponseStarted("p", "m-2", "r-2"), new ContentDelta(0, "{\"city\":"), new ContentDelta(0, "\"Oslo\"}"),
                ACCEPTED, new ResponseCompleted(FinishReason.STOP, "stop"));

        ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(sameIndex).block(Duration.ofSeconds(5)));

        assertThat(result.message().parts()).hasSize(1);
        assertThat(result.message().text()).isEqualTo(VALID);
    }

    @Test
    void usageIsSummedOverBothAttempts() {
        ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(retried()).block(Duration.ofSeconds(5)));

        assertThat(result.message().usage()).isEqualTo(new Usage(40L, 12L, 2L, 10L, 1L));
    }

    @Test
    void aSingleVerdictIsOneAttempt() {
        ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(Flux.just(
                new ResponseStarted("p", "m", null), new ContentDelta(0, "{}"),
                new OutputChecked("weather", StructuredOutputMethod.NATIVE, false, List.of("$: required property 'city' not found"),
                        false, "{}"),
                new ResponseCompleted(FinishReason.STOP, null))).block(Duration.ofSeconds(5)));

        assertThat(result.output()).isEqualTo(new StructuredOutput("weather", StructuredOutputMethod.NATIVE, false,
                List.of("$: required property 'city' not found"), 1, "{}"));
        assertThat(result.message().text()).isEqualTo("{}");
    }

    @Test
    void withoutAVerdictThereIsNoOutput() {
        ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(Flux.just(
                new ResponseStarted("p", "m", null), new ContentDelta(0, "Hi"), new ResponseCompleted(FinishReason.STOP, null)))
                .block(Duration.ofSeconds(5)));

        assertThat(result.output()).isNull();
    }

    @Test
    void snapshotsBeforeTheRestartKeepTheRefusedAnswer() {
        List<ChatSnapshot> snapshots = ChatReducer.defaults().snapshots(retried()).collectList().block(Duration.ofSeconds(5));

        ChatSnapshot beforeVerdict = Objects.requireNonNull(snapshots).get(6);
        ChatSnapshot atRestart = snapshots.get(7);
        ChatSnapshot afterRestart = snapshots.get(10);
        // read after the whole flux ran: the restart replaced the parts, it did not clear the old ones
        AssistantMessage refused = beforeVerdict.message();
        assertThat(refused.text()).isEqualTo("Cold.");
        assertThat(refused.reasoning()).isEqualTo("Think.");
        assertThat(atRestart.message().parts()).isEmpty();
        assertThat(atRestart.message().usage()).isEqualTo(new Usage(10L, 5L, 2L, 4L, null));
        assertThat(afterRestart.message().text()).isEqualTo(VALID);
        ChatResult last = snapshots.get(snapshots.size() - 1).result();
        assertThat(Objects.requireNonNull(last).output()).isNotNull();
    }

    @Test
    void theWireJsonWritesItAndReadsItBack() {
        String json = EventJson.write(REFUSED);
        assertThat(json).isEqualTo("{\"type\":\"output.checked\",\"schema\":\"weather\",\"method\":\"tool_auto\","
                + "\"valid\":false,\"violations\":[\"$: the answer is not JSON\"],\"retrying\":true,\"json\":\"Cold.\"}");
        assertThat(EventJson.read(json)).isEqualTo(REFUSED);
        assertThat(EventJson.write(ACCEPTED)).doesNotContain("retrying");
        assertThat(EventJson.read(EventJson.write(ACCEPTED))).isEqualTo(ACCEPTED);
        OutputChecked none = new OutputChecked("weather", StructuredOutputMethod.INSTRUCTION, false,
                List.of("$: there is no answer text"), false);
        assertThat(EventJson.write(none)).doesNotContain("\"json\"");
        assertThat(EventJson.read(EventJson.write(none))).isEqualTo(none);
        assertThat(EventJson.type(ACCEPTED)).isEqualTo("output.checked");
    }

    @Test
    void thinkTagSplittingPassesItThrough() {
        List<ChatEvent> split = Flux.<ChatEvent>just(new ResponseStarted("p", "m", null), new ContentDelta(0, VALID), ACCEPTED,
                new ResponseCompleted(FinishReason.STOP, null)).transform(ThinkTags.splitter(ThinkTagOptions.DEFAULT))
                .collectList().block();

        assertThat(split).contains(ACCEPTED);
    }

    @Test
    void aValidVerdictHasNoViolationsAndIsNotRetried() {
        assertThatThrownBy(() -> new OutputChecked("w", StructuredOutputMethod.NATIVE, true, List.of("x"), false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputChecked("w", StructuredOutputMethod.NATIVE, true, List.of(), true))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StructuredOutput("w", StructuredOutputMethod.NATIVE, true, List.of(), 0, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
