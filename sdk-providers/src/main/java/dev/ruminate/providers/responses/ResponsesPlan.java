package dev.ruminate.providers.responses;

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
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.internal.PlanNotes;
import dev.ruminate.providers.internal.PlanNotes.Decision;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Explains what {@link ResponsesRequestEncoder} and {@link InputWriter} do with earlier turns, from
 * the same walk the writer encodes with ({@link InputWriter#walk}) and the same choice of what
 * {@code input} carries ({@link ResponsesRequestEncoder#firstSent}); rule ids of the {@code R}
 * table of {@code docs/send-back-rules.md}.
 */
final class ResponsesPlan {

    private ResponsesPlan() {
    }

    static void explain(ResponsesProfile profile, ChatRequest request, SendBackPlan.Builder plan) {
        if (request.extras().containsKey("input")) {
            return; // the extra replaces the conversation: no earlier turn is written by the encoder
        }
        List<Message> messages = request.messages();
        int first = ResponsesRequestEncoder.firstSent(request);
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AssistantMessage a) {
                if (i < first) {
                    heldByServer(plan, i, a);
                } else {
                    InputWriter.walk(profile, a, new Explainer(plan, i, profile));
                }
            }
        }
    }

    /** With {@code previous_response_id} an earlier turn is not sent: the server holds it (R6). */
    private static void heldByServer(SendBackPlan.Builder plan, int turn, AssistantMessage a) {
        Decision held = of(DROP, "R6", "not sent: previous_response_id, the server holds this turn's state");
        for (int p = 0; p < a.parts().size(); p++) {
            Part part = a.parts().get(p);
            if (part instanceof ReasoningPart) {
                PlanNotes.add(plan, turn, p, PlanNotes.REASONING, held);
            }
            PlanNotes.seals(plan, turn, p, part.seals(), (kind, v) -> held);
        }
    }

    /** Turns the writer's decisions on one message into plan entries. */
    private static final class Explainer implements InputWriter.Items {
        private final SendBackPlan.Builder plan;
        private final int turn;
        private final ResponsesProfile profile;

        Explainer(SendBackPlan.Builder plan, int turn, ResponsesProfile profile) {
            this.plan = plan;
            this.turn = turn;
            this.profile = profile;
        }

        @Override
        public void reasoningItem(int from, List<Part> group) {
            String encrypted = InputWriter.encrypted(group);
            boolean firstBlob = true;
            for (int k = 0; k < group.size(); k++) {
                ReasoningPart r = (ReasoningPart) group.get(k);
                PlanNotes.add(plan, turn, from + k, PlanNotes.REASONING, of(KEEP, rule(), r.text().isEmpty()
                        ? "its reasoning item goes back (this part has no text)"
                        : "in its reasoning item, as " + (r.summary() ? "a summary_text" : "a reasoning_text") + " entry"));
                boolean blob = firstBlob && r.seals().encrypted() != null && r.seals().encrypted().equals(encrypted);
                firstBlob &= !blob;
                PlanNotes.seals(plan, turn, from + k, r.seals(), (kind, v) -> switch (kind) {
                    case ITEM_ID -> of(KEEP, rule(), "the reasoning item's id");
                    case ENCRYPTED -> blob ? of(KEEP, rule(), "the reasoning item's encrypted_content, byte-identical")
                            : of(STRIP, rule(), "an item carries one encrypted_content, its first");
                    default -> of(STRIP, rule(), "a reasoning item has no field for it");
                });
            }
        }

        private String rule() {
            return profile.name().startsWith("deepseek") ? "R7" : "R1";
        }

        @Override
        public void reasoningLeftOut(int from, List<Part> group, InputWriter.Omission why) {
            Decision left = switch (why) {
                case FOREIGN -> of(DROP, "R4", "another provider's reasoning");
                case NO_ITEM_ID -> of(DROP, "R1", "no item id: it cannot go as a reasoning item");
                case NO_ENCRYPTED_CONTENT -> of(DROP, "R3", "no encrypted content: a stateless server cannot resolve it");
            };
            for (int k = 0; k < group.size(); k++) {
                PlanNotes.add(plan, turn, from + k, PlanNotes.REASONING, left);
                PlanNotes.seals(plan, turn, from + k, group.get(k).seals(), (kind, v) -> left);
            }
        }

        @Override
        public void text(int from, List<Part> texts) {
            for (int k = 0; k < texts.size(); k++) {
                PlanNotes.seals(plan, turn, from + k, texts.get(k).seals(), (kind, v) -> of(STRIP, "R1",
                        "answer text goes back in the short {role, content} form, without item state"));
            }
        }

        @Override
        public void functionCall(int index, ToolCallPart call, InputWriter.@Nullable Omission withoutId) {
            PlanNotes.seals(plan, turn, index, call.seals(), (kind, v) -> {
                if (kind != Seal.Kind.ITEM_ID) {
                    return of(STRIP, "R1", "a function_call item has no field for it");
                }
                return withoutId == null ? of(KEEP, "R1", "the function_call item's id")
                        : of(STRIP, omissionRule(withoutId), "a reasoning item of this turn is left out, so the call "
                        + "goes without its item id (call_id pairs it)");
            });
        }

        @Override
        public void serverTool(int index, ServerToolPart part, InputWriter.@Nullable Omission leftOut) {
            boolean compaction = part.type().equals("compaction");
            Decision d = leftOut == null
                    ? of(KEEP, compaction ? "R5" : "R1", part.type() + " item goes back as the exact JSON received")
                    : of(DROP, omissionRule(leftOut), "left out with the reasoning item it needs");
            PlanNotes.add(plan, turn, index, PlanNotes.SERVER_TOOL, d);
            PlanNotes.seals(plan, turn, index, part.seals(), (kind, v) -> leftOut == null && part.json().contains(v)
                    ? of(KEEP, d.rule(), "inside the item's JSON, verbatim")
                    : of(leftOut == null ? STRIP : DROP, d.rule(), "not part of what is sent"));
        }

        private static String omissionRule(InputWriter.Omission why) {
            return switch (why) {
                case FOREIGN -> "R4";
                case NO_ITEM_ID -> "R1";
                case NO_ENCRYPTED_CONTENT -> "R3";
            };
        }
    }
}
