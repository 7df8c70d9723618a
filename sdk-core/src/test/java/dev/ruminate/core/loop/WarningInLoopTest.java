package dev.ruminate.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.json.LoopEventJson;
import dev.ruminate.core.loop.LoopEvent.LoopCompleted;
import dev.ruminate.core.loop.LoopEvent.StepChatEvent;
import dev.ruminate.core.loop.ScriptedProvider.Turn;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link Warning} a provider emits first in a step (a recovered rejection of opaque state) is
 * passed on as that step's event, written by the loop's wire JSON, and does not disturb the step:
 * the loop runs the tools and completes as without it.
 */
class WarningInLoopTest {

    @Test
    void aWarningFirstInAStepIsPassedOnAndTheLoopCompletes() {
        Warning warning = new Warning(Warning.OPAQUE_STATE_RECOVERED, "stripped the signature of message 1, part 0", 1, 0);
        List<ChatEvent> step1 = Turn.create().reasoning("Plan.", "sig-1").toolCall("c1", "a", "{}").events();
        List<ChatEvent> step2 = Turn.create().text("Done.").events();
        List<Supplier<Flux<ChatEvent>>> responses = List.of(
                () -> Flux.concat(Flux.just(warning), Flux.fromIterable(step1)),
                () -> Flux.fromIterable(step2));
        ScriptedProvider provider = new ScriptedProvider(responses);
        ToolLoop loop = ToolLoop.builder(provider)
                .tool(Tool.of(new ToolDefinition("a", "the a tool", "{\"type\":\"object\"}"), call -> Mono.just("ok")))
                .build();

        List<LoopEvent> events = loop.run(ChatRequest.builder("m").user("go").build()).collectList()
                .block(Duration.ofSeconds(10));

        assertThat(events).isNotNull();
        assertThat(events.get(0)).isEqualTo(new StepChatEvent(1, warning));
        assertThat(LoopEventJson.write(events.get(0))).contains("\"type\":\"warning\"", "\"step\":1",
                "\"code\":\"opaque-state-recovered\"", "\"turn\":1", "\"part\":0");
        assertThat(LoopEventJson.read(LoopEventJson.write(events.get(0)))).isEqualTo(events.get(0));
        LoopCompleted done = (LoopCompleted) events.get(events.size() - 1);
        assertThat(done.step()).isEqualTo(2);
        assertThat(done.finalMessage().text()).isEqualTo("Done.");
        // the warning is no part of the message the loop sends back
        assertThat(provider.requests.get(1).messages().get(1).toString()).doesNotContain("stripped");
    }
}
