package dev.ruminate.providers.gemini;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.PLACEHOLDER;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static dev.ruminate.providers.internal.PlanNotes.of;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.internal.PlanNotes;
import java.util.List;

/**
 * Explains what {@link GeminiRequestEncoder} does with earlier model turns, with the encoder's own
 * decisions ({@link GeminiRequestEncoder#sends}, {@link GeminiRequestEncoder#signatureOut},
 * {@link GeminiRequestEncoder#placeholder}); rule ids of the {@code G} table of
 * {@code docs/send-back-rules.md}.
 */
final class GeminiPlan {

    private GeminiPlan() {
    }

    static void explain(ChatRequest request, String provider, boolean skipSignatureValidation,
                        SendBackPlan.Builder plan) {
        if (request.extras().containsKey("contents")) {
            return; // the extra replaces the conversation: no earlier turn is written by the encoder
        }
        List<Message> messages = request.messages();
        int loopStart = History.currentToolLoopStart(messages);
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AssistantMessage a) {
                boolean foreign = History.isForeign(a, provider);
                for (int p = 0; p < a.parts().size(); p++) {
                    boolean placeholder = GeminiRequestEncoder.placeholder(a, p, provider, skipSignatureValidation,
                            i >= loopStart);
                    part(plan, i, p, a.parts().get(p), placeholder, foreign);
                }
            }
        }
    }

    private static void part(SendBackPlan.Builder plan, int turn, int index, Part part, boolean placeholder,
                             boolean foreign) {
        boolean sent = GeminiRequestEncoder.sends(part);
        if (part instanceof ReasoningPart) {
            PlanNotes.add(plan, turn, index, PlanNotes.REASONING, sent
                    ? of(KEEP, "G1", "a signed thought goes back whole, its signature on it")
                    : foreign ? of(DROP, "G5", "another provider's reasoning never goes as a thought")
                    : of(DROP, "G2", "an unsigned thought summary is not sent (Google ignores it)"));
        }
        if (part instanceof ServerToolPart s) {
            PlanNotes.seals(plan, turn, index, s.seals(), (kind, v) -> s.json().contains(v)
                    ? of(KEEP, "G1", "inside the part's JSON, as Gemini sent it")
                    : of(STRIP, "G1", "not part of the part's JSON"));
            return;
        }
        String signature = sent ? GeminiRequestEncoder.signatureOut(part, placeholder) : null;
        PlanNotes.seals(plan, turn, index, part.seals(), (kind, v) -> {
            if (!sent) {
                return of(DROP, "G2", "its part is not sent");
            }
            if (kind == Seal.Kind.SIGNATURE && v.equals(signature)) {
                return of(KEEP, "G1", "the thoughtSignature stays on the part it came on");
            }
            return of(STRIP, "G1", "a Gemini part carries only a thoughtSignature");
        });
        if (part instanceof ToolCallPart && part.seals().signature() == null && signature != null) {
            PlanNotes.add(plan, turn, index, PlanNotes.value(Seal.Kind.SIGNATURE), of(PLACEHOLDER, "G4", foreign
                    ? "another provider's call in the current tool loop carries Google's skip placeholder"
                    : "the first call of its step in the current tool loop has no signature (removed by a boundary,"
                    + " an integrity check or a recovery, or never recorded): it carries Google's skip placeholder,"
                    + " which Gemini 3 requires there"));
        }
    }
}
