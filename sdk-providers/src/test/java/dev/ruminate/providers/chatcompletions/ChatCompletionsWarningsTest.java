package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.providers.spi.RequestWarnings;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every option a profile ignores or maps to another value is reported, never silent: reasoning
 * options per style, sampling options OpenAI's reasoning models refuse or DeepSeek's thinking mode
 * ignores, the seed, and prompt caching (with the fields and {@code cache_control} that are written).
 */
class ChatCompletionsWarningsTest {

    private record Encoded(String body, List<Warning> warnings) {
    }

    private static Encoded encode(CompatProfile profile, ChatRequest request) {
        RequestWarnings warnings = new RequestWarnings();
        String body = new String(ChatCompletionsCodec.encodeRequest(profile, request, false, warnings), StandardCharsets.UTF_8);
        return new Encoded(body, warnings.list());
    }

    private static ReasoningOptions effort(ReasoningEffort effort) {
        return ReasoningOptions.effort(effort);
    }

    static Stream<Arguments> reasoning() {
        String coerced = Warning.OPTION_COERCED;
        String ignored = Warning.OPTION_IGNORED;
        return Stream.of(
                Arguments.of(Profiles.OPENAI, "gpt-5.1", effort(ReasoningEffort.MAX), coerced, "openai has no effort max: it is sent as xhigh"),
                Arguments.of(Profiles.OPENAI, "gpt-5.1", ReasoningOptions.budget(1000), ignored, "openai takes no reasoning token budget"),
                Arguments.of(Profiles.OPENAI, "gpt-5.1", new ReasoningOptions(null, ReasoningEffort.LOW, null, true), ignored,
                        "includeReasoning is ignored"),
                Arguments.of(Profiles.OPENAI, "gpt-5.1", new ReasoningOptions(true, null, null, null), ignored, "enabled=true alone"),
                Arguments.of(Profiles.DEEPSEEK, "deepseek-v4-pro", effort(ReasoningEffort.LOW), coerced, "deepseek has no effort low: it is sent as high"),
                Arguments.of(Profiles.DEEPSEEK, "deepseek-v4-pro", effort(ReasoningEffort.MEDIUM), coerced, "no effort medium: it is sent as high"),
                Arguments.of(Profiles.DEEPSEEK, "deepseek-v4-pro", effort(ReasoningEffort.XHIGH), coerced, "no effort xhigh: it is sent as high"),
                Arguments.of(Profiles.DEEPSEEK, "deepseek-v4-pro", ReasoningOptions.budget(500), ignored, "deepseek takes no reasoning token budget"),
                Arguments.of(Profiles.GROQ, "openai/gpt-oss-20b", effort(ReasoningEffort.MINIMAL), coerced, "groq has no effort minimal: it is sent as low"),
                Arguments.of(Profiles.GROQ, "openai/gpt-oss-20b", effort(ReasoningEffort.XHIGH), coerced, "it is sent as high"),
                Arguments.of(Profiles.XAI, "grok-3-mini", effort(ReasoningEffort.MEDIUM), coerced, "xai has no effort medium: it is sent as low"),
                Arguments.of(Profiles.XAI, "grok-3-mini", effort(ReasoningEffort.NONE), ignored, "xai cannot turn reasoning off"),
                Arguments.of(Profiles.MISTRAL, "mistral-small-latest", effort(ReasoningEffort.LOW), coerced,
                        "mistral takes reasoning_effort high or none: the effort low is sent as high"),
                Arguments.of(Profiles.MISTRAL, "magistral-medium-latest", new ReasoningOptions(false, null, null, null), ignored,
                        "Magistral models always reason"),
                Arguments.of(Profiles.GEMINI_OPENAI, "gemini-2.5-flash", effort(ReasoningEffort.MAX), coerced,
                        "gemini-openai has no effort max: it is sent as high"),
                Arguments.of(Profiles.GEMINI_OPENAI, "gemini-2.5-flash", ReasoningOptions.budget(1024), ignored, "no reasoning token budget"),
                Arguments.of(Profiles.GLM, "glm-4.7", effort(ReasoningEffort.HIGH), ignored, "glm switches reasoning on or off only: the effort high"),
                Arguments.of(Profiles.VLLM, "qwen3", ReasoningOptions.budget(100), ignored, "vllm switches reasoning on or off only: the budget"),
                Arguments.of(Profiles.QWEN, "qwen-plus", effort(ReasoningEffort.LOW), ignored, "the effort low is ignored"),
                Arguments.of(Profiles.OPENROUTER, "x/y", new ReasoningOptions(null, ReasoningEffort.HIGH, 2048, null), ignored,
                        "the budget is sent, the effort high is ignored"),
                Arguments.of(Profiles.PERPLEXITY, "sonar-reasoning", effort(ReasoningEffort.HIGH), ignored,
                        "perplexity has no request field for reasoning options"));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("reasoning")
    void reasoningOptionsAProfileCannotCarryAreReported(CompatProfile profile, String model, ReasoningOptions options,
                                                        String code, String text) {
        List<Warning> warnings = encode(profile, ChatRequest.builder(model).user("hi").reasoning(options).build()).warnings();

        assertThat(warnings).anySatisfy(w -> {
            assertThat(w.code()).isEqualTo(code);
            assertThat(w.message()).contains(text);
        });
    }

    @Test
    void levelsAProfileHasAndDefaultRequestsSayNothing() {
        assertThat(encode(Profiles.OPENAI, ChatRequest.builder("gpt-5.1").user("hi").reasoning(effort(ReasoningEffort.HIGH)).build())
                .warnings()).isEmpty();
        assertThat(encode(Profiles.DEEPSEEK, ChatRequest.builder("deepseek-v4-pro").user("hi").reasoning(effort(ReasoningEffort.MAX))
                .build()).warnings()).isEmpty();
        for (String name : Profiles.names()) {
            assertThat(encode(Profiles.byName(name), ChatRequest.builder("m").user("hi").build()).warnings()).as(name).isEmpty();
        }
        // an extra that replaces the field says what is sent: nothing to report about the mapping
        assertThat(encode(Profiles.DEEPSEEK, ChatRequest.builder("deepseek-v4-pro").user("hi").reasoning(effort(ReasoningEffort.LOW))
                .extra("reasoning_effort", "low").build()).warnings()).isEmpty();
    }

    @Test
    void openAiReasoningModelsLoseTemperatureAndTopPWithAWarning() {
        SamplingOptions sampling = new SamplingOptions(0.3, 0.9, null, List.of(), null);
        for (String model : List.of("o3", "o4-mini-2025-04-16", "gpt-5", "gpt-5.1", "o1-mini")) {
            Encoded e = encode(Profiles.OPENAI, ChatRequest.builder(model).user("hi").sampling(sampling).build());
            assertThat(e.body()).as(model).doesNotContain("temperature").doesNotContain("top_p");
            assertThat(e.warnings()).as(model).singleElement().satisfies(w -> {
                assertThat(w.code()).isEqualTo(Warning.OPTION_IGNORED);
                assertThat(w.message()).contains(model + " is an OpenAI reasoning model, which refuses temperature and top_p");
            });
        }
        for (ChatRequest kept : List.of(ChatRequest.builder("gpt-4.1").user("hi").sampling(sampling).build(),
                ChatRequest.builder("gpt-5-chat-latest").user("hi").sampling(sampling).build(),
                ChatRequest.builder("gpt-5.1").user("hi").sampling(sampling).reasoning(effort(ReasoningEffort.NONE)).build())) {
            Encoded e = encode(Profiles.OPENAI, kept);
            assertThat(e.body()).as(kept.model()).contains("\"temperature\":0.3,\"top_p\":0.9");
            assertThat(e.warnings()).as(kept.model()).isEmpty();
        }
    }

    @Test
    void deepSeekThinkingIgnoresSamplingAndTakesNoSeedMistralsSeedIsRandomSeed() {
        SamplingOptions sampling = new SamplingOptions(0.3, null, null, List.of(), 7L);
        Encoded thinking = encode(Profiles.DEEPSEEK, ChatRequest.builder("deepseek-v4-flash").user("hi").sampling(sampling).build());
        assertThat(thinking.body()).isEqualTo("{\"model\":\"deepseek-v4-flash\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"temperature\":0.3}");
        assertThat(thinking.warnings()).extracting(Warning::message).containsExactly(
                "DeepSeek's thinking mode ignores temperature and top_p", "deepseek takes no seed; it is left out");

        Encoded chat = encode(Profiles.DEEPSEEK, ChatRequest.builder("deepseek-chat").user("hi").sampling(sampling).build());
        assertThat(chat.warnings()).extracting(Warning::message).containsExactly("deepseek takes no seed; it is left out");

        assertThat(encode(Profiles.MISTRAL, ChatRequest.builder("mistral-small-latest").user("hi").sampling(sampling).build()).body())
                .endsWith("\"temperature\":0.3,\"random_seed\":7}");
    }

    @Test
    void openAiTakesTheCacheKeyAndExtendedRetentionAndIgnoresBreakpoints() {
        PromptCaching caching = PromptCaching.conversation().withKey("tenant-42").withTtl(PromptCaching.Ttl.ONE_HOUR);
        Encoded e = encode(Profiles.OPENAI, ChatRequest.builder("gpt-5.1").system("s").user("hi").caching(caching).build());

        assertThat(e.body()).isEqualTo("{\"model\":\"gpt-5.1\",\"messages\":[{\"role\":\"system\",\"content\":\"s\"},"
                + "{\"role\":\"user\",\"content\":\"hi\"}],\"prompt_cache_key\":\"tenant-42\",\"prompt_cache_retention\":\"24h\"}");
        assertThat(e.warnings()).extracting(Warning::code, Warning::message).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Warning.OPTION_IGNORED, "openai caches prompts automatically; breakpoints ignored"),
                org.assertj.core.groups.Tuple.tuple(Warning.OPTION_COERCED, "a one-hour cache time to live is sent as "
                        + "prompt_cache_retention \"24h\", OpenAI's only retention longer than its default"));
    }

    @Test
    void azureTakesTheKeyOthersReportItIgnored() {
        PromptCaching keyed = PromptCaching.NONE.withKey("k").withTtl(PromptCaching.Ttl.ONE_HOUR);
        Encoded azure = encode(Profiles.AZURE, ChatRequest.builder("gpt-4.1").user("hi").caching(keyed).build());
        assertThat(azure.body()).endsWith(",\"prompt_cache_key\":\"k\"}");
        assertThat(azure.warnings()).extracting(Warning::message).containsExactly("azure takes no cache time to live; the one-hour ttl is ignored");

        Encoded deepSeek = encode(Profiles.DEEPSEEK, ChatRequest.builder("deepseek-chat").user("hi")
                .caching(PromptCaching.conversation().withKey("k")).build());
        assertThat(deepSeek.body()).doesNotContain("cache");
        assertThat(deepSeek.warnings()).extracting(Warning::message).containsExactly(
                "deepseek caches prompts automatically; breakpoints ignored", "deepseek takes no prompt cache key; the key is ignored");
    }

    @Test
    void openRouterGetsCacheControlOnTheSystemTextAndTheMarkedUserText() {
        ChatRequest request = ChatRequest.builder("anthropic/claude-sonnet-4.5").system("Long rules.").user("q1")
                .message(AssistantMessage.ofText("a1")).user("q2").caching(PromptCaching.conversation()).build();

        Encoded e = encode(Profiles.OPENROUTER, request);

        assertThat(e.body()).isEqualTo("{\"model\":\"anthropic/claude-sonnet-4.5\",\"messages\":["
                + "{\"role\":\"system\",\"content\":[{\"type\":\"text\",\"text\":\"Long rules.\",\"cache_control\":{\"type\":\"ephemeral\"}}]},"
                + "{\"role\":\"user\",\"content\":\"q1\"},{\"role\":\"assistant\",\"content\":\"a1\"},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"q2\",\"cache_control\":{\"type\":\"ephemeral\"}}]}]}");
        assertThat(e.warnings()).extracting(Warning::message)
                .containsExactly("openrouter takes cache_control only on message text: the tools breakpoint is ignored");
    }

    @Test
    void anOpenRouterBreakpointOnAToolResultIsReportedOnThatMessage() {
        ChatRequest request = ChatRequest.builder("x/y").user("go").message(Message.toolResult("c1", "r"))
                .caching(new PromptCaching(false, false, List.of(), true, PromptCaching.Ttl.DEFAULT, null)).build();

        Encoded e = encode(Profiles.OPENROUTER, request);

        assertThat(e.body()).doesNotContain("cache_control");
        assertThat(e.warnings()).singleElement().satisfies(w -> {
            assertThat(w.code()).isEqualTo(Warning.OPTION_IGNORED);
            assertThat(w.turn()).isEqualTo(1);
            assertThat(w.message()).contains("the breakpoint on this message is ignored");
        });
    }
}
