package dev.ruminate.examples.modulepath;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.Objects;

/**
 * Runs the README example on the module path against a DeepSeek emulator on loopback, prints the
 * reduced reasoning and answer, then sends the same request over TLS to show that the HTTPS
 * client a real provider needs initializes too.
 *
 * <p>Exits with status 0 when both work, 1 otherwise (with the failure on standard error).
 * Single-threaded; not reusable.
 */
public final class ModulePathExample {

    /** The reasoning the emulator streams. */
    public static final String REASONING = "Sunlight scatters off air molecules; shorter wavelengths scatter most.";
    /** The answer the emulator streams. */
    public static final String ANSWER = "Because air scatters blue light far more than red.";

    private static final Duration TLS_ATTEMPT_LIMIT = Duration.ofSeconds(30);

    private ModulePathExample() {
    }

    /**
     * Runs the example.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(ChatCompletionsScript.create()
                    .model("deepseek-reasoner")
                    .reasoning(REASONING)
                    .content(ANSWER)
                    .finish("stop")
                    .usage(9, 24, 14)
                    .toResponse());

            // The README example, pointed at the emulator.
            ChatProvider deepseek = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                    .baseUrl(emulator.baseUrl() + "/v1")
                    .apiKey(ApiKey.of("test-key")).build();
            ChatRequest request = ChatRequest.builder("deepseek-reasoner").user("Why is the sky blue?").build();
            // block() is null for an empty Mono; reduce() never completes empty, so null would be a bug
            ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(deepseek.stream(request)).block());
            System.out.println(result.message().reasoning() + "\n---\n" + result.message().text());

            // Real providers are reached over HTTPS, whose client classes load only then. The
            // emulator speaks plain HTTP, so the handshake must fail, and fail as TLS.
            ChatProvider overTls = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                    .baseUrl("https://127.0.0.1:" + emulator.baseUrl().getPort() + "/v1")
                    .apiKey(ApiKey.of("test-key")).build();
            try {
                ChatReducer.defaults().reduce(overTls.stream(request)).block(TLS_ATTEMPT_LIMIT);
                System.err.println("https: a plain HTTP server answered a TLS client");
                System.exit(1);
            } catch (RuntimeException e) {
                if (!failedInTls(e)) {
                    e.printStackTrace();
                    System.exit(1);
                }
                System.out.println("https: the TLS handshake ran");
            }
        }
    }

    private static boolean failedInTls(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String name = t.getClass().getName();
            if (name.startsWith("javax.net.ssl.") || name.startsWith("io.netty.handler.ssl.")) {
                return true;
            }
        }
        return false;
    }
}
