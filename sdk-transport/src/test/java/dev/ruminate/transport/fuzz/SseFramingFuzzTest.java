package dev.ruminate.transport.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.transport.wire.StreamFraming;

/**
 * Fuzzes the Server-Sent Events framing ({@link StreamFraming#SSE}): any body, cut into any buffers,
 * decodes to events or ends with a {@code ProtocolException}, never another exception, never a
 * kept or released buffer, and gives the same outcome whole and cut. Input: see {@link FuzzBodies}.
 */
class SseFramingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        FuzzBodies.of(data).decodeBothWays(StreamFraming.SSE, SseFramingFuzzTest::describe);
    }

    static String describe(SseEvent e) {
        return e.type() + "|" + e.id() + "|" + e.line() + "|" + e.byteOffset() + "|" + FuzzBodies.latin1(e.data());
    }
}
