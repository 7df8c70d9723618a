package dev.ruminate.providers.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.providers.bedrock.BedrockCodec;
import dev.ruminate.testkit.EventStreamFrames;
import dev.ruminate.testkit.NettyLeakCheck;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzes the Bedrock ConverseStream family's stream and body decoders through the pipeline's path
 * ({@link FamilyDecoding}): AWS event-stream frames and whole Converse responses.
 *
 * <p>Random bytes rarely carry two matching CRC-32s, so with profile bit 0 set (variant 2 or 3 mod 4)
 * a streamed body is a recipe instead: repeated {@code [kind][length][payload]} (one byte each for kind
 * and length), written as frames with correct checksums: an {@code event} frame of the event type the
 * kind picks ({@code messageStart}, {@code contentBlockDelta}, ...), an {@code exception} frame, or a
 * frame with an unknown message type. That way the fuzzer reaches the JSON of every event.
 */
@ExtendWith(NettyLeakCheck.class)
class BedrockDecodingFuzzTest {

    private static final List<String> EVENTS = List.of("messageStart", "contentBlockStart", "contentBlockDelta",
            "contentBlockStop", "messageStop", "metadata", "somethingNew");

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        BedrockCodec codec = BedrockCodec.of("bedrock");
        if ((FamilyDecoding.profile(data) & 1) == 0 || (data.length > 0 && (data[0] & 1) == 1)) {
            FamilyDecoding.run(codec, data);
            return;
        }
        FamilyDecoding.run(codec, Arrays.copyOf(data, FamilyDecoding.HEADER), frames(FamilyDecoding.body(data)));
    }

    /** Writes the recipe's frames. */
    static byte[] frames(byte[] recipe) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i + 2 <= recipe.length) {
            int kind = recipe[i] & 0xff;
            int length = recipe[i + 1] & 0xff;
            i += 2;
            int end = Math.min(recipe.length, i + length);
            String payload = new String(recipe, i, end - i, StandardCharsets.UTF_8);
            i = end;
            int events = EVENTS.size();
            if (kind % (events + 2) < events) {
                out.writeBytes(EventStreamFrames.event(EVENTS.get(kind % (events + 2)), payload));
            } else if (kind % (events + 2) == events) {
                out.writeBytes(EventStreamFrames.frame(Map.of(":exception-type", kind % 2 == 0 ? "throttlingException"
                        : "validationException", ":content-type", "application/json", ":message-type", "exception"),
                        payload.getBytes(StandardCharsets.UTF_8)));
            } else {
                out.writeBytes(EventStreamFrames.frame(Map.of(":message-type", kind % 2 == 0 ? "error" : "other"),
                        payload.getBytes(StandardCharsets.UTF_8)));
            }
        }
        return out.toByteArray();
    }
}
