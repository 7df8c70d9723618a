package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.providers.spi.RequestWarnings;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * What the Responses encoder does not send as asked is reported, never silent: stop sequences, seeds,
 * budgets, efforts a model lacks, sampling a reasoning model refuses, cache breakpoints and times to
 * live; and the caching it does send ({@code prompt_cache_key}), the cached tokens it reads back, and
 * the refusal of bad input before any request, over real HTTP.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesWarningsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    private record Encoded(JsonNode body, List<Warning> warnings) {
        List<String> messages() {
            return warnings.stream().map(w -> w.code() + ": " + w.message()).toList();
        }
    }

    private static Encoded encode(ResponsesProfile profile, ChatRequest request) {
        RequestWarnings warnings = new RequestWarnings();
        byte[] body = ResponsesCodec.encodeRequest(profile, request, true, warnings);
        return new Encoded(MAPPER.readTree(body), warnings.list());
    }

    @Test
    void stopSeedAndBudgetAreIgnoredAloud() {
        Encoded e = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("gpt-4.1").user("Hi")
                .reasoning(new ReasoningOptions(true, null, 2048, null))
                .sampling(new SamplingOptions(0.3, null, null, List.of("END"), 42L)).build());

        assertThat(e.body().has("stop")).isFalse();
        assertThat(e.body().has("seed")).isFalse();
        assertThat(e.body().get("temperature").asDouble()).isEqualTo(0.3);
        assertThat(e.messages()).containsExactly(
                "option-ignored: reasoning budgetTokens: the Responses API takes no reasoning token budget (only an"
                        + " effort); the budget was not sent",
                "option-ignored: stop sequences: the Responses API has no stop parameter; they were not sent",
                "option-ignored: seed: the Responses API has no seed parameter; it was not sent");
    }

    @Test
    void samplingIsLeftOutForReasoningModels() {
        ChatRequest.Builder b = ChatRequest.builder("o3").user("Hi").sampling(new SamplingOptions(0.2, 0.9, null, List.of(), null));
        Encoded o3 = encode(ResponsesProfiles.OPENAI, b.build());
        assertThat(o3.body().has("temperature")).isFalse();
        assertThat(o3.body().has("top_p")).isFalse();
        assertThat(o3.warnings()).extracting(Warning::code).containsExactly(Warning.OPTION_IGNORED, Warning.OPTION_IGNORED);
        assertThat(o3.warnings().get(0).message()).startsWith("temperature: the reasoning model o3 refuses it");

        Encoded gpt5 = encode(ResponsesProfiles.AZURE, b.model("gpt-5-mini").build());
        assertThat(gpt5.body().has("temperature")).isFalse();

        Encoded later = encode(ResponsesProfiles.OPENAI, b.model("gpt-5.2").build());
        assertThat(later.body().has("temperature")).as("no effort none sent").isFalse();
        Encoded none = encode(ResponsesProfiles.OPENAI, b.model("gpt-5.2").reasoning(ReasoningOptions.effort(ReasoningEffort.NONE)).build());
        assertThat(none.body().get("temperature").asDouble()).isEqualTo(0.2);
        assertThat(none.body().get("reasoning").get("effort").asString()).isEqualTo("none");
        assertThat(none.warnings()).isEmpty();

        Encoded extra = encode(ResponsesProfiles.OPENAI, b.model("gpt-5.2").reasoning(ReasoningOptions.DEFAULT)
                .extra("reasoning", java.util.Map.of("effort", "none")).build());
        assertThat(extra.body().get("temperature").asDouble()).as("the extra's effort none counts").isEqualTo(0.2);

        Encoded chat = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("gpt-5-chat-latest").user("Hi")
                .sampling(new SamplingOptions(0.2, 0.9, null, List.of(), null)).build());
        assertThat(chat.body().get("temperature").asDouble()).isEqualTo(0.2);
        assertThat(chat.warnings()).isEmpty();
    }

    @Test
    void effortsAModelLacksAreCoercedToItsNearestLevel() {
        Encoded o4 = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("o4-mini").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.XHIGH)).build());
        assertThat(o4.body().get("reasoning")).isEqualTo(MAPPER.readTree("{\"effort\":\"high\",\"summary\":\"auto\"}"));
        assertThat(o4.messages()).containsExactly("option-coerced: reasoning effort xhigh sent as high: the model (or"
                + " server) has no such level; the nearest it has was sent");

        Encoded off = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("gpt-5").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.NONE)).build());
        assertThat(off.body().get("reasoning").get("effort").asString()).isEqualTo("minimal");
        assertThat(off.messages()).containsExactly("option-coerced: reasoning effort none sent as minimal: this model"
                + " cannot turn reasoning off; its lowest effort was sent");

        Encoded pro = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("gpt-5-pro").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.LOW)).build());
        assertThat(pro.body().get("reasoning").get("effort").asString()).isEqualTo("high");

        Encoded oss = encode(ResponsesProfiles.BEDROCK, ChatRequest.builder("openai.gpt-oss-120b-1:0").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MINIMAL)).build());
        assertThat(oss.body().get("reasoning").get("effort").asString()).isEqualTo("low");
        assertThat(oss.warnings()).extracting(Warning::code).containsExactly(Warning.OPTION_COERCED);

        Encoded xai = encode(ResponsesProfiles.XAI, ChatRequest.builder("grok-4").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MAX)).build());
        assertThat(xai.body().get("reasoning")).isEqualTo(MAPPER.readTree("{\"effort\":\"xhigh\"}"));
        assertThat(xai.warnings()).extracting(Warning::code).containsExactly(Warning.OPTION_COERCED);

        Encoded asAsked = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("gpt-5.2").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.XHIGH)).build());
        assertThat(asAsked.body().get("reasoning").get("effort").asString()).isEqualTo("xhigh");
        assertThat(asAsked.warnings()).isEmpty();
    }

    @Test
    void reasoningOptionsAServerHasNoSwitchForAreIgnoredAloud() {
        Encoded deepseek = encode(ResponsesProfiles.DEEPSEEK, ChatRequest.builder("deepseek-v4").user("Hi")
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build());
        assertThat(deepseek.body().has("reasoning")).isFalse();
        assertThat(deepseek.warnings()).extracting(Warning::code).containsExactly(Warning.OPTION_IGNORED);

        Encoded hidden = encode(ResponsesProfiles.VLLM, ChatRequest.builder("qwen3").user("Hi")
                .reasoning(new ReasoningOptions(true, ReasoningEffort.LOW, null, false)).build());
        assertThat(hidden.body().get("reasoning")).isEqualTo(MAPPER.readTree("{\"effort\":\"low\"}"));
        assertThat(hidden.messages()).containsExactly("option-ignored: includeReasoning false: this server has no switch"
                + " to hide its reasoning (no reasoning.summary); the reasoning it returns still comes");

        Encoded quiet = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("gpt-5.1").user("Hi")
                .reasoning(new ReasoningOptions(true, ReasoningEffort.LOW, null, false)).build());
        assertThat(quiet.body().get("reasoning")).as("no summary asked for").isEqualTo(MAPPER.readTree("{\"effort\":\"low\"}"));
        assertThat(quiet.warnings()).isEmpty();
    }

    @Test
    void theCacheKeyGoesAndBreakpointsAndTtlAreIgnoredAloud() {
        PromptCaching caching = PromptCaching.conversation().withKey("tenant-42").withTtl(PromptCaching.Ttl.ONE_HOUR);
        Encoded openai = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("gpt-5.1").system("S").user("Hi")
                .caching(caching).build());

        assertThat(openai.body().get("prompt_cache_key").asString()).isEqualTo("tenant-42");
        assertThat(openai.body().has("prompt_cache_retention")).isFalse();
        assertThat(openai.messages()).containsExactly(
                "option-ignored: prompt cache breakpoints: the Responses API takes none (OpenAI caches prompt prefixes"
                        + " automatically); they were not sent",
                "option-ignored: prompt cache ttl ONE_HOUR: OpenAI's prompt_cache_retention has no such value (only"
                        + " \"in-memory\", the default, and \"24h\" on some models); the server's default retention applies"
                        + " (give prompt_cache_retention as an extra to choose)");

        Encoded keyOnly = encode(ResponsesProfiles.OPENAI, ChatRequest.builder("gpt-5.1").user("Hi")
                .caching(PromptCaching.NONE.withKey("k")).build());
        assertThat(keyOnly.body().get("prompt_cache_key").asString()).isEqualTo("k");
        assertThat(keyOnly.warnings()).isEmpty();

        Encoded lmstudio = encode(ResponsesProfiles.LMSTUDIO, ChatRequest.builder("m").user("Hi")
                .caching(PromptCaching.NONE.withKey("k")).build());
        assertThat(lmstudio.body().has("prompt_cache_key")).isFalse();
        assertThat(lmstudio.messages()).containsExactly("option-ignored: prompt cache key: this server takes no"
                + " prompt_cache_key; it was not sent");
    }

    private static ResponsesProvider provider(ResponsesProfile profile) {
        return ResponsesProvider.builder(profile).baseUrl(emulator.baseUrl() + "/v1").apiKey(ApiKey.of("sk-test-1"))
                .build();
    }

    @Test
    void warningsReachTheResultAndCachedTokensAreRead() {
        emulator.enqueue(ResponsesScript.create().model("o3").text("Hello").usage(4000, 12, 0, 3584).toResponse());
        ChatRequest request = ChatRequest.builder("o3").user("Hi")
                .sampling(new SamplingOptions(0.7, null, null, List.of(), null))
                .caching(PromptCaching.NONE.withKey("tenant-7")).build();

        ChatResult result = ChatReducer.defaults().reduce(provider(ResponsesProfiles.OPENAI).stream(request))
                .block(Duration.ofSeconds(30));

        assertThat(result).isNotNull();
        assertThat(result.warnings()).extracting(Warning::code).containsExactly(Warning.OPTION_IGNORED);
        assertThat(result.warnings().get(0).message()).startsWith("temperature: the reasoning model o3 refuses it");
        assertThat(result.message().usage().cachedTokens()).isEqualTo(3584L);
        assertThat(result.message().usage().inputTokens()).isEqualTo(4000L);
        JsonNode sent = MAPPER.readTree(emulator.requests().get(emulator.requests().size() - 1).body());
        assertThat(sent.get("prompt_cache_key").asString()).isEqualTo("tenant-7");
        assertThat(sent.has("temperature")).isFalse();
    }

    @Test
    void theEncodersBodiesPassTheCheckingEmulator() {
        emulator.checking(AcceptanceRules.responses());
        try {
            emulator.enqueue(ResponsesScript.create().model("o3").text("{\"city\":\"Paris\"}").toResponse());
            ChatRequest request = ChatRequest.builder("o3").user("Which city?", Media.image(new byte[] {1, 2, 3}, "image/webp"))
                    .sampling(new SamplingOptions(0.5, 0.5, null, List.of(), null))
                    .output(OutputSchema.of("answer", "{\"type\":\"object\"}")).build();

            ChatResult result = ChatReducer.defaults().reduce(provider(ResponsesProfiles.OPENAI).stream(request))
                    .block(Duration.ofSeconds(30));

            assertThat(result).isNotNull();
            RecordedRequest sent = emulator.requests().get(emulator.requests().size() - 1);
            assertThat(sent.rejectedBy()).isNull();
            assertThat(MAPPER.readTree(sent.body()).get("text").get("format").get("type").asString()).isEqualTo("json_schema");

            // what the encoder leaves out, forced in through an extra: the emulator answers as OpenAI does
            StepVerifier.create(provider(ResponsesProfiles.OPENAI).stream(ChatRequest.builder("o3").user("Hi")
                            .extra("temperature", 0.5).build()))
                    .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ProviderHttpException.class)
                            .hasMessageContaining("Unsupported parameter: 'temperature'"))
                    .verify(Duration.ofSeconds(30));
        } finally {
            emulator.checking(null);
        }
    }

    @Test
    void badInputFailsBeforeAnyRequest() {
        int before = emulator.requests().size();
        ChatRequest heic = ChatRequest.builder("gpt-5.1").user("x", Media.image(new byte[] {1, 2}, "image/heic")).build();

        StepVerifier.create(provider(ResponsesProfiles.OPENAI).stream(heic))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(UnsupportedInputException.class);
                    assertThat(((UnsupportedInputException) e).reason()).isEqualTo(UnsupportedInputException.Reason.MEDIA_TYPE);
                    assertThat(e.getMessage()).contains("message 0, media 0: image image/heic");
                })
                .verify(Duration.ofSeconds(30));
        ChatRequest nativeOnly = ChatRequest.builder("deepseek-v4").user("x")
                .output(OutputSchema.of("a", "{\"type\":\"object\"}")
                        .withStrategy(OutputSchema.Strategy.NATIVE)).build();
        StepVerifier.create(provider(ResponsesProfiles.DEEPSEEK).stream(nativeOnly))
                .expectError(UnsupportedInputException.class)
                .verify(Duration.ofSeconds(30));
        assertThat(emulator.requests()).hasSize(before);
    }
}
