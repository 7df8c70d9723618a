package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.think.ThinkTagOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProfilesTest {

    @Test
    void everyKnownProfileIsFoundByItsName() {
        assertThat(Profiles.names()).containsExactly("openai", "deepseek", "vllm", "llamacpp", "ollama", "openrouter",
                "groq", "xai", "glm", "chutes", "perplexity", "qwen", "cerebras", "snowflake", "mistral",
                "gemini-openai", "vercel-gateway", "moonshot", "minimax", "azure", "openai-compatible");
        for (String name : Profiles.names()) {
            assertThat(Profiles.byName(name).name()).isEqualTo(name);
        }
        assertThatThrownBy(() -> Profiles.byName("cohere"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cohere").hasMessageContaining("deepseek");
    }

    @ParameterizedTest
    @CsvSource({
            "openai, https://api.openai.com/v1/chat/completions",
            "deepseek, https://api.deepseek.com/chat/completions",
            "vllm, http://localhost:8000/v1/chat/completions",
            "llamacpp, http://localhost:8080/v1/chat/completions",
            "ollama, http://localhost:11434/v1/chat/completions",
            "openrouter, https://openrouter.ai/api/v1/chat/completions",
            "groq, https://api.groq.com/openai/v1/chat/completions",
            "xai, https://api.x.ai/v1/chat/completions",
            "glm, https://api.z.ai/api/paas/v4/chat/completions",
            "chutes, https://llm.chutes.ai/v1/chat/completions",
            "perplexity, https://api.perplexity.ai/chat/completions",
            "qwen, https://dashscope-intl.aliyuncs.com/compatible-mode/v1/chat/completions",
            "cerebras, https://api.cerebras.ai/v1/chat/completions"})
    void defaultEndpoints(String name, String uri) {
        assertThat(Profiles.byName(name).chatUri(null)).isEqualTo(URI.create(uri));
    }

    @Test
    void selfHostedProfilesNeedABaseUrl() {
        assertThatThrownBy(() -> Profiles.SNOWFLAKE.chatUri(null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("snowflake");
        assertThat(Profiles.SNOWFLAKE.chatUri("https://acme-x1.snowflakecomputing.com/api/v2/cortex/v1/"))
                .isEqualTo(URI.create("https://acme-x1.snowflakecomputing.com/api/v2/cortex/v1/chat/completions"));
        assertThat(Profiles.OPENAI_COMPATIBLE.chatUri("http://gpu-box:9000/v1//"))
                .isEqualTo(URI.create("http://gpu-box:9000/v1/chat/completions"));
        assertThatThrownBy(() -> Profiles.VLLM.chatUri("gpu-box:9000")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void profileFactsThatMatter() {
        assertThat(Profiles.OPENAI.reasoningFields()).isEmpty();
        assertThat(Profiles.OPENAI.maxTokensField()).isEqualTo("max_completion_tokens");
        assertThat(Profiles.OPENAI.sendBackFor("gpt-5")).isEqualTo(ReasoningSendBack.DROP);
        assertThat(Profiles.GROQ.sendBackFor("openai/gpt-oss-120b")).isEqualTo(ReasoningSendBack.DROP);
        assertThat(Profiles.VLLM.reasoningFields()).startsWith("reasoning");
        assertThat(Profiles.VLLM.sendBackFor("any")).isEqualTo(ReasoningSendBack.field("reasoning"));
        assertThat(Profiles.LLAMA_CPP.sendBackFor("any")).isEqualTo(ReasoningSendBack.field("reasoning_content"));
        assertThat(Profiles.OLLAMA.sendBackFor("any")).isEqualTo(ReasoningSendBack.field("reasoning"));
        assertThat(Profiles.GLM.sendBackFor("glm-4.7")).isEqualTo(ReasoningSendBack.field("reasoning_content"));
        assertThat(Profiles.OPENROUTER.readsReasoningDetails()).isTrue();
        assertThat(Profiles.OPENROUTER.sendBackFor("x")).isEqualTo(ReasoningSendBack.reasoningDetails());
        assertThat(Profiles.SNOWFLAKE.readsReasoningDetails()).isTrue();
        assertThat(Profiles.PERPLEXITY.thinkTags()).isEqualTo(ThinkTagOptions.DEFAULT);
        assertThat(Profiles.OPENAI_COMPATIBLE.reasoningFields()).containsExactly("reasoning_content", "reasoning", "reasoning_text");
        assertThat(Profiles.OPENAI_COMPATIBLE.sendBackFor("x")).isEqualTo(ReasoningSendBack.DROP);
        assertThat(Profiles.OPENAI_COMPATIBLE.readsReasoningDetails()).isTrue();
        assertThat(Profiles.CHUTES.reasoningFields()).containsExactly("reasoning_content", "reasoning");
    }

    @Test
    void deepSeekDecidesByModelFamily() {
        ReasoningSendBack thinking = ReasoningSendBack.field("reasoning_content").onlyInToolTurns();
        assertThat(Profiles.DEEPSEEK.sendBackFor("deepseek-reasoner")).isEqualTo(thinking);
        assertThat(Profiles.DEEPSEEK.sendBackFor("deepseek-chat")).isEqualTo(thinking);
        assertThat(Profiles.DEEPSEEK.sendBackFor("deepseek-v4-flash")).isEqualTo(thinking);
        assertThat(Profiles.DEEPSEEK.sendBackFor("DeepSeek-V3.2")).isEqualTo(thinking);
        assertThat(Profiles.DEEPSEEK.sendBackFor("deepseek-r1")).isEqualTo(ReasoningSendBack.DROP);
        assertThat(Profiles.DEEPSEEK.sendBackFor("DeepSeek-R1-0528")).isEqualTo(ReasoningSendBack.DROP);
    }

    @Test
    void aCustomProfileIsBuiltFromTheGenericOne() {
        CompatProfile azure = Profiles.OPENAI_COMPATIBLE.toBuilder()
                .name("azure-deepseek")
                .baseUrl("https://my.services.ai.azure.com/models")
                .auth("api-key", "")
                .reasoningFields(List.of("reasoning_content"))
                .thinkTags(new ThinkTagOptions("<think>", "</think>", true))
                .sendBackRule(Profiles.DEEPSEEK.sendBack())
                .build();

        assertThat(azure.authHeader()).isEqualTo("api-key");
        assertThat(azure.authPrefix()).isEmpty();
        assertThat(azure.chatUri(null)).isEqualTo(URI.create("https://my.services.ai.azure.com/models/chat/completions"));
        assertThat(azure.sendBackFor("deepseek-v4-pro").scope()).isEqualTo(ReasoningSendBack.Scope.TOOL_TURNS);
        assertThat(azure.toBuilder().build()).isEqualTo(azure);
        assertThat(Profiles.OPENAI_COMPATIBLE.toBuilder().build()).isEqualTo(Profiles.OPENAI_COMPATIBLE);
    }

    @Test
    void theStructuredOutputMediaAndCachingCapabilitiesSurviveToBuilderAndCanBeSet() {
        for (String name : Profiles.names()) {
            assertThat(Profiles.byName(name).toBuilder().build()).as(name).isEqualTo(Profiles.byName(name));
        }
        CompatProfile custom = Profiles.OPENAI_COMPATIBLE.toBuilder()
                .structuredOutput(false, true)
                .tools(true, CompatProfile.ForcedToolChoice.NOT_WHILE_THINKING)
                .images(true, false)
                .pdfFiles(true, true)
                .promptCache(CompatProfile.PromptCacheStyle.PROMPT_CACHE_KEY)
                .seedField(null)
                .build();

        assertThat(custom.jsonSchema()).isFalse();
        assertThat(custom.jsonObject()).isTrue();
        assertThat(custom.forcedToolChoice()).isEqualTo(CompatProfile.ForcedToolChoice.NOT_WHILE_THINKING);
        assertThat(custom.imageUrls()).isFalse();
        assertThat(custom.pdfUrls()).isTrue();
        assertThat(custom.promptCache()).isEqualTo(CompatProfile.PromptCacheStyle.PROMPT_CACHE_KEY);
        assertThat(custom.seedField()).isNull();
        assertThat(custom.toBuilder().build()).isEqualTo(custom);
        assertThatThrownBy(() -> CompatProfile.builder("x").seedField(" ").build()).isInstanceOf(IllegalArgumentException.class);
        assertThat(Profiles.DEEPSEEK.images()).isFalse();
        assertThat(Profiles.OPENAI.pdfFiles()).isTrue();
        assertThat(Profiles.MISTRAL.seedField()).isEqualTo("random_seed");
    }

    @Test
    void invalidProfilesAreRejectedNamingTheValue() {
        assertThatThrownBy(() -> CompatProfile.builder(" ").build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CompatProfile.builder("x").baseUrl("ftp://host").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ftp://host");
        assertThatThrownBy(() -> CompatProfile.builder("x").chatPath("chat").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chat");
        assertThatThrownBy(() -> CompatProfile.builder("x").reasoningFields(List.of("reasoning", "reasoning")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reasoning");
        assertThatThrownBy(() -> CompatProfile.builder("x").reasoningFields(List.of("")).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReasoningSendBack(ReasoningSendBack.Mode.FIELD, null, ReasoningSendBack.Scope.ALL_TURNS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReasoningSendBack(ReasoningSendBack.Mode.DROP, "reasoning", ReasoningSendBack.Scope.ALL_TURNS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ThinkTagOptions("<t>", "<t>", false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ThinkTagOptions("", "</t>", false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theGatewayAndHostProfilesTakeTheirDocumentedSendBackRules() {
        assertThat(Profiles.GEMINI_OPENAI.sendBackFor("gemini-3-pro-preview")).isEqualTo(ReasoningSendBack.googleExtraContent());
        assertThat(Profiles.GEMINI_OPENAI.chatUri(null))
                .hasToString("https://generativelanguage.googleapis.com/v1beta/openai/chat/completions");
        assertThat(Profiles.GEMINI_OPENAI.reasoningStyle()).isEqualTo(ReasoningRequestStyle.GEMINI_EFFORT);
        assertThat(Profiles.VERCEL_GATEWAY.readsReasoningDetails()).isTrue();
        assertThat(Profiles.VERCEL_GATEWAY.sendBackFor("openai/gpt-5")).isEqualTo(ReasoningSendBack.reasoningDetails());
        assertThat(Profiles.VERCEL_GATEWAY.chatUri(null)).hasToString("https://ai-gateway.vercel.sh/v1/chat/completions");
        assertThat(Profiles.MOONSHOT.sendBackFor("kimi-k2.5")).isEqualTo(ReasoningSendBack.field("reasoning_content"));
        assertThat(Profiles.MOONSHOT.chatUri(null)).hasToString("https://api.moonshot.ai/v1/chat/completions");
        assertThat(Profiles.MINIMAX.sendBackFor("MiniMax-M2")).isEqualTo(ReasoningSendBack.thinkTags());
        assertThat(Profiles.MINIMAX.thinkTags()).isEqualTo(ThinkTagOptions.DEFAULT);
        assertThat(Profiles.MINIMAX.chatUri(null)).hasToString("https://api.minimax.io/v1/chat/completions");
        assertThat(Profiles.AZURE.sendBackFor("gpt-5")).isEqualTo(ReasoningSendBack.DROP);
        assertThat(Profiles.AZURE.authHeader()).isEqualTo("api-key");
        assertThat(Profiles.AZURE.authPrefix()).isEmpty();
        assertThatThrownBy(() -> Profiles.AZURE.chatUri(null)).isInstanceOf(IllegalStateException.class);
        assertThat(Profiles.AZURE.chatUri("https://acme.openai.azure.com/openai/v1/"))
                .hasToString("https://acme.openai.azure.com/openai/v1/chat/completions");
    }
}
