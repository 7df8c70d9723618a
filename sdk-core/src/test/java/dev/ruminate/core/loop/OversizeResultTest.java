package dev.ruminate.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.loop.LoopEvent.StepCompleted;
import dev.ruminate.core.loop.LoopEvent.ToolFinished;
import dev.ruminate.core.loop.ScriptedProvider.Turn;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/** {@link OversizeResultPolicy#FAIL}: a result over the limit fails the call instead of being cut. */
class OversizeResultTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static ToolLoop loop(ScriptedProvider provider, ToolErrorPolicy errors) {
        return ToolLoop.builder(provider)
                .blockingTool(new ToolDefinition("big", "a big result", "{\"type\":\"object\"}"), call -> "x".repeat(50))
                .blockingTool(new ToolDefinition("fits", "a result at the limit", "{\"type\":\"object\"}"), call -> "y".repeat(20))
                .options(LoopOptions.builder().maxResultChars(20).oversizeResults(OversizeResultPolicy.FAIL)
                        .errorPolicy(errors).build())
                .build();
    }

    @Test
    void anOversizeResultGoesBackAsAClearErrorNotCut() {
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "big", "{}").toolCall("c2", "fits", "{}"), Turn.create().text("ok"));

        List<LoopEvent> events = loop(provider, ToolErrorPolicy.RETURN_TO_MODEL).run(ChatRequest.builder("m").user("go").build())
                .collectList().block(WAIT);

        List<ToolResultMessage> results = events.stream().filter(e -> e instanceof StepCompleted)
                .map(e -> (StepCompleted) e).findFirst().orElseThrow().toolResults();
        assertThat(results.get(0).error()).isTrue();
        assertThat(results.get(0).content()).contains("returned 50 characters, over the limit of 20").doesNotContain("x");
        assertThat(results.get(1)).isEqualTo(new ToolResultMessage("c2", "fits", "y".repeat(20), false));
        assertThat(events).filteredOn(e -> e instanceof ToolFinished f && f.call().id().equals("c1")).singleElement()
                .satisfies(e -> {
                    ToolFinished f = (ToolFinished) e;
                    assertThat(f.error().kind()).isEqualTo(ToolError.Kind.RESULT_TOO_LARGE);
                    assertThat(f.truncated()).isFalse();
                });
        assertThat(provider.requests.get(1).messages()).containsAll(results);
    }

    @Test
    void underFailLoopAnOversizeResultFailsTheLoop() {
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "big", "{}"), Turn.create().text("never"));

        StepVerifier.create(loop(provider, ToolErrorPolicy.FAIL_LOOP).run(ChatRequest.builder("m").user("go").build()))
                .thenConsumeWhile(e -> true)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ToolLoopException.class)
                        .hasMessageContaining("over the limit of 20")
                        .extracting(x -> ((ToolLoopException) x).toolError().kind()).isEqualTo(ToolError.Kind.RESULT_TOO_LARGE))
                .verify(WAIT);
        assertThat(provider.requests).hasSize(1);
    }
}
