package dev.ruminate.transport.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.transport.wire.StreamFraming;

/**
 * Fuzzes the newline-delimited JSON framing ({@link StreamFraming#NDJSON}): any body, cut into any
 * buffers, decodes to lines or ends with a {@code ProtocolException}, never another exception or a
 * kept buffer, with the same outcome whole and cut. Input: see {@link FuzzBodies}.
 */
class NdjsonFramingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        FuzzBodies.of(data).decodeBothWays(StreamFraming.NDJSON,
                l -> l.line() + "|" + l.byteOffset() + "|" + FuzzBodies.latin1(l.bytes()));
    }
}
