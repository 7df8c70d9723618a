package dev.ruminate.providers.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.WriteProbe;
import dev.ruminate.transport.http.ApiKey;
import io.netty.channel.ChannelOption;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Sinks;
import reactor.netty.http.client.HttpClient;
import reactor.test.StepVerifier;

/**
 * Backpressure end to end (issue 21): a subscriber that asks for a few events of a stream of more
 * than 10 MB and then for nothing makes the client stop reading the socket, which the emulator
 * observes as a write that blocks with far less than the stream written; asking for the rest then
 * delivers the whole stream, reduced to exactly the text the emulator sent. Cancelling during the
 * pause closes the connection.
 *
 * <p>The client's socket receive buffer is set to 64 KiB ({@code SO_RCVBUF}, which also turns off
 * the kernel's receive-buffer auto-tuning, up to 32 MiB here), so that what the kernels hold is
 * small and stable and the bound below is about the client, not about loopback tuning.
 */
@ExtendWith(NettyLeakCheck.class)
class BackpressureTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int RECEIVE_BUFFER = 64 * 1024;
    /** The stream's body is at least this long. */
    private static final int STREAM_BYTES = 10 * 1024 * 1024;
    /**
     * The most the emulator may have written while the client pauses: its kernel's socket send
     * buffer, which Linux auto-tunes up to {@code tcp_wmem}'s maximum (read from {@code /proc}; 4 MiB
     * by default, and the measured figures show it reached), plus 1 MiB for the client: its socket
     * receive buffer (64 KiB asked, which Linux doubles) and what it read ahead of demand (bounded by
     * the providers' backpressure contract, measured at about 200 to 300 KB). Measured: see the
     * line each test prints, e.g. 4,485,486 bytes of an 11,195,763-byte Chat Completions stream.
     */
    private static final long BOUND = sendBufferMax() + 1024L * 1024;
    private static final ChatRequest REQUEST = ChatRequest.builder("m").user("Say a lot.").build();

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    /** A client and its format's stream of the given answer text. */
    record Client(String name, BiFunction<ProviderEmulator, HttpClient, ChatProvider> build,
                  Function<String, EmulatorResponse> stream) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static <B extends ProviderBuilder<B>> B at(B builder, ProviderEmulator emulator, HttpClient http) {
        return builder.baseUrl(emulator.baseUrl().toString()).httpClient(http);
    }

    static Stream<Client> clients() {
        return Stream.of(
                new Client("chat-completions-sse", (e, http) -> at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK), e, http)
                        .apiKey(ApiKey.of("k")).build(),
                        text -> ChatCompletionsScript.create().content(text).tokensOf(32).toResponse()),
                new Client("ollama-ndjson", (e, http) -> at(OllamaProvider.builder(), e, http).build(),
                        text -> OllamaScript.create().content(text).tokensOf(32).toResponse()),
                new Client("bedrock-event-stream", (e, http) -> at(BedrockProvider.builder("us-east-1"), e, http)
                        .credentials(AwsCredentials.of("AKID", "s")).build(),
                        text -> BedrockScript.create().text(text).tokensOf(32).toResponse()));
    }

    /** Linux's largest auto-tuned socket send buffer, the third field of {@code tcp_wmem}; 4 MiB elsewhere. */
    private static long sendBufferMax() {
        try {
            String[] fields = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/net/ipv4/tcp_wmem"))
                    .trim().split("\\s+");
            return Long.parseLong(fields[2]);
        } catch (java.io.IOException | RuntimeException e) {
            return 4L * 1024 * 1024;
        }
    }

    /** A varied answer text of at least {@code chars} characters, so that a lost or repeated piece shows. */
    private static String answer(int chars) {
        StringBuilder text = new StringBuilder(chars + 16);
        for (int i = 0; text.length() < chars; i++) {
            text.append("word").append(i).append(' ');
        }
        return text.toString();
    }

    /** An answer text long enough for the client's stream to be at least {@link #STREAM_BYTES} long. */
    private static String answerFor(Client client) {
        int sample = 100_000;
        int sampleBytes = client.stream().apply(answer(sample)).body().length;
        return answer((int) ((long) STREAM_BYTES * sample / sampleBytes) + sample);
    }

    /** Serves a stream of more than 10 MB whose answer is {@code text}, observed by the returned probe. */
    private WriteProbe serveLarge(Client client, String text) {
        WriteProbe probe = WriteProbe.create();
        EmulatorResponse response = client.stream().apply(text);
        assertThat(response.body().length).as("stream length").isGreaterThanOrEqualTo(STREAM_BYTES);
        emulator.enqueue(response.observedBy(probe));
        return probe;
    }

    private static ChatProvider provider(Client client, ProviderEmulator emulator) {
        return client.build().apply(emulator, HttpClient.create().option(ChannelOption.SO_RCVBUF, RECEIVE_BUFFER));
    }

    /** Requests a few events, then only when told; records what it receives. */
    private static final class Slow extends BaseSubscriber<ChatEvent> {
        final List<ChatEvent> events = new CopyOnWriteArrayList<>();
        final Sinks.Empty<Void> firstFew = Sinks.empty();
        final Sinks.Empty<Void> done = Sinks.empty();
        private final int initial;

        Slow(int initial) {
            this.initial = initial;
        }

        @Override
        protected void hookOnSubscribe(org.reactivestreams.Subscription subscription) {
            request(initial);
        }

        @Override
        protected void hookOnNext(ChatEvent event) {
            events.add(event);
            if (events.size() == initial) {
                firstFew.tryEmitEmpty();
            }
        }

        @Override
        protected void hookOnComplete() {
            done.tryEmitEmpty();
        }

        @Override
        protected void hookOnError(Throwable error) {
            done.tryEmitError(error);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void aPausedSubscriberPausesTheSocketAndThenGetsTheWholeStream(Client client) {
        String text = answerFor(client);
        WriteProbe probe = serveLarge(client, text);
        Slow slow = new Slow(3);
        provider(client, emulator).stream(REQUEST).subscribe(slow);
        StepVerifier.create(slow.firstFew.asMono()).expectComplete().verify(WAIT);

        long blockedAt = Objects.requireNonNull(probe.blocked().block(WAIT), "never blocked");
        // the emulator is blocked: the subscriber has what it asked for and nothing more, most of the stream is unsent
        assertThat(slow.events).hasSize(3);
        assertThat(blockedAt).as("bytes written when blocked").isLessThanOrEqualTo(BOUND).isLessThan(probe.bodyBytes() / 2);
        System.out.printf("%s: blocked after %d of %d bytes (%.1f%%)%n", client, blockedAt, probe.bodyBytes(),
                100.0 * blockedAt / probe.bodyBytes());
        assertThat(probe.writtenBytes()).as("bytes written while paused").isLessThanOrEqualTo(BOUND);

        slow.requestUnbounded();
        StepVerifier.create(slow.done.asMono()).expectComplete().verify(WAIT);
        StepVerifier.create(probe.finished()).expectComplete().verify(WAIT);
        ChatResult result = Objects.requireNonNull(ChatReducer.defaults().reduce(reactor.core.publisher.Flux
                .fromIterable(slow.events)).block(WAIT), "no result");
        assertThat(result.message().text()).isEqualTo(text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void cancellingDuringThePauseClosesTheConnection(Client client) {
        WriteProbe probe = serveLarge(client, answerFor(client));
        Slow slow = new Slow(3);
        provider(client, emulator).stream(REQUEST).subscribe(slow);
        StepVerifier.create(slow.firstFew.asMono()).expectComplete().verify(WAIT);
        StepVerifier.create(probe.blocked()).expectNextCount(1).expectComplete().verify(WAIT);

        slow.cancel();
        StepVerifier.create(probe.closed()).expectComplete().verify(WAIT);
        StepVerifier.create(emulator.connectionClosed(0)).expectComplete().verify(WAIT);
        assertThat(probe.writtenBytes()).isLessThanOrEqualTo(BOUND);
        assertThat(emulator.openConnections()).isZero();
    }
}
