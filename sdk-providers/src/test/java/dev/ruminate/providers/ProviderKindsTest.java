package dev.ruminate.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.resilience.Timeouts;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.test.StepVerifier;

/**
 * The registry of provider kinds: every kind builds from the settings it says it requires and
 * streams an answer from the emulator; a missing required setting fails naming it; names are
 * unique; no secret shows in a description of settings, clients or failures.
 */
@ExtendWith(NettyLeakCheck.class)
class ProviderKindsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String KEY = "sk-registry-test-4f9d2c71e0";
    private static final String TOKEN = "ya29.registry-test-token-81b3";
    private static final String AWS_SECRET = "aws-registry-test-secret-0c5e";
    private static final String AWS_SESSION = "aws-registry-test-session-9a7f";
    private static final ChatRequest REQUEST = ChatRequest.builder("model-x").user("Hi").build();

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static Stream<ProviderKind> kinds() {
        return ProviderKinds.all().stream();
    }

    /** The base URL, the key its credential calls for, and nothing else but what the kind says it requires. */
    private static ProviderSettings.Builder minimal(ProviderKind kind) {
        return minimalWithout(kind, null);
    }

    private static ProviderSettings.Builder minimalWithout(ProviderKind kind, ProviderSetting omitted) {
        ProviderSettings.Builder settings = ProviderSettings.builder();
        if (omitted != ProviderSetting.BASE_URL) {
            settings.baseUrl(emulator.baseUrl());
        }
        switch (kind.credential()) {
            case API_KEY, OPTIONAL_API_KEY -> settings.apiKey(ApiKey.of(KEY));
            case ACCESS_TOKEN, AWS_CREDENTIALS -> { }
        }
        for (ProviderSetting setting : kind.requires()) {
            if (setting == omitted) {
                continue;
            }
            switch (setting) {
                case BASE_URL, API_KEY -> { }
                case REGION -> settings.region("eu-west-1");
                case PROJECT -> settings.project("my-project");
                case LOCATION -> settings.location("global");
                case ACCESS_TOKEN -> settings.accessToken(ApiKey.of(TOKEN));
                case AWS_CREDENTIALS -> settings.awsCredentials(
                        new AwsCredentials("AKIDREGISTRYTEST", ApiKey.of(AWS_SECRET), ApiKey.of(AWS_SESSION)));
            }
        }
        return settings;
    }

    private static EmulatorResponse hello(ApiFamily api) {
        return switch (api) {
            case CHAT_COMPLETIONS -> ChatCompletionsScript.create().content("Hello").toResponse();
            case RESPONSES -> ResponsesScript.create().text("Hello").toResponse();
            case ANTHROPIC -> AnthropicScript.create().text("Hello").toResponse();
            case GEMINI -> GeminiScript.create().text("Hello").toResponse();
            case OLLAMA -> OllamaScript.create().content("Hello").toResponse();
            case BEDROCK -> BedrockScript.create().text("Hello").toResponse();
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyKindBuildsFromWhatItRequiresAndStreamsAScriptedAnswer(ProviderKind kind) {
        int before = emulator.requests().size();
        emulator.enqueue(hello(kind.api()));
        ChatProvider client = kind.create(minimal(kind).build());

        StepVerifier.create(client.stream(REQUEST).ofType(ContentDelta.class).map(ContentDelta::text).reduce("", String::concat))
                .expectNext("Hello").expectComplete().verify(WAIT);

        List<RecordedRequest> requests = emulator.requests();
        assertThat(requests).hasSize(before + 1);
        RecordedRequest sent = requests.get(requests.size() - 1);
        String credential = switch (kind.credential()) {
            case API_KEY, OPTIONAL_API_KEY -> KEY;
            case ACCESS_TOKEN -> "Bearer " + TOKEN;
            case AWS_CREDENTIALS -> "AWS4-HMAC-SHA256 Credential=AKIDREGISTRYTEST/";
        };
        assertThat(sent.headers().values().stream().flatMap(List::stream))
                .as("the credential of %s is sent", kind).anyMatch(v -> v.contains(credential));
    }

    static Stream<Arguments> requiredSettings() {
        List<Arguments> all = new ArrayList<>();
        for (ProviderKind kind : ProviderKinds.all()) {
            for (ProviderSetting setting : kind.requires()) {
                all.add(Arguments.of(kind, setting));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} without {1}")
    @MethodSource("requiredSettings")
    void aMissingRequiredSettingFailsNamingIt(ProviderKind kind, ProviderSetting setting) {
        ProviderSettings without = minimalWithout(kind, setting).build();
        assertThatThrownBy(() -> kind.create(without))
                .isInstanceOfSatisfying(MissingSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo(setting);
                    assertThat(e.kind()).isEqualTo(kind.name());
                })
                .hasMessageContainingAll(kind.name(), setting.propertyName());
    }

    @Test
    void kindsWithoutAPublicEndpointRequireABaseUrlAndTheOthersDoNot() {
        for (ProviderKind kind : ProviderKinds.all()) {
            boolean derived = kind.requires().contains(ProviderSetting.REGION) || kind.requires().contains(ProviderSetting.PROJECT);
            assertThat(kind.requires().contains(ProviderSetting.BASE_URL))
                    .as(kind.name()).isEqualTo(kind.defaultBaseUrl() == null && !derived);
        }
        assertThat(ProviderKinds.get("openai-compatible").requires()).containsExactly(ProviderSetting.BASE_URL);
        assertThat(ProviderKinds.get("deepseek").defaultBaseUrl()).isEqualTo(URI.create("https://api.deepseek.com"));
    }

    @Test
    void theGatewayAndHostProfilesAreKindsWithTheirDocumentedEndpoints() {
        assertThat(ProviderKinds.get("gemini-openai").defaultBaseUrl())
                .isEqualTo(URI.create("https://generativelanguage.googleapis.com/v1beta/openai"));
        assertThat(ProviderKinds.get("vercel-gateway").defaultBaseUrl()).isEqualTo(URI.create("https://ai-gateway.vercel.sh/v1"));
        assertThat(ProviderKinds.get("moonshot").defaultBaseUrl()).isEqualTo(URI.create("https://api.moonshot.ai/v1"));
        assertThat(ProviderKinds.get("minimax").defaultBaseUrl()).isEqualTo(URI.create("https://api.minimax.io/v1"));
        assertThat(ProviderKinds.get("Azure-OpenAI")).isSameAs(ProviderKinds.get("azure"));
        assertThat(ProviderKinds.get("azure").requires()).containsExactly(ProviderSetting.BASE_URL);
        assertThat(ProviderKinds.get("azure").api()).isEqualTo(ApiFamily.CHAT_COMPLETIONS);
        assertThat(ProviderKinds.get("azure").keyVariable()).isEqualTo(ProviderKinds.get("azure-responses").keyVariable());
    }

    @Test
    void aBaseUrlSetByTheCustomizerSatisfiesTheKind() {
        emulator.enqueue(hello(ApiFamily.CHAT_COMPLETIONS));
        ChatProvider client = ProviderKinds.get("openai-compatible").create(ProviderSettings.DEFAULTS,
                builder -> builder.baseUrl(emulator.baseUrl()));
        StepVerifier.create(client.stream(REQUEST).ofType(ContentDelta.class).map(ContentDelta::text).reduce("", String::concat))
                .expectNext("Hello").expectComplete().verify(WAIT);
        assertThatThrownBy(() -> ProviderKinds.get("open-responses").create(ProviderSettings.DEFAULTS, builder -> { }))
                .isInstanceOf(MissingSettingException.class).hasMessageContaining("baseUrl");
    }

    @Test
    void credentialsLeftToTheCustomizerFailTheBuildNamingTheKind() {
        ProviderSettings settings = ProviderSettings.builder().region("us-east-1").build();
        assertThatThrownBy(() -> ProviderKinds.get("bedrock").create(settings, builder -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessageContainingAll("bedrock", "credentials");
        ProviderSettings vertex = ProviderSettings.builder().project("p").location("global").build();
        assertThatThrownBy(() -> ProviderKinds.get("vertex").create(vertex, builder -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessageContainingAll("vertex", "access token");
    }

    @Test
    void theSettingsEveryKindSharesReachTheBuilder() {
        HistoryPolicy history = HistoryPolicy.DEFAULT.withRetention(Retention.NONE);
        Resilience guards = Resilience.builder().timeouts(new Timeouts(Duration.ofSeconds(3), null, null)).build();
        for (ProviderKind kind : ProviderKinds.all()) {
            ProviderSettings settings = minimal(kind).history(history).resilience(guards)
                    .readTimeout(Duration.ofSeconds(42)).build();
            AtomicReference<ProviderBuilder<?>> seen = new AtomicReference<>();
            kind.create(settings, seen::set);
            assertThat(seen.get().configuredHistory()).as(kind.name()).isSameAs(history);
            assertThat(seen.get().configuredResilience()).as(kind.name()).isSameAs(guards);
            assertThat(seen.get().configuredReadTimeout()).as(kind.name()).isEqualTo(Duration.ofSeconds(42));
            assertThat(seen.get().configuredBaseUrl()).as(kind.name()).isEqualTo(emulator.baseUrl().toString());
        }
    }

    @Test
    void bedrockTakesItsRegionFromARegionalBaseUrl() {
        ProviderSettings settings = ProviderSettings.builder()
                .baseUrl(URI.create("https://bedrock-runtime.eu-central-1.amazonaws.com"))
                .awsCredentials(AwsCredentials.of("AKIDREGISTRYTEST", AWS_SECRET)).build();
        assertThat(ProviderKinds.get("bedrock").create(settings).name()).isEqualTo("bedrock");
        assertThat(ProviderKinds.region(settings)).isEqualTo("eu-central-1");
        assertThat(ProviderKinds.region(settings.toBuilder().baseUrl(URI.create("https://example.com")).build())).isNull();
    }

    @Test
    void aSettingThatDoesNotApplyIsRefused() {
        ProviderSettings withKey = minimal(ProviderKinds.get("bedrock")).apiKey(ApiKey.of(KEY)).build();
        assertThatThrownBy(() -> ProviderKinds.get("bedrock").create(withKey))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("apiKey")
                .hasMessageNotContaining(KEY);
        ProviderSettings both = minimal(ProviderKinds.get("vertex")).apiKey(ApiKey.of(KEY)).build();
        assertThatThrownBy(() -> ProviderKinds.get("vertex").create(both))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContainingAll("accessToken", "apiKey")
                .hasMessageNotContaining(KEY);
    }

    @Test
    void namesAndAliasesAreUniqueLowerCaseAndFound() {
        Set<String> seen = new HashSet<>();
        for (ProviderKind kind : ProviderKinds.all()) {
            List<String> names = new ArrayList<>(kind.aliases());
            names.add(kind.name());
            for (String name : names) {
                assertThat(seen.add(name)).as("%s is used once", name).isTrue();
                assertThat(name).matches("[a-z][a-z0-9-]*");
                assertThat(ProviderKinds.find(" " + name.toUpperCase(java.util.Locale.ROOT) + " ")).containsSame(kind);
            }
            assertThat(kind.description()).isNotBlank().doesNotContain("\n");
            assertThat(kind.keyVariable()).matches("[A-Z][A-Z0-9_]*");
        }
        assertThat(ProviderKinds.names()).hasSize(ProviderKinds.all().size());
        assertThat(ProviderKinds.get("chat-completions")).isSameAs(ProviderKinds.get("openai-compatible"));
        assertThat(ProviderKinds.get("responses")).isSameAs(ProviderKinds.get("openai-responses"));
        assertThatThrownBy(() -> ProviderKinds.get("deepthink"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContainingAll("deepthink", "deepseek", "bedrock");
    }

    @Test
    void everyProfileIsAKindOfItsApi() {
        for (String profile : Profiles.names()) {
            assertThat(ProviderKinds.get(profile).api()).as(profile).isEqualTo(ApiFamily.CHAT_COMPLETIONS);
        }
        for (String profile : ResponsesProfiles.names()) {
            assertThat(ProviderKinds.get(profile).api()).as(profile).isEqualTo(ApiFamily.RESPONSES);
        }
        Set<ApiFamily> apis = new HashSet<>();
        ProviderKinds.all().forEach(kind -> apis.add(kind.api()));
        assertThat(apis).containsExactlyInAnyOrder(ApiFamily.values());
    }

    @Test
    void noSecretShowsInSettingsClientsOrFailures() {
        ProviderSettings settings = ProviderSettings.builder().baseUrl(emulator.baseUrl()).apiKey(ApiKey.of(KEY))
                .accessToken(ApiKey.of(TOKEN))
                .awsCredentials(new AwsCredentials("AKIDREGISTRYTEST", ApiKey.of(AWS_SECRET), ApiKey.of(AWS_SESSION)))
                .region("us-east-1").project("p").location("global").build();
        List<String> shown = new ArrayList<>();
        shown.add(settings.toString());
        for (ProviderKind kind : ProviderKinds.all()) {
            shown.add(kind.toString());
            try {
                shown.add(kind.create(settings).toString());
            } catch (IllegalArgumentException | IllegalStateException e) {
                shown.add(e.toString());
            }
        }
        assertThat(settings.toString()).contains("apiKey=(redacted)", "accessToken=(redacted)", "awsCredentials=(redacted)");
        for (String text : shown) {
            assertThat(text).doesNotContain(KEY, TOKEN, AWS_SECRET, AWS_SESSION);
        }
    }
}
