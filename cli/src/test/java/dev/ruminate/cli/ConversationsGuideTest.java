package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.json.MessageJson;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The examples of {@code docs/conversations.md} compile and run against emulators on loopback
 * that refuse, as the real APIs do, a conversation sent back wrong ({@link AcceptanceRules}), and
 * the guide shows them as written here ({@link GuideBlocks}).
 */
@ExtendWith(NettyLeakCheck.class)
class ConversationsGuideTest {

    private static final String GUIDE = "conversations.md";
    /** A signature of the form Anthropic issues (base64), so the integrity check keeps it. */
    private static final String SIGNATURE = Base64.getEncoder().encodeToString(
            "a thinking block's signature, opaque to the client".repeat(3).getBytes(StandardCharsets.UTF_8));

    private ProviderEmulator anthropic;
    private ProviderEmulator deepseekServer;
    private ChatProvider claude;
    private ChatProvider deepseek;

    @BeforeEach
    void start() {
        anthropic = ProviderEmulator.start().checking(AcceptanceRules.anthropic());
        deepseekServer = ProviderEmulator.start().checking(AcceptanceRules.deepSeek());
        claude = AnthropicProvider.builder().baseUrl(anthropic.baseUrl()).apiKey(ApiKey.of("emulator-key")).build();
        deepseek = ChatCompletionsProvider.builder(Profiles.DEEPSEEK)
                .baseUrl(deepseekServer.baseUrl()).apiKey(ApiKey.of("emulator-key")).build();
    }

    @AfterEach
    void stop() {
        anthropic.close();
        deepseekServer.close();
    }

    static ChatRequest twoTurns(ChatProvider claude) {
        // guide:start turns
        ChatReducer reducer = ChatReducer.defaults();
        ChatRequest first = ChatRequest.builder("claude-sonnet-4-5")
                .system("Answer in one sentence.")
                .user("What is 17 * 3?")
                .build();
        ChatResult one = reducer.reduce(claude.stream(first)).block();

        ChatRequest second = first.toBuilder()
                .message(one.message())       // the AssistantMessage exactly as reduced: thinking, signature and all
                .user("And that divided by 3?")
                .build();
        ChatResult two = reducer.reduce(claude.stream(second)).block();

        ChatRequest third = second.toBuilder().message(two.message()).user("Thanks!").build();
        // guide:end turns
        return third;
    }

    static ChatResult switchProvider(ChatProvider deepseek, ChatRequest third) {
        // guide:start switch
        ChatRequest forDeepSeek = third.toBuilder().model("deepseek-chat").build();   // same messages, another provider
        ChatResult answer = ChatReducer.defaults().reduce(deepseek.stream(forDeepSeek)).block();
        // guide:end switch
        return answer;
    }

    static ChatRequest storeAndReload(ChatRequest third) {
        // guide:start store
        String stored = MessageJson.writeAll(third.messages());          // opaque state included: keep it server-side
        List<Message> reloaded = MessageJson.readAll(stored);
        ChatRequest again = ChatRequest.builder("claude-sonnet-4-5").messages(reloaded).build();
        // guide:end store
        return again;
    }

    private void scriptTwoClaudeTurns() {
        anthropic.enqueue(AnthropicScript.create().model("claude-sonnet-4-5")
                .thinking("17 * 3 = 51.", SIGNATURE).text("51.").toResponse());
        anthropic.enqueue(AnthropicScript.create().model("claude-sonnet-4-5").text("17.").toResponse());
    }

    @Test
    void theSecondTurnCarriesTheThinkingAndItsSignatureUnchanged() {
        scriptTwoClaudeTurns();

        ChatRequest third = twoTurns(claude);

        assertThat(anthropic.requests()).hasSize(2).allSatisfy(r -> assertThat(r.rejectedBy()).isNull());
        String secondBody = anthropic.requests().get(1).body();
        assertThat(secondBody).contains("\"signature\":\"" + SIGNATURE + "\"", "17 * 3 = 51.", "And that divided by 3?");
        assertThat(third.messages()).hasSize(6);
        assertThat(((AssistantMessage) third.messages().get(2)).reasoning()).isEqualTo("17 * 3 = 51.");
    }

    @Test
    void anotherProviderGetsNeitherTheSignatureNorTheThinking() {
        scriptTwoClaudeTurns();
        ChatRequest third = twoTurns(claude);
        deepseekServer.enqueue(ChatCompletionsScript.create().model("deepseek-chat")
                .reasoning("A polite reply.").content("You're welcome.").toResponse());

        ChatResult answer = switchProvider(deepseek, third);

        assertThat(answer.message().text()).isEqualTo("You're welcome.");
        String body = deepseekServer.requests().get(0).body();
        assertThat(deepseekServer.requests().get(0).rejectedBy()).isNull();
        assertThat(body).contains("\"model\":\"deepseek-chat\"", "51.", "Thanks!")
                .doesNotContain(SIGNATURE, "17 * 3 = 51.", "reasoning_content");

        // Back to Claude: its own turns still carry their signatures; DeepSeek's reasoning does not go.
        anthropic.enqueue(AnthropicScript.create().model("claude-sonnet-4-5").text("Bye.").toResponse());
        ChatRequest back = third.toBuilder().message(answer.message()).user("Bye!").build();
        ChatReducer.defaults().reduce(claude.stream(back)).block();
        assertThat(anthropic.requests().get(2).rejectedBy()).isNull();
        assertThat(anthropic.requests().get(2).body()).contains(SIGNATURE, "17 * 3 = 51.", "You're welcome.")
                .doesNotContain("A polite reply.");
    }

    @Test
    void aStoredConversationContinuesAsIfItHadNeverLeftMemory() {
        scriptTwoClaudeTurns();
        ChatRequest third = twoTurns(claude);
        anthropic.enqueue(AnthropicScript.create().model("claude-sonnet-4-5").text("Welcome.").toResponse());
        anthropic.enqueue(AnthropicScript.create().model("claude-sonnet-4-5").text("Welcome.").toResponse());

        ChatRequest again = storeAndReload(third);
        ChatReducer.defaults().reduce(claude.stream(third)).block();
        ChatReducer.defaults().reduce(claude.stream(again)).block();

        assertThat(again.messages()).isEqualTo(third.messages());
        assertThat(anthropic.requests().get(3).body()).isEqualTo(anthropic.requests().get(2).body())
                .contains(SIGNATURE);
    }

    @Test
    void theGuideShowsTheExamplesAsWrittenHere() {
        for (String name : new String[] {"turns", "switch", "store"}) {
            assertThat(GuideBlocks.inGuide(GUIDE, name)).as(name).isNotEmpty()
                    .isEqualTo(GuideBlocks.inSource("ConversationsGuideTest", name));
        }
    }
}
