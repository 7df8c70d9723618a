package dev.ruminate.benchmarks;

import dev.ruminate.gateway.GatewayApplication;
import dev.ruminate.spring.EnvironmentVariables;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The gateway application started in this JVM on a free loopback port, auth off (allowed on loopback only), one
 * route per upstream: route {@code NAME} goes to a DeepSeek-kind provider (Chat Completions with
 * {@code reasoning_content}, as {@link Loopback#provider} builds it for the direct path) at the given base URL,
 * upstream model {@code deepseek-reasoner}. The upstream gets a dummy key; Boot logs warnings only.
 */
final class GatewayLoopback implements AutoCloseable {

    /** The environment variable the routes' providers read their (dummy) key from. */
    private static final String KEY_VARIABLE = "BENCH_UPSTREAM_KEY";

    private final ConfigurableApplicationContext context;
    /** The gateway's root, {@code http://127.0.0.1:PORT}: its endpoints are under {@code /v1}. */
    final String baseUrl;

    /**
     * Starts the gateway.
     *
     * @param upstreams route name to the upstream's base URL (the provider appends {@code /chat/completions})
     */
    GatewayLoopback(Map<String, String> upstreams) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("server.port", "0");
        p.put("server.address", "127.0.0.1");
        p.put("spring.main.banner-mode", "off");
        p.put("spring.main.log-startup-info", "false");
        p.put("logging.level.root", "warn");
        p.put("ruminate.gateway.auth.enabled", "false");
        upstreams.forEach((route, url) -> {
            p.put("ruminate.providers." + route + ".kind", "deepseek");
            p.put("ruminate.providers." + route + ".base-url", url);
            p.put("ruminate.providers." + route + ".api-key-env", KEY_VARIABLE);
            // one upstream connection per concurrent stream; Reactor Netty's default pool stops at 500
            p.put("ruminate.providers." + route + ".connections.max", "10000");
            p.put("ruminate.gateway.routes." + route + ".provider", route);
            p.put("ruminate.gateway.routes." + route + ".upstream-model", "deepseek-reasoner");
        });
        EnvironmentVariables environment = name -> KEY_VARIABLE.equals(name) ? "bench-upstream-key" : null;
        this.context = new SpringApplicationBuilder(GatewayApplication.class)
                .properties(p)
                .initializers(c -> c.getBeanFactory().registerSingleton("benchEnvironmentVariables", environment))
                .run();
        this.baseUrl = "http://127.0.0.1:" + Objects.requireNonNull(context.getEnvironment().getProperty("local.server.port"));
    }

    /** A streaming Responses request for a route, with {@code store: false} (nothing kept between requests). */
    static byte[] responsesRequest(String route) {
        return ("{\"model\":\"" + route + "\",\"input\":\"Think, then call the tools.\",\"stream\":true,\"store\":false}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A streaming Chat Completions request for a route. */
    static byte[] chatCompletionsRequest(String route) {
        return ("{\"model\":\"" + route + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Think, then call the tools.\"}],"
                + "\"stream\":true}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        context.close();
    }
}
