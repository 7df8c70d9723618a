package dev.ruminate.providers.spi;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static dev.ruminate.core.history.PlanAction.TO_TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.history.ForeignReasoning;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.transport.http.ApiKey;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ProviderPipeline#explain}: the family's plan of the request the pipeline would send, its
 * entries naming the turns and parts as the application gave them even when preparation dropped a
 * turn or a part before them. Nothing is sent (the base URL is never contacted).
 */
@ExtendWith(NettyLeakCheck.class)
class PipelineExplainTest {

    private static final String NOWHERE = "http://127.0.0.1:9";

    /** A well-formed (base64) signature: a malformed one would be stripped by the integrity check. */
    private static final String SIGNATURE = "c2lnbmVkIHRoaW5raW5n";

    private static AssistantMessage turn(String provider, dev.ruminate.core.message.Part... parts) {
        return new AssistantMessage(List.of(parts), provider, "m", FinishReason.TOOL_CALLS, null, Usage.UNKNOWN);
    }

    private static ReasoningPart reasoning(String text, Seals seals) {
        return new ReasoningPart(text, false, null, seals);
    }

    @Test
    void entriesNameTheTurnsAndPartsAsGivenAfterADroppedTurnAndDroppedReasoning() {
        List<Message> conversation = List.of(
                Message.user("q1"),
                turn("anthropic", reasoning("Claude thought.", new Seals("sig", null, null, null, null))),
                Message.user("q2"),
                turn("openai-responses", reasoning("Earlier thought.", new Seals(null, null, "enc1", "rs_1", null)),
                        new ToolCallPart("c1", "f", "{}", true, new Seals(null, null, null, "fc_1", null))),
                Message.toolResult("c1", "{\"ok\":1}"),
                Message.user("q3"),
                turn("openai-responses", reasoning("Current thought.", new Seals(null, null, "enc2", "rs_2", null)),
                        new ToolCallPart("c2", "f", "{}", true, new Seals(null, null, null, "fc_2", null))),
                Message.toolResult("c2", "{\"ok\":2}"));
        ResponsesProvider provider = ResponsesProvider.builder(ResponsesProfiles.OPENAI).baseUrl(NOWHERE)
                .apiKey(ApiKey.of("k")).history(HistoryPolicy.DEFAULT.withRetention(Retention.TOOL_LOOP)).build();

        SendBackPlan plan = provider.explain(ChatRequest.builder("gpt-5").messages(conversation).build());

        // the Claude turn is dropped whole (another provider's, nothing left), turn 3 loses its reasoning
        // (before the last user message): the call's item id is part 1 of turn 3 as given; History's
        // decisions come first for each part, then the encoder's
        assertThat(plan.entries()).extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action,
                PlanEntry::rule).containsExactly(
                tuple(1, 0, "signature", STRIP, "H1"), tuple(1, 0, "reasoning", DROP, "H4"),
                tuple(3, 0, "encrypted", STRIP, "H4"), tuple(3, 0, "item id", STRIP, "H4"), tuple(3, 0, "reasoning", DROP, "H4"),
                tuple(3, 1, "item id", KEEP, "boundary"), tuple(3, 1, "item id", KEEP, "R1"),
                tuple(6, 0, "encrypted", KEEP, "boundary"), tuple(6, 0, "item id", KEEP, "boundary"),
                tuple(6, 0, "reasoning", KEEP, "R1"), tuple(6, 0, "encrypted", KEEP, "R1"), tuple(6, 0, "item id", KEEP, "R1"),
                tuple(6, 1, "item id", KEEP, "boundary"), tuple(6, 1, "item id", KEEP, "R1"));
    }

    @Test
    void anotherProvidersReasoningAsTaggedTextKeepsTheIndicesOfTheTurnsAfterIt() {
        List<Message> conversation = List.of(
                Message.user("q1"),
                turn("gemini", reasoning("Gemini thought.", new Seals("gsig", null, null, null, null)), TextPart.of("A1")),
                Message.user("q2"),
                turn("anthropic", TextPart.of(""), reasoning("Claude thought.", new Seals(SIGNATURE, null, null, null, null)),
                        new ToolCallPart("t1", "f", "{}", true, Seals.NONE)),
                Message.toolResult("t1", "{}"));
        AnthropicProvider provider = AnthropicProvider.builder().baseUrl(NOWHERE).apiKey(ApiKey.of("k"))
                .history(HistoryPolicy.DEFAULT.withForeignReasoning(ForeignReasoning.AS_TAGGED_TEXT)).build();

        SendBackPlan plan = provider.explain(ChatRequest.builder("claude-sonnet-4-5").messages(conversation).build());

        assertThat(plan.entries()).extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action,
                PlanEntry::rule).containsExactly(tuple(1, 0, "signature", STRIP, "H1"), tuple(1, 0, "reasoning", TO_TEXT, "H1"),
                tuple(3, 1, "signature", KEEP, "boundary"), tuple(3, 1, "reasoning", KEEP, "A1"),
                tuple(3, 1, "signature", KEEP, "A1"));
        assertThat(plan.render()).endsWith("""
                turn 3 part 1 signature: keep [boundary] no provenance recorded: judged by provider name only
                turn 3 part 1 reasoning: keep [A1] a thinking block with its signature, in place
                turn 3 part 1 signature: keep [A1] the thinking block's signature, byte-identical
                """);
    }
}
