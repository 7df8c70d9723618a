package dev.ruminate.gateway.serve;

import dev.ruminate.gateway.GatewayApplication;
import dev.ruminate.gateway.route.Route;
import dev.ruminate.gateway.route.Routes;
import dev.ruminate.spring.EnvironmentVariables;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.ProviderEmulator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code ruminate serve}: runs the gateway locally and prints, as its first line on standard
 * output, {@code ruminate gateway listening on http://HOST:PORT/v1}. Everything else (warnings,
 * the routes) goes to standard error, and logging is quiet.
 *
 * <p>Three ways to front something: with no {@code --provider}, built-in emulators on loopback (no
 * network, no key), each answering every request with a scripted reasoning stream: a DeepSeek-like
 * {@code reasoning_content} model (which calls the first tool offered, once per tool loop), a
 * model writing {@code <think>} tags, and an Anthropic-like model with signed thinking; with {@code --provider NAME --replay FILE}, an emulator answering
 * every request with a recorded upstream stream (SSE, NDJSON or AWS event-stream, as recorded);
 * with {@code --provider NAME}, the real backend of that kind. See {@link ServeOptions#USAGE}.
 *
 * @since 0.2
 */
public final class ServeMain {

    /** The upstream connections each provider may open: a gateway needs one per concurrent stream. */
    static final int UPSTREAM_CONNECTIONS = 10_000;

    /** The environment variable that holds the dummy key given to emulated backends. */
    static final String EMULATOR_KEY_VARIABLE = "RUMINATE_SERVE_EMULATOR_KEY";

    private ServeMain() {
    }

    /**
     * A running gateway and the emulators behind it.
     *
     * @since 0.2
     */
    public static final class Serving implements AutoCloseable {
        private final ConfigurableApplicationContext context;
        private final List<ProviderEmulator> emulators;
        private final String baseUrl;

        /** The running application, for tests. */
        ConfigurableApplicationContext context() {
            return context;
        }

        Serving(ConfigurableApplicationContext context, List<ProviderEmulator> emulators, String baseUrl) {
            this.context = context;
            this.emulators = List.copyOf(emulators);
            this.baseUrl = baseUrl;
        }

        /**
         * Returns the gateway's base URL.
         *
         * @return {@code http://HOST:PORT/v1}
         */
        public String baseUrl() {
            return baseUrl;
        }

        /**
         * Returns the emulators behind the routes (none when fronting a real backend).
         *
         * @return the emulators
         */
        public List<ProviderEmulator> emulators() {
            return emulators;
        }

        /** Stops the gateway and the emulators. */
        @Override
        public void close() {
            context.close();
            emulators.forEach(ProviderEmulator::close);
        }
    }

    /**
     * Runs the command until the process is stopped.
     *
     * @param args the arguments after {@code serve}
     */
    public static void main(String[] args) {
        if (Arrays.asList(args).contains("--help")) {
            System.out.println(ServeOptions.USAGE.stripTrailing());
            return;
        }
        Serving serving;
        try {
            serving = start(Arrays.asList(args), System.out, System.err);
        } catch (IllegalArgumentException e) {
            System.err.println("ruminate serve: " + e.getMessage());
            System.err.print(ServeOptions.USAGE);
            System.exit(2);
            return;
        } catch (RuntimeException e) {
            System.err.println("ruminate serve: the gateway could not start: " + rootMessage(e));
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            serving.close();
            stopped.countDown();
        }, "ruminate-serve-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts the gateway.
     *
     * @param args the arguments after {@code serve}
     * @param out where the listening line goes
     * @param err where the routes are listed
     * @return the running gateway
     * @throws IllegalArgumentException for bad options or an unreadable recording
     */
    public static Serving start(List<String> args, PrintStream out, PrintStream err) {
        ServeOptions options = ServeOptions.parse(args);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("server.address", options.host());
        properties.put("server.port", options.port());
        properties.put("spring.main.banner-mode", "off");
        properties.put("spring.main.log-startup-info", "false");
        properties.put("logging.config", "classpath:ruminate-serve-logback.xml");
        properties.put("logging.level.root", "warn");
        properties.put("logging.level.org.springframework.boot.web.embedded.netty", "error");
        List<ProviderEmulator> emulators = new ArrayList<>();
        try {
            if (options.provider() == null) {
                builtInEmulators(properties, emulators);
            } else if (options.replay() != null) {
                replay(options, properties, emulators);
            } else {
                realBackend(options, properties);
            }
            if (options.noAuth()) {
                properties.put("ruminate.gateway.auth.enabled", "false");
            } else {
                properties.put("ruminate.gateway.auth.keys-env", Objects.requireNonNull(options.keyEnv()));
            }
            SpringApplicationBuilder app = new SpringApplicationBuilder(GatewayApplication.class).properties(properties);
            EnvironmentVariables environment = name -> EMULATOR_KEY_VARIABLE.equals(name) ? "emulator" : System.getenv(name);
            UpstreamRequestRecorder recorder = options.upstreamRequests() == null ? null
                    : new UpstreamRequestRecorder(options.upstreamRequests());
            ToolCallingEmulator tools = options.provider() == null ? new ToolCallingEmulator("deepseek", emulators.get(0)) : null;
            app.initializers(context -> {
                context.getBeanFactory().registerSingleton("ruminateEnvironmentVariables", environment);
                if (tools != null) {
                    context.getBeanFactory().registerSingleton("ruminateServeToolCalls", tools);
                }
                if (recorder != null) {
                    context.getBeanFactory().registerSingleton("ruminateUpstreamRequestRecorder", recorder);
                }
            });
            ConfigurableApplicationContext context = app.run();
            String port = context.getEnvironment().getProperty("local.server.port");
            String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
            String baseUrl = "http://" + host + ":" + port + "/v1";
            out.println("ruminate gateway listening on " + baseUrl);
            out.flush();
            err.println("routes: " + context.getBean(Routes.class).all().stream()
                    .map(Route::toString).collect(Collectors.joining(", ")));
            return new Serving(context, emulators, baseUrl);
        } catch (RuntimeException e) {
            emulators.forEach(ProviderEmulator::close);
            throw e;
        }
    }

    /** Three emulated backends, each a route, answering every request with a scripted reasoning stream. */
    private static void builtInEmulators(Map<String, Object> p, List<ProviderEmulator> emulators) {
        ProviderEmulator deepseek = ProviderEmulator.start().always(ChatCompletionsScript.create()
                .model("deepseek-reasoner")
                .reasoning("The user asks something. I will think it through step by step, then answer briefly.")
                .content("Here is a short answer from the emulated DeepSeek reasoner.")
                .finish("stop").usage(12, 30, 18).toResponse());
        ProviderEmulator tags = ProviderEmulator.start().always(ChatCompletionsScript.create()
                .model("qwq-32b")
                .content("<think>\nLet me reason about this in tags, as QwQ and the R1 distills do.\n</think>\n\n"
                        + "Here is a short answer from the emulated think-tag model.")
                .finish("stop").usage(12, 28, 0).toResponse());
        ProviderEmulator anthropic = ProviderEmulator.start().always(AnthropicScript.create()
                .model("claude-sonnet-4-5")
                .thinking("I should consider what is asked, then answer.", "RW11bGF0ZWQgc2lnbmF0dXJlIG9mIHRoaXMgdGhpbmtpbmcu")
                .text("Here is a short answer from the emulated Claude.")
                .usage(12, 25).toResponse());
        emulators.addAll(List.of(deepseek, tags, anthropic));
        provider(p, "deepseek", "deepseek", deepseek.baseUrl().toString(), EMULATOR_KEY_VARIABLE);
        route(p, "deepseek-reasoner", "deepseek", "deepseek-reasoner");
        provider(p, "think-tags", "openai-compatible", tags.baseUrl() + "/v1", null);
        p.put("ruminate.providers.think-tags.think-tags", "true");
        route(p, "qwq-think-tags", "think-tags", "qwq-32b");
        provider(p, "anthropic", "anthropic", anthropic.baseUrl().toString(), EMULATOR_KEY_VARIABLE);
        route(p, "claude-thinking", "anthropic", "claude-sonnet-4-5");
    }

    private static void replay(ServeOptions options, Map<String, Object> p, List<ProviderEmulator> emulators) {
        String kind = Objects.requireNonNull(options.provider());
        byte[] recording = read(Objects.requireNonNull(options.replay()));
        ProviderEmulator emulator = ProviderEmulator.start().always(EmulatorResponse.replay(recording, contentType(recording)));
        emulators.add(emulator);
        String base = emulator.baseUrl().toString();
        provider(p, "upstream", kind, kind.contains("compatible") || kind.equals("chat-completions") ? base + "/v1" : base,
                EMULATOR_KEY_VARIABLE);
        String model = options.model() != null ? options.model() : kind;
        route(p, model, "upstream", options.upstreamModel() != null ? options.upstreamModel() : model);
        if ("bedrock".equals(kind)) {
            p.put("ruminate.providers.upstream.region", "us-east-1");
        }
        thinkTags(options, p);
    }

    private static void realBackend(ServeOptions options, Map<String, Object> p) {
        String kind = Objects.requireNonNull(options.provider());
        provider(p, "upstream", kind, options.baseUrl(), options.apiKeyEnv());
        String model = options.model() != null ? options.model() : kind;
        route(p, model, "upstream", options.upstreamModel() != null ? options.upstreamModel() : model);
        thinkTags(options, p);
    }

    /**
     * {@code --think-tags}: the upstream provider reads {@code <think>} tags as reasoning (and its route sends
     * reasoning back as tags); {@code --recover-opaque-state}: it strips refused opaque state and retries once.
     */
    private static void thinkTags(ServeOptions options, Map<String, Object> p) {
        if (options.thinkTags()) {
            p.put("ruminate.providers.upstream.think-tags", "true");
        }
        if (options.recoverOpaqueState()) {
            p.put("ruminate.providers.upstream.opaque-state-recovery", "strip-and-retry-once");
        }
    }

    private static void provider(Map<String, Object> p, String name, String kind, @Nullable String baseUrl,
                                 @Nullable String keyVariable) {
        p.put("ruminate.providers." + name + ".kind", kind);
        // Each stream through the gateway holds one upstream connection for its whole length: Reactor Netty's
        // default pool (500 per host) would make the 501st concurrent stream wait 45 s and fail.
        p.put("ruminate.providers." + name + ".connections.max", UPSTREAM_CONNECTIONS);
        if (baseUrl != null) {
            p.put("ruminate.providers." + name + ".base-url", baseUrl);
        }
        if (keyVariable != null) {
            p.put("ruminate.providers." + name + ".api-key-env", keyVariable);
        }
    }

    private static void route(Map<String, Object> p, String route, String provider, String upstreamModel) {
        p.put("ruminate.gateway.routes." + route + ".provider", provider);
        p.put("ruminate.gateway.routes." + route + ".upstream-model", upstreamModel);
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no such file: " + file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * Tells a recording's framing from its bytes: an AWS event-stream frame opens with a prelude whose
     * CRC matches; several lines that each hold one JSON object are NDJSON; anything else is served
     * as Server-Sent Events. A single JSON object is a non-streaming body, which the gateway does not
     * replay (it always streams from the backend).
     */
    static String contentType(byte[] body) {
        if (body.length >= 12) {
            CRC32 crc = new CRC32();
            crc.update(body, 0, 8);
            long prelude = ((body[8] & 0xffL) << 24) | ((body[9] & 0xffL) << 16) | ((body[10] & 0xffL) << 8) | (body[11] & 0xffL);
            if (crc.getValue() == prelude) {
                return "application/vnd.amazon.eventstream";
            }
        }
        String text = new String(body, StandardCharsets.UTF_8).strip();
        if (text.startsWith("{")) {
            String[] lines = text.split("\n");
            if (lines.length < 2) {
                throw new IllegalArgumentException("the recording is one JSON body, not a stream: replay a streaming "
                        + "recording (.sse, .ndjson, .eventstream)");
            }
            return "application/x-ndjson";
        }
        return "text/event-stream";
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }
}
