package dev.ruminate.core.ui;

import dev.ruminate.core.message.Message;
import java.util.List;
import java.util.Optional;

/**
 * The server's memory of the turns a front end was shown: for each message id the front end knows (the id
 * of a UI message, or of an AG-UI assistant message), the messages that make up that turn as the provider
 * gave them (one or more {@link dev.ruminate.core.message.AssistantMessage}s, with the
 * {@link dev.ruminate.core.message.ToolResultMessage}s between them when a tool loop ran), opaque state
 * included. A front end's copy of a turn never carries that state; the server swaps in its own copy when the
 * conversation comes back, and falls back to the front end's visible parts (with no opaque state) when it
 * has none, for instance after a restart or for an id it never issued.
 *
 * <p>Turns are scoped by conversation (the chat id or thread id), so one conversation cannot name another's
 * turns. Ids are issued by the server and should be unguessable.
 *
 * <p>Implementations must be thread-safe. Arguments and results are non-null.
 *
 * @since 0.4
 */
public interface ServerTurns {

    /**
     * Remembers a turn, replacing what was stored under the same ids.
     *
     * @param conversationId the conversation (chat or thread) the turn belongs to
     * @param messageId the id the front end was given for the turn
     * @param turn the turn's messages in order, as the provider gave them; an unmodifiable copy is kept
     */
    void put(String conversationId, String messageId, List<Message> turn);

    /**
     * Looks a turn up.
     *
     * @param conversationId the conversation the front end says the turn belongs to
     * @param messageId the turn's id as the front end sent it back
     * @return the stored turn, or empty when none is stored under both ids
     */
    Optional<List<Message>> find(String conversationId, String messageId);

    /**
     * An in-memory store that forgets the least recently used turn once it holds {@code maxTurns}.
     *
     * @param maxTurns how many turns to keep, at least 1
     * @return a new, empty store
     */
    static ServerTurns inMemory(int maxTurns) {
        return new InMemoryServerTurns(maxTurns);
    }
}
