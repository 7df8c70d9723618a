package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.json.LoopEventJson;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.loop.ToolLoop;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.ProviderKinds;
import dev.ruminate.providers.ProviderSettings;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** {@link ChatServerSentEvents#loop}: a real tool loop over HTTP to the emulator, as a browser receives it. */
@ExtendWith(NettyLeakCheck.class)
class LoopServerSentEventsTest {

    private static final ToolDefinition ADD = new ToolDefinition("add", "Adds two numbers.",
            "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},\"b\":{\"type\":\"number\"}}}");

    private static ToolLoop loop(ProviderEmulator emulator) {
        ChatProvider claude = ProviderKinds.find("anthropic").orElseThrow().create(ProviderSettings.builder()
                .baseUrl(emulator.baseUrl()).apiKey(ApiKey.of("emulator-key-not-a-secret")).build());
        return ToolLoop.builder(claude).tool(ADD, call -> Mono.just("5")).build();
    }

    private static ChatRequest request() {
        return ChatRequest.builder("claude-sonnet-4-5").user("2+3?").reasoning(ReasoningOptions.budget(1024)).build();
    }

    @Test
    void aLoopStreamsAsTheWireFormatWithoutOpaqueState() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(AnthropicScript.create().model("claude-sonnet-4-5")
                    .thinking("I'll add them.", "U0lHLW9wYXF1ZS0x").toolUse("toolu_1", "add", "{\"a\":2,\"b\":3}")
                    .stopReason("tool_use").usage(20, 10).toResponse());
            emulator.enqueue(AnthropicScript.create().model("claude-sonnet-4-5")
                    .thinking("5.", "SIG-opaque-2").text("2+3 = 5").usage(40, 8).toResponse());

            List<ServerSentEvent<String>> events = ChatServerSentEvents.loop(loop(emulator).run(request()))
                    .collectList().block(Duration.ofSeconds(10));

            assertThat(events).isNotNull();
            List<String> names = events.stream().map(ServerSentEvent::event).toList();
            assertThat(names).containsSubsequence("reasoning.delta", "tool_call.delta", "tool.started", "tool.finished",
                    "step.completed", "reasoning.delta", "content.delta", "step.completed", "loop.completed");
            assertThat(names).doesNotContain("seal", "loop.failed").last().isEqualTo("loop.completed");
            String all = String.join("\n", events.stream().map(ServerSentEvent::data).toList());
            assertThat(all).doesNotContain("SIG-opaque", "provider_state", "\"conversation\"")
                    .contains("{\"type\":\"reasoning.delta\",\"step\":1,", "{\"type\":\"content.delta\",\"step\":2,")
                    .contains("\"type\":\"tool.finished\",\"step\":1,\"id\":\"toolu_1\",\"name\":\"add\"")
                    .contains("\"stop_reason\":\"final_answer\"");
            // each event is exactly the frame LoopEventJson writes for it
            for (ServerSentEvent<String> e : events) {
                assertThat(e.event()).isEqualTo(LoopEventJson.type(LoopEventJson.read(e.data())));
            }
            // the provider still got the signature back: only the browser's copy leaves it out
            assertThat(emulator.requests().get(1).body()).contains("U0lHLW9wYXF1ZS0x");
        }
    }

    @Test
    void aFailingLoopEndsWithOneLoopFailedEvent() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(AnthropicScript.create().model("claude-sonnet-4-5")
                    .toolUse("toolu_1", "add", "{\"a\":2,\"b\":3}").stopReason("tool_use").toResponse());
            emulator.enqueue(EmulatorResponse.httpError(429,
                    "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}"));

            StepVerifier.create(ChatServerSentEvents.loop(loop(emulator).run(request())).collectList())
                    .assertNext(events -> {
                        ServerSentEvent<String> last = events.get(events.size() - 1);
                        assertThat(last.event()).isEqualTo("loop.failed");
                        assertThat(last.data()).contains("\"type\":\"rate_limited\"", "\"retryable\":true");
                        assertThat(events.stream().filter(e -> "loop.failed".equals(e.event()))).hasSize(1);
                        assertThat(events.stream().map(ServerSentEvent::event)).contains("tool.finished", "step.completed");
                    })
                    .expectComplete().verify(Duration.ofSeconds(10));
        }
    }

    @Test
    void cancellingTheEventsCancelsTheLoop() {
        AtomicBoolean cancelled = new AtomicBoolean();
        Flux<LoopEvent> endless = Flux.<LoopEvent>never().doOnCancel(() -> cancelled.set(true));
        StepVerifier.create(ChatServerSentEvents.loop(endless)).thenCancel().verify(Duration.ofSeconds(5));
        assertThat(cancelled).isTrue();
    }

    @Test
    void framesMapOneToOne() {
        SseFrame frame = new SseFrame("tool.started", "{\"type\":\"tool.started\"}");
        ServerSentEvent<String> event = ChatServerSentEvents.toServerSentEvent(frame);
        assertThat(event.event()).isEqualTo("tool.started");
        assertThat(event.data()).isEqualTo(frame.data());
    }
}
