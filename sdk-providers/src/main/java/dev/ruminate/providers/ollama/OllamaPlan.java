package dev.ruminate.providers.ollama;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static dev.ruminate.core.history.PlanAction.TO_FIELD;
import static dev.ruminate.providers.internal.PlanNotes.of;

import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.internal.PlanNotes;
import java.util.List;

/**
 * Explains what {@link OllamaMessagesWriter} does with earlier turns, with the writer's own decision
 * ({@link OllamaMessagesWriter#isOwn}, {@link OllamaMessagesWriter#sendsThinking}); rule ids of the {@code O} table of
 * {@code docs/send-back-rules.md}.
 */
final class OllamaPlan {

    private OllamaPlan() {
    }

    static void explain(ChatRequest request, String provider, SendBackPlan.Builder plan) {
        if (request.extras().containsKey("messages")) {
            return; // the extra replaces the conversation: no earlier turn is written by the encoder
        }
        List<Message> messages = request.messages();
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AssistantMessage a) {
                boolean own = OllamaMessagesWriter.isOwn(a, provider);
                for (int p = 0; p < a.parts().size(); p++) {
                    part(plan, i, p, a.parts().get(p), own);
                }
            }
        }
    }

    private static void part(SendBackPlan.Builder plan, int turn, int index, Part part, boolean own) {
        if (!(part instanceof ReasoningPart r)) {
            PlanNotes.seals(plan, turn, index, part.seals(),
                    (kind, v) -> of(STRIP, "O1", "an Ollama message has no field for opaque state"));
            return;
        }
        boolean sent = OllamaMessagesWriter.sendsThinking(r, own);
        PlanNotes.add(plan, turn, index, PlanNotes.REASONING, sent
                ? of(TO_FIELD, "O1", "sent as the message's thinking")
                : of(DROP, "O1", own ? "no text to send" : "another provider's reasoning"));
        PlanNotes.seals(plan, turn, index, r.seals(), (kind, v) -> sent
                ? of(STRIP, "O1", "thinking takes text only")
                : of(DROP, "O1", "its reasoning is not sent"));
    }
}
