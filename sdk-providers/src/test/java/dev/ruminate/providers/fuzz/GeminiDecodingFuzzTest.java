package dev.ruminate.providers.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.providers.gemini.GeminiCodec;
import java.util.List;
import dev.ruminate.testkit.NettyLeakCheck;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzes the Gemini family's stream and body decoders through the pipeline's path
 * ({@link FamilyDecoding}): SSE or streamed JSON array chunks (the codec's framing sniffs which) and
 * whole responses, as Gemini and as Vertex.
 */
@ExtendWith(NettyLeakCheck.class)
class GeminiDecodingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        FamilyDecoding.run(GeminiCodec.of(FamilyDecoding.pick(data, List.of("gemini", "vertex")), false), data);
    }
}
