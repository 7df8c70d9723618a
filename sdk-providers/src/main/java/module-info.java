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
    // optional: only AwsSdkCredentials and GoogleCredentialsTokens refer to them, for the AWS default
    // credentials and region chains and Google's Application Default Credentials
    requires static software.amazon.awssdk.auth;
    requires static software.amazon.awssdk.regions;
    requires static software.amazon.awssdk.identity.spi;
    requires static com.google.auth.oauth2;
    requires static com.google.auth;

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
