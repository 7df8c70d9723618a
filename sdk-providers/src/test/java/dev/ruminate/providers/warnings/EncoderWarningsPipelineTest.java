package dev.ruminate.providers.warnings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.providers.testing.ForwardingCodec;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.SseEvent;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

/**
 * What the pipeline does with the warnings an encoder reports: each goes out once per subscription,
 * before the response's events, even when a guard sends the request again, and one about a message
 * names that message as the caller gave it, not as History prepared it.
 */
@ExtendWith(NettyLeakCheck.class)
class EncoderWarningsPipelineTest {

    /** Chat Completions' codec, reporting the same two warnings from every encoding, one about the last message. */
    private static final class WarningCodec extends ForwardingCodec<SseEvent> {
        WarningCodec() {
            super(ChatCompletionsCodec.of(Profiles.OPENAI));
        }

        @Override
        public byte[] encode(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
            warnings.ignored("seed not sent");
            warnings.ignored("seed not sent");
            warnings.add(Warning.OPTION_COERCED, "about the last message", prepared.messages().size() - 1, null);
            return super.encode(prepared, stream, warnings);
        }
    }

    @Test
    void warningsGoOutOnceBeforeTheResponseAddressedToTheMessagesAsGiven() {
        // an earlier turn of reasoning alone, which retention NONE drops: the last message moves from 2 to 1
        AssistantMessage thoughtOnly = new AssistantMessage(List.of(new ReasoningPart("think", false, null, Seals.NONE)),
                "openai", "gpt-test", FinishReason.STOP, "stop", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("gpt-test")
                .messages(List.<Message>of(Message.user("q"), thoughtOnly, Message.user("again"))).build();
        Resilience guards = Resilience.builder().retry(Retry.of("openai",
                RetryConfig.custom().maxAttempts(2).waitDuration(Duration.ofMillis(10)).build())).build();

        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(EmulatorResponse.httpError(503, "{\"error\":{\"message\":\"overloaded\"}}"));
            emulator.enqueue(ChatCompletionsScript.create().content("ok").toResponse());
            ProviderPipeline<SseEvent> pipeline = ProviderPipeline.builder("openai", new WarningCodec(),
                            ChatCompletionsProvider.builder(Profiles.OPENAI).baseUrl(emulator.baseUrl().toString())
                                    .resilience(guards).history(HistoryPolicy.DEFAULT.withRetention(Retention.NONE)), null)
                    .auth("Authorization", "Bearer ", ApiKey.of("sk-warnings-test"))
                    .build();

            List<ChatEvent> events = Objects.requireNonNull(pipeline.stream(request).collectList()
                    .block(Duration.ofSeconds(30)));

            Warning ignored = new Warning(Warning.OPTION_IGNORED, "seed not sent");
            Warning aboutLast = new Warning(Warning.OPTION_COERCED, "about the last message", 2, null);
            assertThat(events.subList(0, 2)).containsExactly(ignored, aboutLast);
            assertThat(events.get(2)).isInstanceOf(ResponseStarted.class);
            assertThat(events.stream().filter(Warning.class::isInstance)).hasSize(2);
            // the guard sent the same body twice; its warnings were said once
            assertThat(emulator.requests()).hasSize(2);
            // History did drop the reasoning-only turn, so the encoder's index 1 had to be re-addressed to 2
            assertThat(emulator.requests().get(1).body()).contains("\"again\"").doesNotContain("think");
            assertThat(emulator.requests().get(1).body().split("\"role\"", -1)).hasSize(3);
            ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(Flux.fromIterable(events))
                    .block(Duration.ofSeconds(5)));
            assertThat(result.warnings()).containsExactly(ignored, aboutLast);
            assertThat(result.message().text()).isEqualTo("ok");
        }
    }
}
