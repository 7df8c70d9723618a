/**
 * Ruminate's provider APIs, one package per API: request encoding, stream and body decoding,
 * profiles and send-back rules.
 */
module dev.ruminate.providers {
    requires transitive dev.ruminate.transport;
    requires tools.jackson.core;
    // structured output is validated against its JSON schema (only the validator's String-based API is
    // used, so this module needs not read jackson-databind)
    requires com.networknt.schema;

    exports dev.ruminate.providers;
    exports dev.ruminate.providers.anthropic;
    exports dev.ruminate.providers.bedrock;
    exports dev.ruminate.providers.chatcompletions;
    exports dev.ruminate.providers.gemini;
    exports dev.ruminate.providers.ollama;
    exports dev.ruminate.providers.responses;
    exports dev.ruminate.providers.serving;
    exports dev.ruminate.providers.spi;
}
