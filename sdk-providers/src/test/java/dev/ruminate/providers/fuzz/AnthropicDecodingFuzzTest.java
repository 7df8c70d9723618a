package dev.ruminate.providers.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.testkit.NettyLeakCheck;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzes the Anthropic Messages family's stream and body decoders through the pipeline's path
 * ({@link FamilyDecoding}): SSE events and whole messages.
 */
@ExtendWith(NettyLeakCheck.class)
class AnthropicDecodingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        FamilyDecoding.run(AnthropicCodec.of(1024), data);
    }
}
