package dev.ruminate.providers.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import java.util.List;
import dev.ruminate.testkit.NettyLeakCheck;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fuzzes the Chat Completions family's stream and body decoders through the pipeline's path
 * ({@link FamilyDecoding}): SSE chunks and whole completions, with the profiles whose reasoning
 * carriers differ (OpenAI, DeepSeek, OpenRouter, Mistral, Perplexity, OpenAI-compatible), picked by
 * the variant bits.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsDecodingFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        FamilyDecoding.run(ChatCompletionsCodec.of(FamilyDecoding.pick(data, List.of(Profiles.OPENAI,
                Profiles.DEEPSEEK, Profiles.OPENROUTER, Profiles.MISTRAL, Profiles.PERPLEXITY,
                Profiles.OPENAI_COMPATIBLE))), data);
    }
}
