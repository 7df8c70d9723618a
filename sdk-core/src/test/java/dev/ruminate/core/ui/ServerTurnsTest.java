package dev.ruminate.core.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerTurnsTest {

    private static final List<Message> TURN = List.of(new UserMessage("a"));

    @Test
    void aTurnIsFoundOnlyUnderItsOwnConversation() {
        ServerTurns turns = ServerTurns.inMemory(10);
        turns.put("chat-1", "msg-1", TURN);
        assertThat(turns.find("chat-1", "msg-1")).contains(TURN);
        assertThat(turns.find("chat-2", "msg-1")).isEmpty();
        assertThat(turns.find("chat-1", "msg-2")).isEmpty();
    }

    @Test
    void theLeastRecentlyUsedTurnIsForgottenFirst() {
        ServerTurns turns = ServerTurns.inMemory(2);
        turns.put("c", "1", TURN);
        turns.put("c", "2", TURN);
        turns.find("c", "1");
        turns.put("c", "3", TURN);
        assertThat(turns.find("c", "1")).isPresent();
        assertThat(turns.find("c", "2")).isEmpty();
        assertThat(turns.find("c", "3")).isPresent();
    }

    @Test
    void theStoredTurnIsACopy() {
        ServerTurns turns = ServerTurns.inMemory(2);
        List<Message> mutable = new ArrayList<>(TURN);
        turns.put("c", "1", mutable);
        mutable.clear();
        assertThat(turns.find("c", "1")).contains(TURN);
    }

    @Test
    void aStoreMustHoldSomething() {
        assertThatThrownBy(() -> ServerTurns.inMemory(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
