package dev.ruminate.providers;

import dev.ruminate.core.ChatProvider;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One kind of provider the command line, Spring and the tests know by name ({@code deepseek},
 * {@code openai-responses}, {@code anthropic}, {@code bedrock}, …): what it is, what it needs, and
 * how to build its client from {@link ProviderSettings}. Every kind is in {@link ProviderKinds}.
 *
 * <p>Immutable and thread-safe; each {@code create} builds a new client.
 *
 * @since 0.1
 */
public final class ProviderKind {

    /** How a kind's server tells who calls. */
    public enum Credential {
        /** An API key, which the public endpoint requires. */
        API_KEY,
        /** An API key if the server asks for one: a server usually run locally, without one. */
        OPTIONAL_API_KEY,
        /** An OAuth access token (Vertex AI). */
        ACCESS_TOKEN,
        /** AWS credentials, with which requests are signed (Bedrock). */
        AWS_CREDENTIALS
    }

    /** A builder with the kind's own settings applied, and how to build it once the caller has adjusted it. */
    record Started(ProviderBuilder<?> builder, Supplier<ChatProvider> build) {
    }

    /** Creates the builder of a kind from settings already checked. */
    @FunctionalInterface
    interface Starter {
        Started start(ProviderKind kind, ProviderSettings settings);
    }

    private final String name;
    private final List<String> aliases;
    private final String description;
    private final ApiFamily api;
    private final @Nullable URI defaultBaseUrl;
    private final Credential credential;
    private final String keyVariable;
    private final Set<ProviderSetting> requires;
    private final Starter starter;

    ProviderKind(String name, List<String> aliases, String description, ApiFamily api, @Nullable String defaultBaseUrl,
                 Credential credential, String keyVariable, Set<ProviderSetting> requires, Starter starter) {
        this.name = Objects.requireNonNull(name, "name");
        this.aliases = List.copyOf(aliases);
        this.description = Objects.requireNonNull(description, "description");
        this.api = Objects.requireNonNull(api, "api");
        this.defaultBaseUrl = defaultBaseUrl != null ? URI.create(defaultBaseUrl) : null;
        this.credential = Objects.requireNonNull(credential, "credential");
        this.keyVariable = Objects.requireNonNull(keyVariable, "keyVariable");
        this.requires = requires.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(requires));
        this.starter = Objects.requireNonNull(starter, "starter");
    }

    /**
     * Returns the name: what {@code ruminate --provider} and {@code ruminate.providers.*.kind} take.
     *
     * @return the name, lower case
     */
    public String name() {
        return name;
    }

    /**
     * Returns the other names accepted for this kind (such as {@code chat-completions} for
     * {@code openai-compatible}).
     *
     * @return the aliases, possibly empty
     */
    public List<String> aliases() {
        return aliases;
    }

    /**
     * Returns a one-line description, for listings.
     *
     * @return the description
     */
    public String description() {
        return description;
    }

    /**
     * Returns the wire API the kind speaks.
     *
     * @return the API
     */
    public ApiFamily api() {
        return api;
    }

    /**
     * Returns the public endpoint used when no base URL is set.
     *
     * @return the URL, or null when it depends on other settings (region, project) or the kind has
     *     none (then {@link ProviderSetting#BASE_URL} is in {@link #requires()})
     */
    public @Nullable URI defaultBaseUrl() {
        return defaultBaseUrl;
    }

    /**
     * Returns how the server tells who calls.
     *
     * @return the credential
     */
    public Credential credential() {
        return credential;
    }

    /**
     * Returns the conventional environment variable of the key, token or secret, such as
     * {@code DEEPSEEK_API_KEY}; tools read it, the registry does not.
     *
     * @return the variable's name
     */
    public String keyVariable() {
        return keyVariable;
    }

    /**
     * Returns the settings without which {@link #create(ProviderSettings)} fails. An API key is
     * never among them, even for {@link Credential#API_KEY}: a gateway in front of the server may
     * add it.
     *
     * @return the settings, possibly empty
     */
    public Set<ProviderSetting> requires() {
        return requires;
    }

    /**
     * Builds a client.
     *
     * @param settings the settings
     * @return the client
     * @throws MissingSettingException if a setting of {@link #requires()} is not set
     * @throws IllegalArgumentException if a setting is invalid (such as a malformed region) or does
     *     not apply (an API key for a kind that signs with AWS credentials)
     */
    public ChatProvider create(ProviderSettings settings) {
        Objects.requireNonNull(settings, "settings");
        for (ProviderSetting setting : requires) {
            if (!isSet(setting, settings)) {
                throw new MissingSettingException(name, setting);
            }
        }
        return create(settings, builder -> { });
    }

    /**
     * Builds a client, letting the caller adjust the builder after the settings were applied (to
     * set a provider-specific option, or a credential source only the caller knows). The settings
     * the builder cannot be created without (region, project, location) are checked first; a
     * missing base URL after the adjustment; missing credentials by the provider's own builder.
     *
     * @param settings the settings
     * @param customizer adjusts the builder; check its concrete type for provider-specific options
     * @return the client
     * @throws MissingSettingException if a setting of {@link #requires()} is not set
     * @throws IllegalArgumentException if a setting is invalid or does not apply
     * @throws IllegalStateException if the builder cannot build (no credentials), naming this kind
     */
    public ChatProvider create(ProviderSettings settings, Consumer<? super ProviderBuilder<?>> customizer) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(customizer, "customizer");
        for (ProviderSetting setting : List.of(ProviderSetting.REGION, ProviderSetting.PROJECT, ProviderSetting.LOCATION)) {
            if (requires.contains(setting) && !isSet(setting, settings)) {
                throw new MissingSettingException(name, setting);
            }
        }
        Started started = starter.start(this, settings);
        ProviderBuilder<?> builder = started.builder();
        applyCommon(settings, builder);
        customizer.accept(builder);
        if (requires.contains(ProviderSetting.BASE_URL) && builder.configuredBaseUrl() == null) {
            throw new MissingSettingException(name, ProviderSetting.BASE_URL);
        }
        try {
            return started.build().get();
        } catch (IllegalStateException e) {
            // The builders' messages name their own setters and never a value.
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
    }

    private static void applyCommon(ProviderSettings settings, ProviderBuilder<?> builder) {
        if (settings.baseUrl() != null) {
            builder.baseUrl(Objects.requireNonNull(settings.baseUrl()));
        }
        if (settings.readTimeout() != null) {
            builder.readTimeout(Objects.requireNonNull(settings.readTimeout()));
        }
        if (settings.httpClient() != null) {
            builder.httpClient(Objects.requireNonNull(settings.httpClient()));
        }
        builder.history(settings.history()).resilience(settings.resilience()).wireLimits(settings.wireLimits())
                .opaqueStateRecovery(settings.opaqueStateRecovery());
    }

    private boolean isSet(ProviderSetting setting, ProviderSettings settings) {
        return switch (setting) {
            case BASE_URL -> settings.baseUrl() != null;
            case API_KEY -> settings.apiKey() != null;
            case REGION -> ProviderKinds.region(settings) != null;
            case PROJECT -> notBlank(settings.project());
            case LOCATION -> notBlank(settings.location());
            case ACCESS_TOKEN -> settings.accessToken() != null || settings.apiKey() != null;
            case AWS_CREDENTIALS -> settings.awsCredentials() != null;
        };
    }

    private static boolean notBlank(@Nullable String value) {
        return value != null && !value.isBlank();
    }

    @Override
    public String toString() {
        return "ProviderKind[" + name + "]";
    }
}
