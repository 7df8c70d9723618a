package dev.ruminate.providers.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.history.PlanAction;
import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An aborted stream's signature never goes back: the connection is reset after a thinking block's
 * {@code signature_delta} but before its {@code content_block_stop}, the application keeps the
 * partial message in its conversation, and the next request, to the same endpoint, carries the
 * closed block's signature byte for byte and nothing of the open block's, whose signature may be
 * cut short. The plan says why.
 */
@ExtendWith(NettyLeakCheck.class)
class AbortedStreamSendBackTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    // well-formed base64, as real signatures are: only the unfinished block makes the second one unsafe
    private static final String CLOSED_SIGNATURE = "RXFRQ2xvc2VkQmxvY2s=";
    private static final String OPEN_SIGNATURE = "RXFRT3BlbkJsb2NrLi4u";

    @Test
    void theOpenBlocksSignatureIsStrippedAndTheClosedOneGoesBackUnchanged() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            AnthropicProvider provider = AnthropicProvider.builder().baseUrl(emulator.baseUrl().toString())
                    .apiKey(ApiKey.of("sk-ant-aborted")).build();
            String sse = AnthropicScript.create().thinking("First.", CLOSED_SIGNATURE).toolUse("toolu_1", "f", "{}")
                    .thinking("Second.", OPEN_SIGNATURE).text("Done.").toSse();
            // right after the frame carrying the second signature, before that block's stop
            int cut = sse.indexOf("\n\n", sse.indexOf(OPEN_SIGNATURE)) + 2;
            assertThat(sse.substring(cut)).startsWith("event: content_block_stop");
            emulator.enqueue(EmulatorResponse.bytes("text/event-stream", sse.getBytes(StandardCharsets.UTF_8))
                    .resetAfter(cut));
            ChatRequest first = ChatRequest.builder("claude-sonnet-4-5").reasoning(ReasoningOptions.budget(2048))
                    .user("Go.").build();

            AssistantMessage partial = null;
            try {
                ChatReducer.defaults().reduce(provider.stream(first)).block(WAIT);
            } catch (RuminateException e) {
                partial = e.partial();
            }
            assertThat(partial).as("the reset stream fails with the message reduced so far").isNotNull();
            AssistantMessage kept = Objects.requireNonNull(partial);
            assertThat(kept.parts().get(2).seals().signature()).isEqualTo(OPEN_SIGNATURE);

            emulator.enqueue(AnthropicScript.create().text("Fine.").toResponse());
            ChatRequest next = ChatRequest.builder("claude-sonnet-4-5").reasoning(ReasoningOptions.budget(2048))
                    .messages(List.of(Message.user("Go."), kept, Message.toolResult("toolu_1", "{}"))).build();
            SendBackPlan plan = provider.explain(next);
            ChatReducer.defaults().reduce(provider.stream(next)).block(WAIT);

            String body = emulator.requests().get(1).body();
            assertThat(body).contains("\"signature\":\"" + CLOSED_SIGNATURE + "\"").doesNotContain(OPEN_SIGNATURE);
            assertThat(plan.forTurn(1)).filteredOn(e -> e.part() == 2 && e.value().equals("signature"))
                    .extracting(PlanEntry::action, PlanEntry::rule)
                    .contains(org.assertj.core.groups.Tuple.tuple(PlanAction.STRIP, "integrity"));
            assertThat(plan.forTurn(1)).filteredOn(e -> e.part() == 0 && e.value().equals("signature"))
                    .extracting(PlanEntry::action).containsOnly(PlanAction.KEEP);
        }
    }
}
