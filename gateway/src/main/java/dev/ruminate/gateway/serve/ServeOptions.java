package dev.ruminate.gateway.serve;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The options of {@code ruminate serve}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param provider the provider kind to front, or null for the built-in emulators
 * @param replay a recorded upstream stream to answer every request with, or null
 * @param baseUrl the backend's base URL, or null for the kind's default
 * @param apiKeyEnv the environment variable holding the backend's key, or null
 * @param model the route name, or null for the provider's name
 * @param upstreamModel the model asked of the backend, or null for the route name
 * @param host the address to bind
 * @param port the port to bind; 0 picks a free one
 * @param noAuth true to serve without gateway keys (loopback only)
 * @param keyEnv the environment variable holding the gateway key(s), comma-separated, or null
 * @param upstreamRequests the directory to write upstream request bodies to, or null
 * @param thinkTags true to read the backend's {@code <think>} tags as reasoning (a replayed or real backend;
 *     sets {@code ruminate.providers.upstream.think-tags})
 * @param recoverOpaqueState true to strip a signature or encrypted content the backend refuses and retry
 *     once ({@code OpaqueStateRecovery.STRIP_AND_RETRY_ONCE}; sets
 *     {@code ruminate.providers.upstream.opaque-state-recovery}); false leaves the refusal an error
 * @since 0.2
 */
public record ServeOptions(@Nullable String provider, @Nullable Path replay, @Nullable String baseUrl,
                           @Nullable String apiKeyEnv, @Nullable String model, @Nullable String upstreamModel,
                           String host, int port, boolean noAuth, @Nullable String keyEnv,
                           @Nullable Path upstreamRequests, boolean thinkTags, boolean recoverOpaqueState) {

    /** The usage text. */
    public static final String USAGE = """
            usage: ruminate serve [options]
              (no --provider)                      front built-in emulators: deepseek-reasoner (reasoning_content;
                                                   calls the first tool offered), qwq-think-tags (<think> tags),
                                                   claude-thinking (signed thinking)
              --provider NAME --replay FILE        answer every request with a recorded upstream stream
              --provider NAME [--base-url URL] [--api-key-env VAR]
                                                   front a real backend
              --model NAME                         the route (model) name; default: the provider name
              --upstream-model NAME                the model asked of the backend; default: the route name
              --host HOST                          the address to bind; default 127.0.0.1
              --port N                             the port; 0 picks a free one; default 8080
              --key-env VAR                        the environment variable holding the gateway key(s)
              --no-auth                            serve without keys (loopback addresses only)
              --think-tags                         the backend writes its reasoning in <think> tags (with --provider):
                                                   read them as reasoning, and send reasoning back as tags
              --recover-opaque-state               when the backend refuses a signature or encrypted content sent
                                                   back, strip it and retry once (with --provider)
              --upstream-requests DIR              write each upstream request body to DIR as it is sent
            """;

    private static final Set<String> VALUED = Set.of("provider", "replay", "base-url", "api-key-env", "model",
            "upstream-model", "host", "port", "key-env", "upstream-requests");
    private static final Set<String> FLAGS = Set.of("no-auth", "think-tags", "recover-opaque-state");

    /**
     * Parses the arguments.
     *
     * @param args the arguments after {@code serve}
     * @return the options
     * @throws IllegalArgumentException with a message for the user, for an unknown or incomplete option
     */
    public static ServeOptions parse(List<String> args) {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + arg);
            }
            String name = arg.substring(2);
            int eq = name.indexOf('=');
            String inline = eq >= 0 ? name.substring(eq + 1) : null;
            name = eq >= 0 ? name.substring(0, eq) : name;
            if (FLAGS.contains(name) && inline == null) {
                flags.add(name);
            } else if (VALUED.contains(name)) {
                String value = inline;
                if (value == null) {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException("--" + name + " needs a value");
                    }
                    value = args.get(++i);
                }
                values.put(name, value);
            } else {
                throw new IllegalArgumentException("unknown option: --" + name);
            }
        }
        boolean noAuth = flags.contains("no-auth");
        boolean thinkTags = flags.contains("think-tags");
        boolean recoverOpaqueState = flags.contains("recover-opaque-state");
        int port;
        try {
            port = Integer.parseInt(values.getOrDefault("port", "8080"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be a number");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be between 0 and 65535");
        }
        String provider = values.get("provider");
        if (provider == null && (values.containsKey("replay") || values.containsKey("base-url")
                || values.containsKey("api-key-env"))) {
            throw new IllegalArgumentException("--replay, --base-url and --api-key-env need --provider");
        }
        if (values.containsKey("replay") && (values.containsKey("base-url") || values.containsKey("api-key-env"))) {
            throw new IllegalArgumentException("--replay serves a recording: it takes no --base-url or --api-key-env");
        }
        if (thinkTags && provider == null) {
            throw new IllegalArgumentException("--think-tags needs --provider (the built-in qwq-think-tags route has it on)");
        }
        if (recoverOpaqueState && provider == null) {
            throw new IllegalArgumentException("--recover-opaque-state needs --provider (it applies to the upstream provider)");
        }
        if (!noAuth && !values.containsKey("key-env")) {
            throw new IllegalArgumentException("give the gateway key with --key-env VAR, or serve without keys with --no-auth");
        }
        return new ServeOptions(provider, path(values.get("replay")), values.get("base-url"), values.get("api-key-env"),
                values.get("model"), values.get("upstream-model"), values.getOrDefault("host", "127.0.0.1"), port, noAuth,
                values.get("key-env"), path(values.get("upstream-requests")), thinkTags, recoverOpaqueState);
    }

    private static @Nullable Path path(@Nullable String value) {
        return value == null ? null : Path.of(value);
    }
}
