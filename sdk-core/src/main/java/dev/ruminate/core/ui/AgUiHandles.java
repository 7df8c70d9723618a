package dev.ruminate.core.ui;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The values an AG-UI front end holds in place of a provider's opaque state ({@code encryptedValue} on a
 * reasoning message or a tool call): {@code ruminate-turn:<turn id>:<part index>}, naming a part of a turn
 * kept in {@link ServerTurns}. The turn id is a random UUID the server issued, so a handle cannot be
 * guessed, and it resolves only within its own thread. Stateless.
 */
final class AgUiHandles {

    private static final String PREFIX = "ruminate-turn:";

    private AgUiHandles() {
    }

    /** The handle of part {@code part} of the turn stored under {@code turnId}. */
    static String of(String turnId, int part) {
        return PREFIX + turnId + ":" + part;
    }

    /**
     * Resolves a handle to the stored part it names, or empty when it is not a handle, or names a turn or a
     * part this server does not hold for the thread.
     */
    static Optional<Part> resolve(ServerTurns turns, String threadId, @Nullable String handle) {
        if (handle == null || !handle.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int colon = handle.lastIndexOf(':');
        if (colon <= PREFIX.length()) {
            return Optional.empty();
        }
        String turnId = handle.substring(PREFIX.length(), colon);
        int index;
        try {
            index = Integer.parseInt(handle.substring(colon + 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (index < 0) {
            return Optional.empty();
        }
        Optional<List<Message>> turn = turns.find(threadId, turnId);
        if (turn.isEmpty()) {
            return Optional.empty();
        }
        for (Message m : turn.get()) {
            if (m instanceof AssistantMessage a) {
                return index < a.parts().size() ? Optional.of(a.parts().get(index)) : Optional.empty();
            }
        }
        return Optional.empty();
    }
}
