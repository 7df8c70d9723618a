package dev.ruminate.providers;

import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.transport.http.ApiKey;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Run by {@link OptionalCredentialLibrariesTest} in a class loader without the AWS SDK and Google's
 * auth library: Bedrock with explicit credentials and Vertex with a fixed token, through the
 * registry as the command line and Spring build them, and what naming a chain then says. Returns
 * what it saw, for the test to check (this class uses no assertion library: it must load nothing
 * beyond what a production caller would).
 */
public final class WithoutCredentialLibraries implements Callable<List<String>> {

    /** Creates the probe; the test instantiates it reflectively in the isolated class loader. */
    public WithoutCredentialLibraries() {
    }

    @Override
    public List<String> call() throws Exception {
        List<String> seen = new ArrayList<>();
        for (String name : List.of("software.amazon.awssdk.auth.credentials.AwsCredentialsProvider",
                "software.amazon.awssdk.regions.Region", "com.google.auth.oauth2.GoogleCredentials")) {
            try {
                Class.forName(name, false, getClass().getClassLoader());
                seen.add("present " + name);
            } catch (ClassNotFoundException e) {
                seen.add("absent " + name);
            }
        }
        ChatRequest request = ChatRequest.builder("model-x").user("Hi").build();
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(BedrockScript.create().text("ok").toResponse());
            var bedrock = ProviderKinds.get("bedrock").create(ProviderSettings.builder()
                    .baseUrl(emulator.baseUrl()).region("us-east-1")
                    .awsCredentials(new AwsCredentials("AKIDEXPLICIT", ApiKey.of("explicit-secret"), ApiKey.of("explicit-token")))
                    .build());
            ChatReducer.defaults().reduce(bedrock.stream(request)).block(Duration.ofSeconds(30));
            RecordedRequest signed = emulator.requests().get(0);
            seen.add("bedrock " + signed.header("Authorization").split(",")[0]);
            seen.add("bedrock token " + signed.header("X-Amz-Security-Token"));

            emulator.enqueue(GeminiScript.create().text("ok").toResponse());
            var vertex = ProviderKinds.get("vertex").create(ProviderSettings.builder()
                    .baseUrl(URI.create(emulator.baseUrl() + "/v1/projects/p/locations/global/publishers/google"))
                    .project("p").location("global").accessToken(ApiKey.of("ya29.fixed")).build());
            ChatReducer.defaults().reduce(vertex.stream(request)).block(Duration.ofSeconds(30));
            seen.add("vertex " + emulator.requests().get(1).header("Authorization"));
        }
        for (String kind : List.of("bedrock", "vertex")) {
            try {
                CredentialChains.apply(ProviderKinds.get(kind), CredentialChains.DEFAULT_CHAIN, "us-east-1",
                        ProviderSettings.builder());
                seen.add(kind + " chain applied");
            } catch (IllegalStateException e) {
                seen.add(kind + " chain: " + e.getMessage());
            }
        }
        return seen;
    }
}
