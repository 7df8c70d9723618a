package dev.ruminate.providers.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.providers.ollama.OllamaCodec;
import dev.ruminate.testkit.NettyLeakCheck;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzes the Ollama native family's stream and body decoders through the pipeline's path
 * ({@link FamilyDecoding}): NDJSON lines and whole responses, of {@code /api/chat} and
 * {@code /api/generate}.
 */
@ExtendWith(NettyLeakCheck.class)
class OllamaDecodingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        int profile = FamilyDecoding.profile(data);
        FamilyDecoding.run(profile % 2 == 0 ? OllamaCodec.chat("ollama") : OllamaCodec.generate("ollama"), data);
    }
}
