package dev.ruminate.providers.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.providers.responses.ResponsesCodec;
import dev.ruminate.providers.responses.ResponsesProfiles;
import java.util.List;
import dev.ruminate.testkit.NettyLeakCheck;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzes the Responses family's stream and body decoders through the pipeline's path
 * ({@link FamilyDecoding}): SSE events and whole responses, OpenAI's and Open Responses' profiles.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesDecodingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        FamilyDecoding.run(ResponsesCodec.of(FamilyDecoding.pick(data,
                List.of(ResponsesProfiles.OPENAI, ResponsesProfiles.OPEN_RESPONSES))), data);
    }
}
