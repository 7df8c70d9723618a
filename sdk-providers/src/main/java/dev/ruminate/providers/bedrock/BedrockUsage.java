package dev.ruminate.providers.bedrock;

import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonReading;
import tools.jackson.core.JsonParser;

/**
 * Reads a Converse {@code usage} object: {@code cacheReadInputTokens} as the cached (read) tokens,
 * {@code cacheWriteInputTokens} as the cache writes; Bedrock reports no reasoning token count.
 */
final class BedrockUsage {

    private BedrockUsage() {
    }

    /**
     * Reads the object the parser is at (its {@code START_OBJECT} current), leaving the parser at
     * its {@code END_OBJECT}.
     */
    static Usage read(JsonParser p) {
        Long input = null;
        Long output = null;
        Long cached = null;
        Long written = null;
        String field;
        while ((field = JsonReading.nextIntegerProperty(p)) != null) {
            switch (field) {
                case "inputTokens" -> input = p.getLongValue();
                case "outputTokens" -> output = p.getLongValue();
                case "cacheReadInputTokens" -> cached = p.getLongValue();
                case "cacheWriteInputTokens" -> written = p.getLongValue();
                default -> {
                    // totalTokens is derived from the others
                }
            }
        }
        return new Usage(input, output, null, cached, written);
    }
}
