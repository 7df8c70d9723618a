package dev.ruminate.providers.chatcompletions;

import static dev.ruminate.core.history.PlanAction.DROP;
import static dev.ruminate.core.history.PlanAction.KEEP;
import static dev.ruminate.core.history.PlanAction.STRIP;
import static dev.ruminate.core.history.PlanAction.TO_FIELD;
import static dev.ruminate.core.history.PlanAction.TO_TAGS;
import static dev.ruminate.providers.internal.PlanNotes.of;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.internal.PlanNotes;
import dev.ruminate.providers.internal.PlanNotes.Decision;
import java.util.List;

/**
 * Explains what {@link ChatCompletionsMessagesWriter} does with earlier turns, with the writer's own
 * decisions ({@link ChatCompletionsMessagesWriter#carries}, {@link ChatCompletionsMessagesWriter#modeFor},
 * {@link ChatCompletionsMessagesWriter.DetailShape}); the rule ids are those of the {@code C} table
 * of {@code docs/send-back-rules.md}.
 */
final class ChatCompletionsPlan {

    private ChatCompletionsPlan() {
    }

    static void explain(CompatProfile profile, ChatRequest request, SendBackPlan.Builder plan) {
        if (request.extras().containsKey("messages")) {
            return; // the extra replaces the conversation: no earlier turn is written by the encoder
        }
        ReasoningSendBack sendBack = profile.sendBackFor(request.model());
        List<Message> messages = request.messages();
        boolean[] inToolTurn = ChatCompletionsMessagesWriter.toolTurns(messages);
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AssistantMessage a) {
                boolean carry = ChatCompletionsMessagesWriter.carries(sendBack, inToolTurn[i]);
                boolean own = ChatCompletionsMessagesWriter.isOwn(a, profile);
                ReasoningSendBack.Mode mode = ChatCompletionsMessagesWriter.modeFor(sendBack, carry, own);
                String rule = mode != ReasoningSendBack.Mode.DROP ? rule(profile, sendBack)
                        : !own ? "C9" : sendBack.mode() == ReasoningSendBack.Mode.DROP ? rule(profile, sendBack) : "C1";
                String dropReason = !own ? "another provider's reasoning is never sent"
                        : sendBack.mode() == ReasoningSendBack.Mode.DROP
                        ? profile.name() + " takes no reasoning back for " + request.model()
                        : "not in a user turn with tool calls, where " + profile.name() + " ignores it";
                int signed = mode == ReasoningSendBack.Mode.GOOGLE_EXTRA_CONTENT
                        ? ChatCompletionsMessagesWriter.messageSignaturePart(a) : -1;
                for (int p = 0; p < a.parts().size(); p++) {
                    part(plan, i, p, a.parts().get(p), mode, rule, dropReason, sendBack, p == signed);
                }
            }
        }
    }

    private static void part(SendBackPlan.Builder plan, int turn, int index, Part part, ReasoningSendBack.Mode mode,
                             String rule, String dropReason, ReasoningSendBack sendBack, boolean signsMessage) {
        if (!(part instanceof ReasoningPart r)) {
            boolean signsCall = part instanceof ToolCallPart c && ChatCompletionsMessagesWriter.signsCall(mode, c);
            PlanNotes.seals(plan, turn, index, part.seals(), (kind, v) -> kind == Seal.Kind.SIGNATURE && signsCall
                    ? of(KEEP, rule, "sent as the call's extra_content.google.thought_signature")
                    : kind == Seal.Kind.SIGNATURE && signsMessage
                    ? of(KEEP, rule, "sent as the message's extra_content.google.thought_signature")
                    : of(STRIP, rule, "Chat Completions has no field for opaque state on answer text or a tool call"));
            return;
        }
        Decision text;
        PlanNotes.SealDecision seals;
        switch (mode) {
            case DROP -> {
                text = of(DROP, rule, dropReason);
                seals = (kind, v) -> of(DROP, rule, "its reasoning is not sent: " + dropReason);
            }
            case FIELD -> {
                text = ChatCompletionsMessagesWriter.hasText(r)
                        ? of(TO_FIELD, rule, "sent as the message's " + sendBack.field())
                        : of(DROP, rule, "no text to send");
                seals = (kind, v) -> of(ChatCompletionsMessagesWriter.hasText(r) ? STRIP : DROP, rule,
                        "the " + sendBack.field() + " field takes text only");
            }
            case THINK_TAGS -> {
                text = ChatCompletionsMessagesWriter.hasText(r)
                        ? of(TO_TAGS, rule, "sent in content between the profile's think tags")
                        : of(DROP, rule, "no text to send");
                seals = (kind, v) -> of(ChatCompletionsMessagesWriter.hasText(r) ? STRIP : DROP, rule,
                        "tagged text carries no opaque state");
            }
            case THINKING_CHUNKS -> {
                text = ChatCompletionsMessagesWriter.hasText(r)
                        ? of(KEEP, rule, "sent as a thinking chunk in content, in part order")
                        : of(DROP, rule, "no text to send");
                seals = (kind, v) -> of(ChatCompletionsMessagesWriter.hasText(r) ? STRIP : DROP, rule,
                        "thinking chunks carry no opaque state");
            }
            case GOOGLE_EXTRA_CONTENT -> {
                text = of(DROP, rule, "Gemini's OpenAI-compatible endpoint has no field for thought text");
                seals = (kind, v) -> kind == Seal.Kind.SIGNATURE && signsMessage
                        ? of(KEEP, rule, "sent as the message's extra_content.google.thought_signature")
                        : of(DROP, rule, "only the message's last signature goes back, in extra_content");
            }
            case REASONING_DETAILS -> {
                ChatCompletionsMessagesWriter.DetailShape shape = ChatCompletionsMessagesWriter.DetailShape.of(r);
                text = shape.text()
                        ? of(KEEP, rule, "sent as a " + (r.summary() ? "reasoning.summary" : "reasoning.text") + " detail")
                        : of(DROP, rule, shape.encrypted() ? "no text: only its encrypted detail goes" : "no text and no seal to send");
                seals = (kind, v) -> detail(kind, shape, rule);
            }
            default -> throw new IllegalStateException("unknown mode " + mode);
        }
        PlanNotes.add(plan, turn, index, PlanNotes.REASONING, text);
        PlanNotes.seals(plan, turn, index, r.seals(), seals);
    }

    private static Decision detail(Seal.Kind kind, ChatCompletionsMessagesWriter.DetailShape shape, String rule) {
        boolean sent = shape.text() || shape.encrypted();
        boolean kept = switch (kind) {
            case SIGNATURE -> shape.signature();
            case ENCRYPTED -> shape.encrypted();
            case ITEM_ID -> shape.itemId();
            case FORMAT -> shape.format();
            case REDACTED -> false;
        };
        if (kept) {
            return of(KEEP, rule, "sent unmodified in its reasoning detail");
        }
        return of(sent ? STRIP : DROP, rule, sent ? "reasoning details have no place for it here"
                : "no reasoning detail is written for this part");
    }

    /** The id of the {@code C} rule that gives a model's send-back rule on a profile. */
    private static String rule(CompatProfile profile, ReasoningSendBack sendBack) {
        return switch (sendBack.mode()) {
            case FIELD -> sendBack.scope() == ReasoningSendBack.Scope.TOOL_TURNS ? "C1"
                    : profile.name().equals("glm") ? "C4" : "C5";
            case REASONING_DETAILS -> "C3";
            case THINKING_CHUNKS -> "C6";
            case GOOGLE_EXTRA_CONTENT -> "C11";
            case THINK_TAGS -> profile.name().equals("minimax") ? "C12" : "C7";
            case DROP -> profile.sendBack() instanceof DeepSeekSendBackRule ? "C2" : "C8";
        };
    }
}
