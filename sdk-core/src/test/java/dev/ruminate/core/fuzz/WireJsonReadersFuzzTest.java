package dev.ruminate.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.json.EventJson;
import dev.ruminate.core.json.LoopEventJson;
import dev.ruminate.core.json.MessageJson;
import dev.ruminate.core.message.Message;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes the readers of Ruminate's wire JSON ({@code dev.ruminate.core.json}): whatever the text,
 * {@link EventJson#read}, {@link MessageJson#read}, {@link MessageJson#readAll} and
 * {@link LoopEventJson#read} return a value or throw their documented {@link ProtocolException},
 * never another exception; and what {@code EventJson} and {@code MessageJson} read, they write back
 * to JSON that reads as the same value.
 *
 * <p>Input: byte 0 picks the reader (mod 4), the rest is the JSON as UTF-8 (malformed UTF-8 becomes
 * replacement characters, as a service decoding a request would make it).
 */
class WireJsonReadersFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String json = new String(Arrays.copyOfRange(data, 1, data.length), StandardCharsets.UTF_8);
        try {
            switch (data[0] & 3) {
                case 0 -> {
                    ChatEvent event = EventJson.read(json);
                    same(event, EventJson.read(EventJson.write(event)));
                }
                case 1 -> {
                    Message message = MessageJson.read(json);
                    same(message, MessageJson.read(MessageJson.write(message)));
                }
                case 2 -> {
                    List<Message> messages = MessageJson.readAll(json);
                    same(messages, MessageJson.readAll(MessageJson.writeAll(messages)));
                }
                default -> LoopEventJson.read(json);
            }
        } catch (ProtocolException expected) {
            // the documented failure: malformed JSON or a wrong shape
        }
    }

    private static void same(Object read, Object reread) {
        if (!read.equals(reread)) {
            throw new AssertionError("written and read again, " + read + " became " + reread);
        }
    }
}
