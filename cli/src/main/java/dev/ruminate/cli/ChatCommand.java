package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.message.Media;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.OpaqueStateRecovery;
import dev.ruminate.providers.CredentialChains;
import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.ProviderSettings;
import dev.ruminate.providers.bedrock.AwsCredentials;
import java.io.PrintStream;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code ruminate chat}: one streamed turn against a real endpoint, the key read from an environment
 * variable. The request options of {@link RequestInputs} add an output schema, images and documents
 * (before the prompt's text, as every API wants them) and prompt caching. The warnings of the call
 * (an option the provider ignored or coerced) are printed as they arrive, above the answer
 * ({@link LiveRenderer}); input the provider does not take is a one-line error, nothing sent.
 */
final class ChatCommand {

    private ChatCommand() {
    }

    /** The options that say which endpoint and model to talk to, shared with {@code loop}. */
    static final Set<String> ENDPOINT_OPTIONS = Set.of("provider", "base-url", "model", "api-key-env", "effort", "region",
            "project", "location", "credentials");

    /** The flags of the endpoint, shared with {@code loop}: think tags, and the recovery from rejected opaque state. */
    static final Set<String> ENDPOINT_FLAGS = Set.of("think-tags", "recover-opaque-state");

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Set<String> valued = new HashSet<>(ENDPOINT_OPTIONS);
        valued.addAll(RequestInputs.OPTIONS);
        Args parsed = Args.parse(args, valued, flags());
        String provider = parsed.required("provider");
        String model = parsed.required("model");
        ProviderKind kind = Clients.kind(provider);
        if (parsed.positional().isEmpty()) {
            throw new UsageException("chat needs a PROMPT");
        }
        // every file is read and checked here, before the key is looked up or anything is sent
        RequestInputs inputs = RequestInputs.parse(parsed);
        ChatRequest.Builder request = ChatRequest.builder(model)
                .user(String.join(" ", parsed.positional()), inputs.media().toArray(Media[]::new))
                .output(inputs.output()).caching(inputs.caching());
        effort(parsed, request);
        ChatProvider client = client(parsed, kind);
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
        } catch (UnsupportedInputException e) {
            // refused before anything was sent: the fix is on the command line
            live.finish();
            throw new InputException(Failures.describe(e));
        } catch (RuminateException e) {
            live.finish();
            err.println(style.error("stream failed (" + e.type() + "): " + Failures.describe(e)));
            return Main.STREAM_FAILED;
        }
    }

    /** Sets the reasoning effort given by {@code --effort}, if any. */
    static void effort(Args parsed, ChatRequest.Builder request) {
        String effort = parsed.option("effort");
        if (effort != null) {
            try {
                request.reasoning(ReasoningOptions.effort(ReasoningEffort.valueOf(effort.toUpperCase(Locale.ROOT))));
            } catch (IllegalArgumentException e) {
                throw new UsageException("unknown effort '" + effort + "'");
            }
        }
    }

    /** The endpoint flags and {@code --no-color}. */
    static Set<String> flags() {
        Set<String> flags = new HashSet<>(ENDPOINT_FLAGS);
        flags.add("no-color");
        return flags;
    }

    /**
     * Builds the client the endpoint options and flags describe: {@code --think-tags}, and
     * {@code --recover-opaque-state} for {@link OpaqueStateRecovery#STRIP_AND_RETRY_ONCE}.
     */
    static ChatProvider client(Args parsed, ProviderKind kind) {
        String baseUrl = parsed.option("base-url");
        String option = parsed.option("region");
        String region = option != null ? option : System.getenv("AWS_REGION");
        ProviderSettings.Builder settings = ProviderSettings.builder()
                .baseUrl(baseUrl != null ? URI.create(baseUrl) : null)
                .region(region)
                .project(parsed.option("project"))
                .location(parsed.option("location"))
                .thinkTags(parsed.flag("think-tags") ? ThinkTagOptions.DEFAULT : null)
                .opaqueStateRecovery(parsed.flag("recover-opaque-state") ? OpaqueStateRecovery.STRIP_AND_RETRY_ONCE
                        : OpaqueStateRecovery.OFF);
        String chain = parsed.option("credentials");
        if (chain != null) {
            try {
                CredentialChains.apply(kind, chain, region, settings);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new UsageException("--credentials " + chain + ": " + e.getMessage());
            }
        } else {
            credentials(kind, parsed.option("api-key-env", kind.keyVariable()), settings);
        }
        return Clients.create(kind, settings.build());
    }

    /** The key, token or AWS secret from the variable named by {@code --api-key-env}, as the kind takes it. */
    private static void credentials(ProviderKind kind, String variable, ProviderSettings.Builder settings) {
        String value = System.getenv(variable);
        boolean set = value != null && !value.isBlank();
        if (!set && kind.credential() != ProviderKind.Credential.OPTIONAL_API_KEY) {
            throw new UsageException("set the " + (kind.credential() == ProviderKind.Credential.AWS_CREDENTIALS
                    ? "AWS secret access key" : "API key") + " in $" + variable + " (or name another variable with --api-key-env)");
        }
        if (!set) {
            return;
        }
        switch (kind.credential()) {
            case API_KEY, OPTIONAL_API_KEY -> settings.apiKey(ApiKey.fromEnv(variable));
            case ACCESS_TOKEN -> settings.accessToken(ApiKey.fromEnv(variable));
            case AWS_CREDENTIALS -> {
                String id = System.getenv("AWS_ACCESS_KEY_ID");
                if (id == null || id.isBlank()) {
                    throw new UsageException("set $AWS_ACCESS_KEY_ID");
                }
                String session = System.getenv("AWS_SESSION_TOKEN");
                settings.awsCredentials(new AwsCredentials(id.strip(), ApiKey.fromEnv(variable),
                        session == null || session.isBlank() ? null : ApiKey.fromEnv("AWS_SESSION_TOKEN")));
            }
        }
    }
}
