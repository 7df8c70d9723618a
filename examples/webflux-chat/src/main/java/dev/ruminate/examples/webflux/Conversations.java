package dev.ruminate.examples.webflux;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.UserMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The conversations of the page, kept on the server with their provider state (signatures,
 * encrypted reasoning), which the page never sees: the client's {@code History} decides what of it goes
 * back to the provider on the next turn. In memory and bounded (the oldest conversation is
 * forgotten first), as befits an example; a real service would store {@code MessageJson}.
 *
 * <p>Thread-safe: every method locks the store.
 */
@Component
class Conversations {

    private static final int MAX_CONVERSATIONS = 1_000;

    private final Map<String, List<Message>> byId = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<Message>> eldest) {
            return size() > MAX_CONVERSATIONS;
        }
    };

    /** Returns the turns so far followed by the new question, without storing anything yet. */
    synchronized List<Message> withQuestion(String id, String question) {
        List<Message> messages = new ArrayList<>(byId.getOrDefault(id, List.of()));
        messages.add(new UserMessage(question));
        return messages;
    }

    /**
     * Stores a completed turn. A turn that failed or was cancelled is not stored, so the next
     * question is asked after the last complete answer.
     */
    synchronized void completed(String id, String question, AssistantMessage answer) {
        List<Message> turns = new ArrayList<>(byId.getOrDefault(id, List.of()));
        turns.add(new UserMessage(question));
        turns.add(answer);
        byId.put(id, List.copyOf(turns));
    }
}
