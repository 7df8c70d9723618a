package dev.ruminate.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.json.EventJson;
import dev.ruminate.core.json.ProviderState;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.core.think.ThinkTags;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * The {@link Warning} event: reduced into {@link ChatResult#warnings()} beside the message, written
 * in the wire JSON under {@code warning} in both forms, passed through think-tag splitting with its
 * indices unchanged (they index the request's messages, not the response's parts).
 */
class WarningTest {

    private static final Warning WARNING = new Warning(Warning.OPAQUE_STATE_RECOVERED,
            "retried once without the signature of message 1, part 0", 1, 0);

    private static Flux<ChatEvent> answer() {
        return Flux.just(WARNING, new ResponseStarted("p", "m", null), new ContentDelta(0, "Hi."), new PartEnded(0),
                new ResponseCompleted(FinishReason.STOP, null));
    }

    @Test
    void theResultListsTheWarningsBesideAnUntouchedMessage() {
        ChatResult result = ChatReducer.defaults().reduce(answer()).block(Duration.ofSeconds(5));

        assertThat(result.warnings()).containsExactly(WARNING);
        assertThat(result.message().text()).isEqualTo("Hi.");
        assertThat(result.message().parts()).hasSize(1);
        assertThat(ChatReducer.defaults().reduce(answer().skip(1)).block(Duration.ofSeconds(5)).warnings()).isEmpty();
    }

    @Test
    void theWireJsonWritesItInBothFormsAndReadsItBack() {
        String json = EventJson.write(WARNING);
        assertThat(json).isEqualTo("{\"type\":\"warning\",\"code\":\"opaque-state-recovered\","
                + "\"message\":\"retried once without the signature of message 1, part 0\",\"turn\":1,\"part\":0}");
        assertThat(EventJson.read(json)).isEqualTo(WARNING);
        Warning general = new Warning("option-ignored", "temperature is ignored by this model");
        assertThat(EventJson.write(general)).doesNotContain("turn", "part");
        assertThat(EventJson.read(EventJson.write(general))).isEqualTo(general);

        List<SseFrame> client = EventJson.toSse(Flux.just(WARNING), ProviderState.OMIT).collectList().block();
        assertThat(client).singleElement().satisfies(f -> {
            assertThat(f.event()).isEqualTo("warning");
            assertThat(f.data()).isEqualTo(json);
        });
    }

    @Test
    void thinkTagSplittingPassesItThroughWithItsIndices() {
        List<ChatEvent> split = answer().transform(ThinkTags.splitter(ThinkTagOptions.DEFAULT)).collectList().block();

        assertThat(split).first().isSameAs(WARNING);
    }

    @Test
    void aWarningNeedsACode() {
        assertThatThrownBy(() -> new Warning(" ", "m")).isInstanceOf(IllegalArgumentException.class);
    }
}
