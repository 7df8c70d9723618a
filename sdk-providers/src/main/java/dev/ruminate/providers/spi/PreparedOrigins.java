package dev.ruminate.providers.spi;

import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Finds, for a conversation {@link dev.ruminate.core.history.History#prepare} has prepared, where
 * each prepared message and part came from in the conversation as given, so that the encoder's plan
 * entries name the application's indices.
 *
 * <p>It relies on what preparation does and no more: messages keep their order, other messages pass
 * unchanged, an assistant turn is kept (the same object, or a copy with the same provider,
 * model, finish and usage), or dropped when left without parts; its parts keep their order and are
 * kept (the same object, a text or call with seals removed, another provider's reasoning as tagged
 * text in its place) or dropped.
 *
 * <p>Stateless and thread-safe.
 */
// MERGE: replace with History.plan (which returns these maps with the History stage's entries)
final class PreparedOrigins {

    private PreparedOrigins() {
    }

    /**
     * Returns a plan builder with the index maps of a prepared conversation.
     *
     * @throws IllegalStateException if a prepared message or part matches nothing of the original
     *     (preparation did something this matching does not know)
     */
    static SendBackPlan.Builder builder(List<Message> original, List<Message> prepared) {
        int[] turnOrigin = new int[prepared.size()];
        int[][] partOrigin = new int[prepared.size()][];
        int j = 0;
        for (int k = 0; k < prepared.size(); k++) {
            Message m = prepared.get(k);
            int[] parts = null;
            while (j < original.size()) {
                Message o = original.get(j);
                if (o == m || !(m instanceof AssistantMessage) && o.equals(m)) {
                    parts = m instanceof AssistantMessage a ? identity(a.parts().size()) : new int[0];
                } else if (m instanceof AssistantMessage a && o instanceof AssistantMessage b && sameTurn(a, b)) {
                    parts = parts(b.parts(), a.parts());
                }
                j++;
                if (parts != null) {
                    break;
                }
            }
            if (parts == null) {
                throw new IllegalStateException("prepared message " + k + " matches no message of the conversation");
            }
            turnOrigin[k] = j - 1;
            partOrigin[k] = parts;
        }
        return SendBackPlan.builder(turnOrigin, partOrigin);
    }

    private static boolean sameTurn(AssistantMessage prepared, AssistantMessage original) {
        return Objects.equals(prepared.provider(), original.provider()) && Objects.equals(prepared.model(), original.model())
                && prepared.finishReason() == original.finishReason()
                && Objects.equals(prepared.rawFinishReason(), original.rawFinishReason())
                && prepared.usage().equals(original.usage());
    }

    /** Maps prepared parts to original ones in order, or returns null when they cannot come from them. */
    private static int @Nullable [] parts(List<Part> original, List<Part> prepared) {
        int[] out = new int[prepared.size()];
        int i = 0;
        for (int k = 0; k < prepared.size(); k++) {
            while (i < original.size() && !from(original.get(i), prepared.get(k))) {
                i++;
            }
            if (i == original.size()) {
                return null;
            }
            out[k] = i++;
        }
        return out;
    }

    /** Tells whether a prepared part can be the original one, kept, stripped of seals, or turned into tagged text. */
    private static boolean from(Part original, Part prepared) {
        if (original == prepared || original.equals(prepared)) {
            return true;
        }
        if (original instanceof TextPart o && prepared instanceof TextPart p) {
            return o.text().equals(p.text());
        }
        if (original instanceof ToolCallPart o && prepared instanceof ToolCallPart p) {
            return Objects.equals(o.id(), p.id()) && o.name().equals(p.name()) && o.arguments().equals(p.arguments());
        }
        if (original instanceof ReasoningPart o && prepared instanceof TextPart p) {
            return p.text().equals("<think>\n" + o.text() + "\n</think>\n\n");
        }
        return false;
    }

    private static int[] identity(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }
}
