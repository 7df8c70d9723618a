package dev.ruminate.transport.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.transport.wire.StreamFraming;

/**
 * Fuzzes the streamed JSON array framing (Gemini without {@code alt=sse}): an even variant byte
 * decodes with {@link StreamFraming#JSON_ARRAY}, an odd one with {@link StreamFraming#SSE_OR_JSON_ARRAY},
 * which sniffs the body and reads it as SSE or as an array. Any body, cut into any buffers, decodes
 * or ends with a {@code ProtocolException} or {@code IncompleteStreamException}, never another
 * exception or a kept buffer, with the same outcome whole and cut. Input: see {@link FuzzBodies}.
 */
class JsonArrayFramingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        FuzzBodies body = FuzzBodies.of(data);
        if ((body.variant & 1) == 0) {
            body.decodeBothWays(StreamFraming.JSON_ARRAY,
                    e -> e.index() + "|" + e.line() + "|" + e.byteOffset() + "|" + FuzzBodies.latin1(e.bytes()));
        } else {
            body.decodeBothWays(StreamFraming.SSE_OR_JSON_ARRAY, SseFramingFuzzTest::describe);
        }
    }
}
