package dev.ruminate.core.ui;

import dev.ruminate.core.message.Message;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@link ServerTurns#inMemory}: a bounded map in access order; every method locks it. */
final class InMemoryServerTurns implements ServerTurns {

    private final int maxTurns;
    private final Map<Key, List<Message>> turns;

    InMemoryServerTurns(int maxTurns) {
        if (maxTurns < 1) {
            throw new IllegalArgumentException("maxTurns must be at least 1: " + maxTurns);
        }
        this.maxTurns = maxTurns;
        this.turns = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, List<Message>> eldest) {
                return size() > InMemoryServerTurns.this.maxTurns;
            }
        };
    }

    @Override
    public synchronized void put(String conversationId, String messageId, List<Message> turn) {
        turns.put(new Key(conversationId, messageId), List.copyOf(turn));
    }

    @Override
    public synchronized Optional<List<Message>> find(String conversationId, String messageId) {
        return Optional.ofNullable(turns.get(new Key(conversationId, messageId)));
    }

    @Override
    public String toString() {
        return "ServerTurns.inMemory(max " + maxTurns + ")";
    }

    private record Key(String conversationId, String messageId) {
        Key {
            Objects.requireNonNull(conversationId, "conversationId");
            Objects.requireNonNull(messageId, "messageId");
        }
    }
}
