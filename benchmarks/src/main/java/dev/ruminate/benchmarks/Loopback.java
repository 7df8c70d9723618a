package dev.ruminate.benchmarks;

import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import reactor.netty.http.client.HttpClient;

/** The end-to-end setup shared by the loopback benchmark and {@link OpenStreams}: emulator, provider, request. */
final class Loopback implements AutoCloseable {

    static final ChatRequest REQUEST = ChatRequest.builder("deepseek-reasoner").user("Think, then call the tools.")
            .build();

    final ProviderEmulator emulator;
    final ChatCompletionsProvider provider;
    final ReasoningStream stream;

    /**
     * Starts an emulator that answers every request with the stream (or, when {@code stallAfterFirstEvent}, with
     * its first event only, the connection then held open and silent), and a provider pointed at it.
     */
    Loopback(int chunks, boolean stallAfterFirstEvent, HttpClient client) {
        this.stream = ReasoningStream.generate(chunks, 42);
        EmulatorResponse response = EmulatorResponse.sse(new String(stream.sse, StandardCharsets.UTF_8));
        if (stallAfterFirstEvent) {
            response = response.stallAfter(("data: ".length() + stream.payloads.get(0).length + 2) * 2);
        }
        this.emulator = ProviderEmulator.start().always(response);
        this.provider = provider(emulator.baseUrl().toString(), client);
    }

    /** A provider pointed at an emulator, in this JVM or another. */
    static ChatCompletionsProvider provider(String baseUrl, HttpClient client) {
        return ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                .baseUrl(baseUrl)
                .apiKey(ApiKey.of("bench-key"))
                .httpClient(client)
                .build();
    }

    @Override
    public void close() {
        emulator.close();
    }
}
