package dev.ruminate.providers.bedrock;

import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonReading;
import tools.jackson.core.JsonParser;

/** Reads a Converse {@code usage} object; Bedrock reports no reasoning token count. */
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
        String field;
        while ((field = JsonReading.nextIntegerProperty(p)) != null) {
            switch (field) {
                case "inputTokens" -> input = p.getLongValue();
                case "outputTokens" -> output = p.getLongValue();
                case "cacheReadInputTokens" -> cached = p.getLongValue();
                default -> {
                    // totalTokens is derived; cache writes are billed input, not a separate count here
                }
            }
        }
        return new Usage(input, output, null, cached);
    }
}
