package dev.ruminate.gateway.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.gateway.GatewayApplication;
import dev.ruminate.spring.EnvironmentVariables;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Flux;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * No secret anywhere, the gateway's part (issue 21, part 5; the providers' part is
 * {@link NoSecretAnywhereTest}): the gateway runs with two client keys, a state key and a previous
 * one, and an upstream key per backend, each a recognisable fake, with DEBUG logging on (root logger,
 * from before the context is refreshed). Through successes (whole and streamed, Responses and Chat
 * Completions, a stateless second turn that opens the sealed state), refused keys (wrong, missing),
 * upstream errors that echo the upstream key, and an upstream connection reset, none of the secrets
 * (nor their base64, URL-encoded or hex forms) may appear in an answer, a log line, the
 * {@code toString} of a Ruminate bean, or a request an upstream received (the gateway's client keys
 * are never forwarded; the upstream key only in its credential header). A gateway that cannot start
 * because its state key is unusable says so without the key.
 */
@ExtendWith(NettyLeakCheck.class)
class GatewaySecretsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Canaries CANARIES = new Canaries();
    private static final String CLIENT_KEY = CANARIES.mint("gw-client-1");
    private static final String SECOND_CLIENT_KEY = CANARIES.mint("gw-client-2");
    private static final String WRONG_CLIENT_KEY = CANARIES.mint("gw-wrong");
    private static final String DEEPSEEK_KEY = CANARIES.mint("sk-upstream-deepseek");
    private static final String ANTHROPIC_KEY = CANARIES.mint("sk-ant-upstream");
    private static final String STATE_KEY = stateKey("state-key");
    private static final String PREVIOUS_STATE_KEY = stateKey("previous-state-key");
    /** The process environment the gateway reads its secrets from; per start. */
    private static final Map<String, String> ENVIRONMENT = new ConcurrentHashMap<>();

    private static ProviderEmulator deepseek;
    private static ProviderEmulator anthropic;
    private static CapturedLogs logs;
    private static ConfigurableApplicationContext gateway;
    private static HttpClient client;

    /** The gateway's environment variables: the fake process environment above. */
    @Configuration(proxyBeanMethods = false)
    static class FakeEnvironment {
        @Bean
        EnvironmentVariables testEnvironment() {
            return ENVIRONMENT::get;
        }
    }

    private static String stateKey(String name) {
        byte[] key = Canaries.bytes(32);
        CANARIES.registerBytes(name, key);
        return CANARIES.register(name + " (as configured)", Base64.getEncoder().encodeToString(key));
    }

    @BeforeAll
    static void start() {
        deepseek = ProviderEmulator.start();
        anthropic = ProviderEmulator.start();
        logs = new CapturedLogs();
        ENVIRONMENT.putAll(Map.of("DEEPSEEK_API_KEY", DEEPSEEK_KEY, "ANTHROPIC_API_KEY", ANTHROPIC_KEY,
                "GW_KEYS", CLIENT_KEY + "," + SECOND_CLIENT_KEY, "GW_STATE_KEY", STATE_KEY));
        gateway = run(List.of());
        client = HttpClient.create().baseUrl("http://127.0.0.1:"
                + Objects.requireNonNull(gateway.getEnvironment().getProperty("local.server.port"))).responseTimeout(WAIT);
    }

    /** Starts the gateway, capturing its log from before its beans are made (Spring Boot re-initialises logging first). */
    private static ConfigurableApplicationContext run(List<String> extra) {
        List<String> p = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off",
                "logging.level.root=DEBUG",
                "ruminate.providers.deepseek.kind=deepseek",
                "ruminate.providers.deepseek.base-url=" + deepseek.baseUrl(),
                "ruminate.providers.deepseek.api-key-env=DEEPSEEK_API_KEY",
                "ruminate.providers.anthropic.kind=anthropic",
                "ruminate.providers.anthropic.base-url=" + anthropic.baseUrl(),
                "ruminate.providers.anthropic.api-key-env=ANTHROPIC_API_KEY",
                "ruminate.gateway.routes.deepseek-reasoner.provider=deepseek",
                "ruminate.gateway.routes.claude.provider=anthropic",
                "ruminate.gateway.routes.claude.upstream-model=claude-sonnet-4-20250514",
                "ruminate.gateway.auth.keys-env=GW_KEYS",
                "ruminate.gateway.state.key-id=k2",
                "ruminate.gateway.state.key-env=GW_STATE_KEY",
                "ruminate.gateway.state.previous-keys.k1=" + PREVIOUS_STATE_KEY));
        p.addAll(extra);
        return new SpringApplicationBuilder(GatewayApplication.class, FakeEnvironment.class)
                .listeners(event -> {
                    if (event instanceof ApplicationPreparedEvent) {
                        logs.attach();
                    }
                })
                .properties(p.toArray(String[]::new)).run();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        logs.stop();
        deepseek.close();
        anthropic.close();
    }

    @AfterEach
    void nothingLoggedASecret() {
        CANARIES.assertClean("the DEBUG log", logs.text());
        logs.clear();
    }

    /** An answer: status and body. */
    record Reply(int status, String body) {
    }

    private static Reply post(String path, @Nullable String key, String body) {
        HttpClient c = client.headers(h -> {
            h.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
            if (key != null) {
                h.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + key);
            }
        });
        Reply reply = c.post().uri(path).send(ByteBufFlux.fromString(Flux.just(body)))
                .responseSingle((res, b) -> b.asString(StandardCharsets.UTF_8).defaultIfEmpty("")
                        .map(s -> new Reply(res.status().code(), s)))
                .block(WAIT);
        CANARIES.assertClean("the answer to " + path, Objects.requireNonNull(reply).body());
        return reply;
    }

    private static ObjectNode responsesRequest(String model, boolean stream) {
        ObjectNode r = JSON.createObjectNode();
        r.put("model", model);
        r.put("input", "Hi");
        r.put("store", false);
        r.put("stream", stream);
        r.putArray("include").add("reasoning.encrypted_content");
        return r;
    }

    private static EmulatorResponse deepseekAnswer() {
        return ChatCompletionsScript.create().reasoning("Thinking.").content("Hi there").usage(3, 2, 1).toResponse();
    }

    @Test
    void successesWholeStreamedAndAStatelessSecondTurnShowNoSecret() {
        deepseek.enqueue(deepseekAnswer());
        Reply whole = post("/v1/responses", CLIENT_KEY, responsesRequest("deepseek-reasoner", false).toString());
        assertThat(whole.status()).isEqualTo(200);
        assertThat(whole.body()).contains("Hi there");

        deepseek.enqueue(deepseekAnswer());
        Reply streamed = post("/v1/responses", SECOND_CLIENT_KEY, responsesRequest("deepseek-reasoner", true).toString());
        assertThat(streamed.status()).isEqualTo(200);
        assertThat(streamed.body()).contains("response.completed");

        // the second turn sends the first turn's output back, sealed state included: the gateway opens it
        ObjectNode turn2 = responsesRequest("deepseek-reasoner", false);
        ArrayNode input = turn2.putArray("input");
        input.addObject().put("role", "user").put("content", "Hi");
        JSON.readTree(whole.body()).path("output").forEach(input::add);
        input.addObject().put("role", "user").put("content", "And then?");
        deepseek.enqueue(deepseekAnswer());
        Reply second = post("/v1/responses", CLIENT_KEY, turn2.toString());
        assertThat(second.status()).as(second.body()).isEqualTo(200);

        anthropic.enqueue(AnthropicScript.create().thinking("Thinking.", "sig-1").text("Hi there").toResponse());
        assertThat(post("/v1/responses", CLIENT_KEY, responsesRequest("claude", true).toString()).status()).isEqualTo(200);

        deepseek.enqueue(deepseekAnswer());
        Reply chat = post("/v1/chat/completions", CLIENT_KEY,
                "{\"model\":\"deepseek-reasoner\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");
        assertThat(chat.status()).isEqualTo(200);

        assertThat(logs.debugLinesFrom("org.springframework")).as("Spring logged at DEBUG").isPositive();
        checkUpstreamRequests();
    }

    @Test
    void refusedClientKeysAreNotRepeated() {
        Reply wrong = post("/v1/responses", WRONG_CLIENT_KEY, responsesRequest("deepseek-reasoner", false).toString());
        assertThat(wrong.status()).isEqualTo(401);
        Reply missing = post("/v1/responses", null, responsesRequest("deepseek-reasoner", false).toString());
        assertThat(missing.status()).isEqualTo(401);
        Reply mangled = post("/v1/chat/completions", CLIENT_KEY + "x", "{}");
        assertThat(mangled.status()).isEqualTo(401);
        assertThat(mangled.body()).doesNotContain(CLIENT_KEY);
    }

    @Test
    void upstreamErrorsThatEchoTheUpstreamKeyReachNoClientAndNoLog() {
        for (int status : new int[] {400, 401, 403, 429, 500}) {
            for (boolean stream : new boolean[] {false, true}) {
                deepseek.enqueue(EmulatorResponse.httpError(status, echo(DEEPSEEK_KEY)));
                Reply reply = post("/v1/responses", CLIENT_KEY, responsesRequest("deepseek-reasoner", stream).toString());
                assertThat(reply.status() != 200 || reply.body().contains("response.failed")).as(reply.body()).isTrue();
                anthropic.enqueue(EmulatorResponse.httpError(status, echo(ANTHROPIC_KEY)));
                post("/v1/chat/completions", CLIENT_KEY, "{\"model\":\"claude\",\"stream\":" + stream
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");
            }
        }
        EmulatorResponse ok = deepseekAnswer();
        deepseek.enqueue(ok.resetAfter(ok.body().length / 2));
        Reply cut = post("/v1/responses", CLIENT_KEY, responsesRequest("deepseek-reasoner", true).toString());
        assertThat(cut.body()).contains("response.failed");
        // an in-stream error that quotes the upstream key
        deepseek.enqueue(EmulatorResponse.sse("data: {\"error\":{\"message\":\"key " + DEEPSEEK_KEY + " revoked\"}}\n\n"));
        post("/v1/responses", CLIENT_KEY, responsesRequest("deepseek-reasoner", true).toString());
        checkUpstreamRequests();
    }

    @Test
    void noRuminateBeanPrintsASecret() {
        for (String name : gateway.getBeanDefinitionNames()) {
            Object bean = gateway.getBean(name);
            if (bean.getClass().getName().startsWith("dev.ruminate")) {
                CANARIES.assertClean("bean " + name, bean.toString());
            }
        }
    }

    @Test
    void aStateKeyThatCannotBeUsedFailsStartupWithoutShowingIt() {
        String shortKey = CANARIES.register("short-state-key", Base64.getEncoder().encodeToString(Canaries.bytes(31)));
        String notBase64 = CANARIES.mint("not-base64-state-key") + "!";
        for (List<String> bad : List.of(List.of("ruminate.gateway.state.key-env=GW_BAD_KEY"),
                List.of("ruminate.gateway.state.key-env=", "ruminate.gateway.state.key=" + shortKey),
                List.of("ruminate.gateway.state.previous-keys.k1=" + notBase64))) {
            ENVIRONMENT.put("GW_BAD_KEY", shortKey);
            Throwable failure = null;
            try {
                run(bad).close();
            } catch (RuntimeException e) {
                failure = e;
            }
            assertThat(failure).as("the gateway refused %s", bad.get(0).replaceAll("=.*", "")).isNotNull();
            StringWriter printed = new StringWriter();
            failure.printStackTrace(new PrintWriter(printed));
            CANARIES.assertClean("the startup failure", printed.toString());
        }
    }

    private static String echo(String key) {
        String said = "Incorrect API key provided: " + key;
        return "{\"type\":\"error\",\"error\":{\"message\":\"" + said + "\",\"type\":\"authentication_error\",\"code\":\""
                + key + "\"}}";
    }

    /** What the backends received: no client key or state key anywhere, the upstream key in its credential header only. */
    private static void checkUpstreamRequests() {
        List<RecordedRequest> all = new ArrayList<>(deepseek.requests());
        all.addAll(anthropic.requests());
        assertThat(all).isNotEmpty();
        for (RecordedRequest r : all) {
            CANARIES.assertClean("an upstream request's toString", r.toString());
            CANARIES.assertClean("an upstream request's body", r.body());
            CANARIES.assertClean("an upstream request's path", r.path());
            r.headers().forEach((name, values) -> {
                String value = String.join(",", values);
                String lower = name.toLowerCase(Locale.ROOT);
                if (lower.equals("authorization") || lower.equals("x-api-key")) {
                    value = value.replace(DEEPSEEK_KEY, "UPSTREAM").replace(ANTHROPIC_KEY, "UPSTREAM");
                }
                CANARIES.assertClean("upstream header " + name, value);
            });
        }
    }
}
