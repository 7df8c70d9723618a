package dev.ruminate.providers.provenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.providers.testing.ForwardingCodec;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.wire.SseEvent;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every family's decoder begins with a {@link ResponseStarted}; should one not (a new family, a
 * proxy that drops the opening event), the pipeline puts one carrying its origin first, so the
 * reducer still records provenance.
 */
@ExtendWith(NettyLeakCheck.class)
class OriginWithoutAStartTest {

    /** Anthropic's codec with every ResponseStarted removed from its events. */
    private static final class WithoutStart extends ForwardingCodec<SseEvent> {
        WithoutStart() {
            super(AnthropicCodec.of(1024));
        }

        @Override
        public StreamDecoder<SseEvent> newStreamDecoder(ChatRequest request) {
            StreamDecoder<SseEvent> inner = delegate.newStreamDecoder(request);
            return new StreamDecoder<>() {
                @Override
                public void decode(SseEvent frame, List<ChatEvent> out) {
                    inner.decode(frame, out);
                    out.removeIf(ResponseStarted.class::isInstance);
                }

                @Override
                public void end(List<ChatEvent> out) {
                    inner.end(out);
                    out.removeIf(ResponseStarted.class::isInstance);
                }
            };
        }
    }

    @Test
    void aStreamThatDoesNotBeginWithResponseStartedGetsOneWithTheOrigin() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            ProviderPipeline<SseEvent> pipeline = ProviderPipeline.builder("anthropic", new WithoutStart(),
                            AnthropicProvider.builder().baseUrl(emulator.baseUrl().toString()), null)
                    .auth("x-api-key", "", ApiKey.of("sk-ant-no-start"))
                    .build();
            ChatRequest request = ChatRequest.builder("claude-x").user("x").build();
            emulator.enqueue(AnthropicScript.create().thinking("Plan.", "sig-1").text("Done.").toResponse());

            List<ChatEvent> events = pipeline.stream(request).collectList().block(Duration.ofSeconds(30));

            assertThat(events).isNotNull();
            assertThat(events.get(0)).isEqualTo(new ResponseStarted("anthropic", null, null, pipeline.origin())
                    .withOrigin(pipeline.origin(), "claude-x"));
            assertThat(events.stream().filter(ResponseStarted.class::isInstance)).hasSize(1);
            AssistantMessage m = Objects.requireNonNull(ChatReducer.defaults()
                    .reduce(reactor.core.publisher.Flux.fromIterable(events)).block(Duration.ofSeconds(5))).message();
            assertThat(m.parts().get(0).seals().provenance())
                    .isEqualTo(new Provenance(pipeline.origin(), null, 0, true, "claude-x"));
        }
    }
}
