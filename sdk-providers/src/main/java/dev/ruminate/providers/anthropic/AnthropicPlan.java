package dev.ruminate.providers.anthropic;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static dev.ruminate.providers.internal.PlanNotes.of;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.internal.PlanNotes;
import dev.ruminate.providers.internal.PlanNotes.Decision;
import java.util.List;

/**
 * Explains what {@link AnthropicMessagesWriter} does with earlier turns, with the writer's own
 * decisions ({@link AnthropicMessagesWriter#isOwn}, {@link AnthropicMessagesWriter#reasoningBlock},
 * {@link AnthropicMessagesWriter#sendsText}); rule ids of the {@code A} table of
 * {@code docs/send-back-rules.md}.
 */
final class AnthropicPlan {

    private AnthropicPlan() {
    }

    static void explain(ChatRequest request, String provider, SendBackPlan.Builder plan) {
        if (request.extras().containsKey("messages")) {
            return; // the extra replaces the conversation: no earlier turn is written by the encoder
        }
        List<Message> messages = request.messages();
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AssistantMessage a) {
                boolean own = AnthropicMessagesWriter.isOwn(a, provider);
                for (int p = 0; p < a.parts().size(); p++) {
                    part(plan, i, p, a.parts().get(p), own);
                }
            }
        }
    }

    private static void part(SendBackPlan.Builder plan, int turn, int index, Part part, boolean own) {
        if (part instanceof ReasoningPart r) {
            reasoning(plan, turn, index, r, own);
        } else if (part instanceof ServerToolPart s) {
            boolean compaction = s.type().equals("compaction");
            String rule = !own ? "A4" : compaction ? "A6" : "A5";
            PlanNotes.add(plan, turn, index, PlanNotes.SERVER_TOOL, own
                    ? of(KEEP, rule, (compaction ? "compaction" : s.type()) + " block goes back as the exact JSON received")
                    : of(DROP, rule, "another provider's server-tool block"));
            PlanNotes.seals(plan, turn, index, s.seals(), (kind, v) -> own && s.json().contains(v)
                    ? of(KEEP, rule, "inside the block's JSON, verbatim")
                    : of(own ? STRIP : DROP, rule, own ? "not part of the block's JSON" : "its block is not sent"));
        } else {
            boolean sent = !(part instanceof TextPart t) || AnthropicMessagesWriter.sendsText(t);
            String where = part instanceof ToolCallPart ? "a tool_use block" : "a text block";
            PlanNotes.seals(plan, turn, index, part.seals(), (kind, v) -> sent
                    ? of(STRIP, "A4", where + " has no field for it")
                    : of(DROP, "A4", "blank text blocks are not sent (the API rejects them)"));
        }
    }

    private static void reasoning(SendBackPlan.Builder plan, int turn, int index, ReasoningPart r, boolean own) {
        AnthropicMessagesWriter.ReasoningBlock block = AnthropicMessagesWriter.reasoningBlock(r, own);
        Decision text = switch (block) {
            case THINKING -> r.text().isEmpty()
                    ? of(KEEP, "A2", "omitted thinking: an empty thinking block with its signature")
                    : of(KEEP, "A1", "a thinking block with its signature, in place");
            case REDACTED -> r.text().isEmpty()
                    ? of(KEEP, "A3", "a redacted_thinking block with its data, in place")
                    : of(DROP, "A3", "a redacted_thinking block carries only its data");
            case NONE -> of(DROP, "A4", own ? "neither signature nor redacted data: the API rejects unsigned thinking"
                    : "another provider's reasoning");
        };
        PlanNotes.add(plan, turn, index, PlanNotes.REASONING, text);
        PlanNotes.seals(plan, turn, index, r.seals(), (kind, v) -> seal(kind, block, own, text.rule()));
    }

    private static Decision seal(Seal.Kind kind, AnthropicMessagesWriter.ReasoningBlock block, boolean own, String rule) {
        return switch (block) {
            case THINKING -> kind == Seal.Kind.SIGNATURE ? of(KEEP, rule, "the thinking block's signature, byte-identical")
                    : of(STRIP, rule, "a thinking block carries only its text and signature");
            case REDACTED -> kind == Seal.Kind.REDACTED ? of(KEEP, rule, "the redacted_thinking block's data, unchanged")
                    : of(STRIP, rule, "a redacted_thinking block carries only its data");
            case NONE -> of(DROP, "A4", own ? "its reasoning is not sent" : "another provider's opaque state");
        };
    }
}
