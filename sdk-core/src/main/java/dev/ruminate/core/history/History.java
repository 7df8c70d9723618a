package dev.ruminate.core.history;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Prepares a conversation for one provider before its encoder writes it: applies the retention of
 * reasoning and strips what another provider produced.
 *
 * <p>An assistant turn is the target provider's own when its {@link AssistantMessage#provider()}
 * equals the target's name, or is null (a turn the application built itself is taken as meant for
 * the provider it is sent to). Any other turn is foreign: every seal is removed from its parts
 * (signatures, encrypted content, redacted data, item ids and formats are only valid where they
 * were made), its server tool blocks are dropped (they name another provider's tools), and its
 * reasoning is dropped or, under {@link ForeignReasoning#AS_TAGGED_TEXT}, becomes a text part
 * {@code <think>\n…\n</think>} followed by a blank line, in its place. A reasoning part with no text left (redacted, encrypted
 * only) is then dropped.
 *
 * <p>Retention then removes reasoning: {@link Retention#TOOL_LOOP} keeps it only in the turns after
 * the last {@link UserMessage}, {@link Retention#NONE} keeps none. Removing a turn's reasoning drops
 * its reasoning parts and the reasoning state other parts carry (signatures, encrypted or redacted
 * data; a Gemini thought signature rides on a call or an answer), keeping item ids. Tagged text made
 * from foreign reasoning counts as reasoning here. An assistant turn left without parts is dropped.
 * Other messages pass unchanged, in order.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class History {

    private History() {
    }

    /**
     * Prepares a conversation for a provider.
     *
     * @param conversation the messages, oldest first
     * @param targetProvider the name of the provider the request goes to
     * @param policy the policy
     * @param defaultRetention the provider's default retention, used when the policy names none
     * @return the messages to encode, a new unmodifiable list
     */
    public static List<Message> prepare(List<Message> conversation, String targetProvider, HistoryPolicy policy,
                                        Retention defaultRetention) {
        Objects.requireNonNull(conversation, "conversation");
        Objects.requireNonNull(targetProvider, "targetProvider");
        Retention retention = policy.retentionOr(defaultRetention);
        int loopStart = currentToolLoopStart(conversation);
        List<Message> out = new ArrayList<>(conversation.size());
        for (int i = 0; i < conversation.size(); i++) {
            Message m = conversation.get(i);
            if (!(m instanceof AssistantMessage a)) {
                out.add(m);
                continue;
            }
            boolean keepReasoning = retention == Retention.ALL || (retention == Retention.TOOL_LOOP && i >= loopStart);
            boolean foreign = a.provider() != null && !a.provider().equals(targetProvider);
            List<Part> parts = foreign ? foreignParts(a, keepReasoning && policy.foreignReasoning()
                    == ForeignReasoning.AS_TAGGED_TEXT) : ownParts(a, keepReasoning);
            if (parts.isEmpty()) {
                continue;
            }
            out.add(parts.equals(a.parts()) ? a : new AssistantMessage(parts, a.provider(), a.model(), a.finishReason(),
                    a.rawFinishReason(), a.usage()));
        }
        return List.copyOf(out);
    }

    /**
     * Prepares a request's conversation for a provider, keeping everything else of the request.
     *
     * @param request the request
     * @param targetProvider the name of the provider the request goes to
     * @param policy the policy
     * @param defaultRetention the provider's default retention, used when the policy names none
     * @return the request with its messages prepared (the same request when nothing changed)
     */
    public static ChatRequest prepare(ChatRequest request, String targetProvider, HistoryPolicy policy,
                                      Retention defaultRetention) {
        List<Message> prepared = prepare(request.messages(), targetProvider, policy, defaultRetention);
        return prepared.equals(request.messages()) ? request : new ChatRequest(request.model(), prepared, request.tools(),
                request.reasoning(), request.sampling(), request.extras());
    }

    /**
     * Returns where the current tool loop starts: the index after the last user message, or 0 when
     * there is none.
     *
     * @param conversation the messages
     * @return the index of the first message of the current tool loop
     */
    public static int currentToolLoopStart(List<Message> conversation) {
        for (int i = conversation.size() - 1; i >= 0; i--) {
            if (conversation.get(i) instanceof UserMessage) {
                return i + 1;
            }
        }
        return 0;
    }

    /**
     * Tells whether a turn came from another provider than the target.
     *
     * @param message the turn
     * @param targetProvider the target's name
     * @return true when the turn names another provider
     */
    public static boolean isForeign(AssistantMessage message, String targetProvider) {
        return message.provider() != null && !message.provider().equals(targetProvider);
    }

    private static List<Part> ownParts(AssistantMessage a, boolean keepReasoning) {
        if (keepReasoning) {
            return a.parts();
        }
        List<Part> out = new ArrayList<>(a.parts().size());
        for (Part p : a.parts()) {
            if (p instanceof TextPart t) {
                out.add(t.seals().equals(withoutReasoningState(t.seals())) ? t
                        : new TextPart(t.text(), withoutReasoningState(t.seals())));
            } else if (p instanceof ToolCallPart c) {
                out.add(c.seals().equals(withoutReasoningState(c.seals())) ? c
                        : new ToolCallPart(c.id(), c.name(), c.arguments(), c.argumentsValid(), withoutReasoningState(c.seals())));
            } else if (!(p instanceof ReasoningPart)) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Removes the reasoning state a non-reasoning part may carry (Gemini's thought signature on an
     * answer or a call), keeping what merely identifies it (an item id).
     */
    private static Seals withoutReasoningState(Seals seals) {
        return new Seals(null, null, null, seals.itemId(), seals.format());
    }

    private static List<Part> foreignParts(AssistantMessage a, boolean reasoningAsText) {
        List<Part> out = new ArrayList<>(a.parts().size());
        for (Part p : a.parts()) {
            if (p instanceof ReasoningPart r) {
                if (reasoningAsText && !r.text().isEmpty()) {
                    // the blank line after keeps several such parts, and the answer after them, apart when joined
                    out.add(new TextPart("<think>\n" + r.text() + "\n</think>\n\n", Seals.NONE));
                }
            } else if (p instanceof TextPart t) {
                out.add(t.seals().isEmpty() ? t : new TextPart(t.text(), Seals.NONE));
            } else if (p instanceof ToolCallPart c) {
                out.add(c.seals().isEmpty() ? c : new ToolCallPart(c.id(), c.name(), c.arguments(), c.argumentsValid(),
                        Seals.NONE));
            } else if (!(p instanceof ServerToolPart)) {
                out.add(p);
            }
        }
        return out;
    }
}
