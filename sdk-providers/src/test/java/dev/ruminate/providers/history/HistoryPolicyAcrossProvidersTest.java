package dev.ruminate.providers.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.ForeignReasoning;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.Retention;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The history policy on every provider, over real HTTP: the request each client sends for one
 * conversation that holds an earlier tool loop of its own, a turn of another provider, and the
 * current tool loop. Another provider's opaque state never goes out; its reasoning goes out only
 * as tagged text when asked; retention keeps all, the current loop's, or no reasoning.
 */
@ExtendWith(NettyLeakCheck.class)
class HistoryPolicyAcrossProvidersTest {

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** A client under test: its name as the messages know it, its model, and how to build it with a policy. */
    record Client(String name, String model, Function<HistoryPolicy, ChatProvider> build, boolean takesReasoning) {

        Client(String name, String model, Function<HistoryPolicy, ChatProvider> build) {
            this(name, model, build, true);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static <B extends ProviderBuilder<B>> B at(B builder) {
        return builder.baseUrl(emulator.baseUrl().toString());
    }

    static Stream<Client> clients() {
        ApiKey key = ApiKey.of("k");
        return Stream.of(
                new Client("deepseek", "deepseek-v4-flash",
                        p -> at(ChatCompletionsProvider.builder(Profiles.DEEPSEEK)).apiKey(key).history(p).build()),
                new Client("openai-responses", "gpt-5",
                        p -> at(ResponsesProvider.builder(ResponsesProfiles.OPENAI)).apiKey(key).history(p).build()),
                new Client("anthropic", "claude-sonnet-4-5", p -> at(AnthropicProvider.builder()).apiKey(key).history(p).build()),
                new Client("gemini", "gemini-3-pro-preview", p -> at(GeminiProvider.builder()).apiKey(key).history(p).build()),
                new Client("bedrock", "us.anthropic.claude-sonnet-4-20250514-v1:0",
                        p -> at(BedrockProvider.builder("us-east-1")).credentials(AwsCredentials.of("AKID", "s")).history(p).build()),
                new Client("ollama-native", "gpt-oss:20b", p -> at(OllamaProvider.builder()).history(p).build()),
                new Client("mistral", "magistral-medium-latest",
                        p -> at(ChatCompletionsProvider.builder(Profiles.MISTRAL)).apiKey(key).history(p).build()),
                new Client("openrouter", "anthropic/claude-sonnet-4.5",
                        p -> at(ChatCompletionsProvider.builder(Profiles.OPENROUTER)).apiKey(key).history(p).build()),
                // OpenAI's Chat Completions takes no reasoning back, whatever the policy
                new Client("openai", "o4-mini",
                        p -> at(ChatCompletionsProvider.builder(Profiles.OPENAI)).apiKey(key).history(p).build(), false));
    }

    static Stream<Arguments> clientsAndRetentions() {
        return clients().flatMap(c -> Stream.of(Retention.ALL, Retention.TOOL_LOOP, Retention.NONE).map(r -> Arguments.of(c, r)));
    }

    /** An own turn: reasoning whose text and every seal carry the marker, then a tool call. */
    private static AssistantMessage own(String provider, String marker, String callId) {
        Seals seals = Seals.NONE.with(Seal.Kind.SIGNATURE, b64(marker + "-SIG")).with(Seal.Kind.ENCRYPTED, marker + "-ENC")
                .with(Seal.Kind.ITEM_ID, "rs_" + marker);
        return new AssistantMessage(List.of(new ReasoningPart(marker + " reasoning text", false, "thinking", seals),
                new ToolCallPart(callId, "lookup", "{\"q\":1}", true, Seals.NONE.with(Seal.Kind.SIGNATURE, b64(marker + "-CALL-SIG")))),
                provider, "m", FinishReason.TOOL_CALLS, null, Usage.UNKNOWN);
    }

    /** A well-formed (base64) signature: the target's own values are checked before they are sent. */
    private static String b64(String s) {
        return java.util.Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static List<Message> conversation(String provider) {
        AssistantMessage foreign = new AssistantMessage(List.of(
                new ReasoningPart("FOREIGN reasoning text", false, "thinking",
                        Seals.NONE.with(Seal.Kind.SIGNATURE, "FOREIGN-SIG").with(Seal.Kind.REDACTED, "FOREIGN-REDACTED")),
                new TextPart("Foreign answer.", Seals.NONE.with(Seal.Kind.SIGNATURE, "FOREIGN-TEXT-SIG"))),
                "some-other-provider", "x", FinishReason.STOP, null, Usage.UNKNOWN);
        return List.of(
                Message.user("q1"),
                own(provider, "OLDOWN", "call_1"),
                Message.toolResult("call_1", "{\"r\":1}"),
                foreign,
                Message.user("q2"),
                own(provider, "CURRENTOWN", "call_2"),
                Message.toolResult("call_2", "{\"r\":2}"));
    }

    /** Sends the conversation and returns the request body the emulator received (the answer is an error). */
    private static String sent(Client client, HistoryPolicy policy) {
        emulator.enqueue(EmulatorResponse.httpError(500, "{\"error\":{\"message\":\"test\"}}"));
        ChatRequest request = ChatRequest.builder(client.model()).messages(conversation(client.name())).build();
        try {
            client.build().apply(policy).stream(request).blockLast(Duration.ofSeconds(30));
        } catch (RuminateException expected) {
            // the emulator answers 500: only the request matters here
        }
        List<dev.ruminate.testkit.RecordedRequest> all = emulator.requests();
        return all.get(all.size() - 1).body();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("clientsAndRetentions")
    void retentionKeepsAllTheCurrentLoopsOrNoReasoningAndForeignStateNeverGoesOut(Client client, Retention retention) {
        String body = sent(client, HistoryPolicy.DEFAULT.withRetention(retention));

        assertThat(body).doesNotContain("FOREIGN-SIG").doesNotContain("FOREIGN-REDACTED").doesNotContain("FOREIGN-TEXT-SIG")
                .doesNotContain("FOREIGN reasoning text")
                .contains("Foreign answer.");
        assertThat(body.contains("CURRENTOWN")).as("current loop's reasoning")
                .isEqualTo(client.takesReasoning() && retention != Retention.NONE);
        assertThat(body.contains("OLDOWN")).as("earlier loop's reasoning")
                .isEqualTo(client.takesReasoning() && retention == Retention.ALL);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void anotherProvidersReasoningGoesAsTaggedTextOnlyWhenAskedAndStillWithoutItsState(Client client) {
        String body = sent(client, HistoryPolicy.DEFAULT.withForeignReasoning(ForeignReasoning.AS_TAGGED_TEXT));

        assertThat(body).contains("<think>\\nFOREIGN reasoning text\\n</think>")
                .doesNotContain("FOREIGN-SIG").doesNotContain("FOREIGN-REDACTED").doesNotContain("FOREIGN-TEXT-SIG");
        assertThat(body.contains("CURRENTOWN") && body.contains("OLDOWN")).isEqualTo(client.takesReasoning());
    }
}
