package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import java.io.PrintStream;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code ruminate chat}: one streamed turn against a real endpoint, the key read from an environment variable. */
final class ChatCommand {

    private ChatCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Args parsed = Args.parse(args, Set.of("provider", "base-url", "model", "api-key-env", "effort"),
                Set.of("think-tags", "no-color"));
        String provider = parsed.required("provider");
        String model = parsed.required("model");
        ProviderCatalog.entry(provider);
        if (parsed.positional().isEmpty()) {
            throw new UsageException("chat needs a PROMPT");
        }
        String keyVariable = parsed.option("api-key-env", ProviderCatalog.defaultKeyVariable(provider));
        String value = System.getenv(keyVariable);
        ApiKey key = null;
        if (value != null && !value.isBlank()) {
            key = ApiKey.fromEnv(keyVariable);
        } else if (!ProviderCatalog.keyOptional(provider)) {
            throw new UsageException("set the API key in $" + keyVariable + " (or name another variable with --api-key-env)");
        }
        String baseUrl = parsed.option("base-url");
        URI base = baseUrl != null ? URI.create(baseUrl) : ProviderCatalog.defaultBaseUrl(provider);
        if (base == null) {
            throw new UsageException("provider " + provider + " has no default URL: give --base-url");
        }
        ChatRequest.Builder request = ChatRequest.builder(model).user(String.join(" ", parsed.positional()));
        String effort = parsed.option("effort");
        if (effort != null) {
            try {
                request.reasoning(ReasoningOptions.effort(ReasoningEffort.valueOf(effort.toUpperCase(Locale.ROOT))));
            } catch (IllegalArgumentException e) {
                throw new UsageException("unknown effort '" + effort + "'");
            }
        }
        ChatProvider client = ProviderCatalog.create(provider, base, key, parsed.flag("think-tags"));
        Style style = parsed.flag("no-color") ? Style.plain() : Style.detect();
        LiveRenderer live = new LiveRenderer(out, style);
        try {
            ChatResult result = ChatReducer.defaults().reduce(client.stream(request.build()).doOnNext(live::onEvent)).block();
            live.finish();
            if (result != null) {
                out.println(style.note(TextRendering.usage(result.message().usage())));
                out.println(style.note(TextRendering.verdict(result.reasoningCheck())));
            }
            return Main.OK;
        } catch (RuminateException e) {
            live.finish();
            err.println(style.error("stream failed (" + e.type() + "): " + e.getMessage()));
            return Main.STREAM_FAILED;
        }
    }
}
