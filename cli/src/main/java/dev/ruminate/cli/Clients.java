package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.providers.MissingSettingException;
import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.ProviderKinds;
import dev.ruminate.providers.ProviderSetting;
import dev.ruminate.providers.ProviderSettings;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.transport.http.ApiKey;
import java.net.URI;

/**
 * The command line's side of {@link ProviderKinds}: a {@code --provider} name to its kind, and a
 * client built from settings, with a missing setting reported as the option that gives it.
 */
final class Clients {

    /** What the emulators are given: they check no credential, and these are no secrets. */
    private static final ApiKey EMULATOR_KEY = ApiKey.of("emulator-key-not-a-secret");
    private static final AwsCredentials EMULATOR_AWS = AwsCredentials.of("AKIDREPLAY", "replay-secret-not-a-secret");

    private Clients() {
    }

    /**
     * Returns the kind of a {@code --provider} name.
     *
     * @throws UsageException for an unknown name, listing the known ones
     */
    static ProviderKind kind(String name) {
        return ProviderKinds.find(name).orElseThrow(() -> new UsageException("unknown provider '" + name + "'; known: "
                + String.join(", ", ProviderKinds.names())));
    }

    /**
     * Builds a client.
     *
     * @throws UsageException naming the option or variable of a setting the kind requires
     */
    static ChatProvider create(ProviderKind kind, ProviderSettings settings) {
        try {
            return kind.create(settings);
        } catch (MissingSettingException e) {
            throw new UsageException("provider " + kind.name() + " needs " + option(kind, e.setting()));
        } catch (IllegalArgumentException e) {
            throw new UsageException(String.valueOf(e.getMessage()));
        }
    }

    private static String option(ProviderKind kind, ProviderSetting setting) {
        return switch (setting) {
            case BASE_URL -> "--base-url (it has no default URL)";
            case REGION -> "--region, $AWS_REGION or a bedrock-runtime.REGION.amazonaws.com --base-url";
            case PROJECT -> "--project";
            case LOCATION -> "--location";
            case API_KEY, ACCESS_TOKEN -> "$" + kind.keyVariable() + " (or name another variable with --api-key-env)";
            case AWS_CREDENTIALS -> "$AWS_ACCESS_KEY_ID and $" + kind.keyVariable();
        };
    }

    /**
     * Builds a client for an emulator on loopback, which checks no credential: every setting the
     * kind requires gets a stand-in.
     */
    static ChatProvider forEmulator(String name, URI emulator, boolean thinkTags, HistoryPolicy history) {
        ProviderKind kind = kind(name);
        ProviderSettings.Builder settings = ProviderSettings.builder().baseUrl(emulator).history(history)
                .thinkTags(thinkTags ? ThinkTagOptions.DEFAULT : null);
        switch (kind.credential()) {
            case API_KEY, OPTIONAL_API_KEY -> settings.apiKey(EMULATOR_KEY);
            case ACCESS_TOKEN -> settings.accessToken(EMULATOR_KEY);
            case AWS_CREDENTIALS -> settings.awsCredentials(EMULATOR_AWS);
        }
        for (ProviderSetting setting : kind.requires()) {
            switch (setting) {
                case REGION -> settings.region("us-east-1");
                case PROJECT -> settings.project("emulated");
                case LOCATION -> settings.location("global");
                case BASE_URL, API_KEY, ACCESS_TOKEN, AWS_CREDENTIALS -> { }
            }
        }
        return create(kind, settings.build());
    }

    /** Builds a client for an emulator with the default history policy. */
    static ChatProvider forEmulator(String name, URI emulator, boolean thinkTags) {
        return forEmulator(name, emulator, thinkTags, HistoryPolicy.DEFAULT);
    }
}
