package dev.ruminate.providers.bedrock;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static dev.ruminate.core.history.PlanAction.TO_TEXT;
import static dev.ruminate.providers.internal.PlanNotes.of;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.internal.PlanNotes;
import dev.ruminate.providers.internal.PlanNotes.Decision;
import java.util.List;

/**
 * Explains what {@link BedrockRequestEncoder} does with earlier turns, with the encoder's own
 * decisions ({@link BedrockRequestEncoder#reasoningBlock}, {@link BedrockRequestEncoder#sends});
 * rule ids of the {@code B} table of {@code docs/send-back-rules.md}.
 */
final class BedrockPlan {

    private BedrockPlan() {
    }

    static void explain(ChatRequest request, String provider, SendBackPlan.Builder plan) {
        if (request.extras().containsKey("messages")) {
            return; // the extra replaces the conversation: no earlier turn is written by the encoder
        }
        List<Message> messages = request.messages();
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AssistantMessage a) {
                boolean foreign = History.isForeign(a, provider);
                for (int p = 0; p < a.parts().size(); p++) {
                    part(plan, i, p, a.parts().get(p), foreign);
                }
            }
        }
    }

    private static void part(SendBackPlan.Builder plan, int turn, int index, Part part, boolean foreign) {
        boolean sent = BedrockRequestEncoder.sends(part);
        if (!(part instanceof ReasoningPart r)) {
            PlanNotes.seals(plan, turn, index, part.seals(), (kind, v) -> sent
                    ? of(STRIP, "B1", "Converse has no field for opaque state on text or a toolUse")
                    : of(DROP, "B1", "its part is not sent (an empty text, or a block Converse has no form for)"));
            return;
        }
        BedrockRequestEncoder.ReasoningBlock block = BedrockRequestEncoder.reasoningBlock(r);
        Decision text = switch (block) {
            case SIGNED -> of(KEEP, "B1", "reasoningContent.reasoningText with its signature, in place");
            case REDACTED -> r.text().isEmpty() ? of(KEEP, "B2", "reasoningContent.redactedContent, unchanged, in place")
                    : of(DROP, "B2", "redactedContent carries only the data");
            case THINK_TEXT -> foreign ? of(TO_TEXT, "B4", "another provider's reasoning as <think> tagged text")
                    : of(TO_TEXT, "B3", "unsigned reasoning goes back as a <think> tagged text block in place");
            case NONE -> of(DROP, "B3", "no text and no signature or redacted data");
        };
        PlanNotes.add(plan, turn, index, PlanNotes.REASONING, text);
        PlanNotes.seals(plan, turn, index, r.seals(), (kind, v) -> switch (block) {
            case SIGNED -> kind == Seal.Kind.SIGNATURE ? of(KEEP, "B1", "the reasoningText's signature, byte-identical")
                    : of(STRIP, "B1", "reasoningText carries only text and signature");
            case REDACTED -> kind == Seal.Kind.REDACTED ? of(KEEP, "B2", "the redactedContent, unchanged")
                    : of(STRIP, "B2", "redactedContent carries only the data");
            case THINK_TEXT -> of(STRIP, text.rule(), "tagged text carries no opaque state");
            case NONE -> of(DROP, "B3", "its part is not sent");
        });
    }
}
