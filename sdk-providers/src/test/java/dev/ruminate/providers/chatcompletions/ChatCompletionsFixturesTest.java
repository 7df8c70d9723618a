package dev.ruminate.providers.chatcompletions;

import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import dev.ruminate.core.think.ThinkTagOptions;
import static dev.ruminate.providers.testing.Folded.Kind.REASONING;
import static dev.ruminate.providers.testing.Folded.Kind.TEXT;
import static dev.ruminate.providers.testing.Folded.Kind.TOOL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every Chat Completions recording in {@code src/test/resources/fixtures} (see PROVENANCE.md),
 * decoded with its provider's profile. The expected values were read off the recordings.
 */
class ChatCompletionsFixturesTest {

    private static void assertText(String actual, int codePoints, String start, String end) {
        assertThat(Folded.codePoints(actual)).as("length in code points").isEqualTo(codePoints);
        assertThat(actual).startsWith(start).endsWith(end);
    }

    private static void assertUsage(Folded f, Long input, Long output, Long reasoning, Long cached) {
        assertThat(f.usage).isEqualTo(new Usage(input, output, reasoning, cached));
    }

    private static void assertFinish(Folded f, FinishReason reason, String raw) {
        assertThat(f.completed).isNotNull();
        assertThat(f.completed.finishReason()).isEqualTo(reason);
        assertThat(f.completed.rawFinishReason()).isEqualTo(raw);
    }

    private static void assertStarted(Folded f, String provider, String model, String id) {
        assertThat(f.started).isNotNull();
        assertThat(f.started.provider()).isEqualTo(provider);
        assertThat(f.started.model()).isEqualTo(model);
        assertThat(f.started.responseId()).isEqualTo(id);
    }

    /** A non-streaming body repeats each reasoning part's text in a ReasoningFinal. */
    private static void assertFinalsMatch(Folded f) {
        for (Folded.PartView p : f.ofKind(REASONING)) {
            if (p.text.length() > 0) {
                assertThat(p.finalText).as("ReasoningFinal of part " + p.index).isEqualTo(p.text());
                assertThat(p.deltas).isEqualTo(1);
            }
        }
    }

    private static void assertTool(Folded.PartView tool, int index, String id, String name, String arguments) {
        assertThat(tool.toolIndex).isEqualTo(index);
        assertThat(tool.toolId).isEqualTo(id);
        assertThat(tool.toolName).isEqualTo(name);
        assertThat(tool.text()).isEqualTo(arguments);
    }

    @Test
    void deepSeekAzureV4StreamWithExplicitNullsAndNoDone() {
        Folded f = Fixtures.stream(Profiles.DEEPSEEK, "deepseek/vercel-azure-deepseek-v4-reasoning-stream.sse").folded();

        assertStarted(f, "deepseek", "deepseek-v4-pro", "7334c29da064437e9d158710cdefbae6");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertText(reasoning.text(), 3832, "We need to invent a new holiday around the latest Knicks gam",
                "orange and blue, etc. That seems fun. I'll craft a response.");
        assertThat(reasoning.deltas).isEqualTo(445);
        assertThat(reasoning.sources).containsExactly("reasoning_content");
        assertText(f.text(), 2661, "Exciting news, Knicks fans—there's a brand-new holiday on the calendar!",
                "See you next April\u202f4—from the logo! 🎯🧡💙");
        // this server reports only a top-level "reasoning_tokens": 0, which is not a documented field
        assertUsage(f, 19L, 1720L, null, null);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void deepSeekReasonerStreamWithToolCallFragments() {
        Folded f = Fixtures.stream(Profiles.DEEPSEEK, "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse").folded();

        assertStarted(f, "deepseek", "deepseek-reasoner", "cca85624-4056-401f-b220-d77601d1f70d");
        assertThat(f.kinds()).isEqualTo("reasoning,tool");
        assertText(f.reasoning(), 191, "The user is asking for the weather in San Francisco. I need ",
                "her tool with the location parameter set to \"San Francisco\".");
        Folded.PartView tool = f.only(TOOL);
        assertTool(tool, 0, "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", "weather", "{\"location\": \"San Francisco\"}");
        assertThat(tool.deltas).isEqualTo(11);
        assertUsage(f, 339L, 83L, 39L, 320L);
        assertFinish(f, FinishReason.TOOL_CALLS, "tool_calls");
    }

    @Test
    void deepSeekV4FlashToolLoopTurn1() {
        Folded f = Fixtures.completion(Profiles.DEEPSEEK, "deepseek/pydantic-deepseek-reasoner-tool-calls.turn1.json").folded();

        assertStarted(f, "deepseek", "deepseek-v4-flash", "0841b0a3-0321-47fa-a8a5-f08e5a4b3cb3");
        assertThat(f.kinds()).isEqualTo("reasoning,text,tool");
        assertText(f.reasoning(), 233, "The user wants to play a dice game. I need to roll",
                "tool.\n\nLet me load the capability first.");
        assertFinalsMatch(f);
        assertThat(f.text()).isEqualTo("Let me load the dice rolling capability!");
        assertTool(f.only(TOOL), 0, "call_00_sXqYgMESDht75NCLLZtt9804", "load_capability", "{\"id\": \"DICE_ROLL\"}");
        assertUsage(f, 563L, 116L, 60L, 512L);
        assertFinish(f, FinishReason.TOOL_CALLS, "tool_calls");
    }

    @Test
    void deepSeekV4FlashToolLoopTurn2HasTwoCalls() {
        Folded f = Fixtures.completion(Profiles.DEEPSEEK, "deepseek/pydantic-deepseek-reasoner-tool-calls.turn2.json").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text,tool,tool");
        assertText(f.reasoning(), 105, "Great, now I have access to the dice roll tool. Le",
                "the player's name and then roll the die.");
        assertFinalsMatch(f);
        assertThat(f.text()).isEqualTo("Let me get your name and roll the die!");
        List<Folded.PartView> tools = f.ofKind(TOOL);
        assertTool(tools.get(0), 0, "call_00_6edlnw3Z1MgeMfey687g8451", "get_player_name", "{}");
        assertTool(tools.get(1), 1, "call_01_km02sac7sHxNDPATKLZy7705", "roll_dice", "{}");
        assertUsage(f, 875L, 79L, 26L, 0L);
    }

    @Test
    void deepSeekV4FlashToolLoopTurn3() {
        Folded f = Fixtures.completion(Profiles.DEEPSEEK, "deepseek/pydantic-deepseek-reasoner-tool-calls.turn3.json").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.reasoning()).isEqualTo("The player's name is Anne, and the die rolled a 4. The user guessed 4, so they win!");
        assertFinalsMatch(f);
        assertText(f.text(), 124, "🎉 **Congratulations, Anne!** You're a winner! 🎉", "Lucky you! 🎲");
        assertUsage(f, 976L, 61L, 25L, 896L);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void deepSeekReasonerBody() {
        Folded f = Fixtures.completion(Profiles.DEEPSEEK, "deepseek/pydantic-deepseek-reasoner.json").folded();

        assertStarted(f, "deepseek", "deepseek-reasoner", "181d9669-2b3a-445e-bd13-2ebff2c378f6");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertText(f.reasoning(), 1997, "Okay, the user is asking how to cross the street. ",
                "eed to present it clearly and concisely.");
        assertFinalsMatch(f);
        assertText(f.text(), 1568, "Crossing the street safely involves careful observ", "d stay alert until you've fully crossed.");
        assertUsage(f, 12L, 789L, 415L, 0L);
    }

    @Test
    void deepSeekAzureV4Body() {
        Folded f = Fixtures.completion(Profiles.DEEPSEEK, "deepseek/vercel-azure-deepseek-v4-reasoning.json").folded();

        assertStarted(f, "deepseek", "deepseek-v4-pro", "d1d4c43a0e854cbc9a14f9099a8afb81");
        assertText(f.reasoning(), 3389, "We need to invent a new holiday around the latest ",
                "iday. The answer should be entertaining.");
        assertFinalsMatch(f);
        assertText(f.text(), 4097, "Absolutely! Based on the most recent Knicks game i", "until he let it fly. 🏙️🧡💙");
        assertUsage(f, 19L, 1969L, null, null);
    }

    @Test
    void deepSeekVercelReasonerBody() {
        Folded f = Fixtures.completion(Profiles.DEEPSEEK, "deepseek/vercel-deepseek-reasoner.json").folded();

        assertText(f.reasoning(), 935, "We are asked: \"How many 'r's are in the word 'stra",
                " the word 'strawberry'?\" So answer is 3.");
        assertFinalsMatch(f);
        assertText(f.text(), 107, "The word \"strawberry\" contains three instances of ", "ne after the \"t\" and two before the \"y\".");
        assertUsage(f, 18L, 345L, 315L, 0L);
    }

    @Test
    void deepSeekVercelToolCallBodyWithEmptyContentHasNoTextPart() {
        Folded f = Fixtures.completion(Profiles.DEEPSEEK, "deepseek/vercel-deepseek-reasoning-tool-call.json").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,tool");
        assertText(f.reasoning(), 242, "The user is asking for the weather in San Francisc", "isco\". Let me call the weather function.");
        assertFinalsMatch(f);
        assertTool(f.only(TOOL), 0, "call_00_9V0vrf86Pc9aelHCJMZqnJBo", "weather", "{\"location\": \"San Francisco\"}");
        assertUsage(f, 339L, 92L, 48L, 320L);
        assertFinish(f, FinishReason.TOOL_CALLS, "tool_calls");
    }

    @Test
    void groqToolUseFailedErrorEventEndsTheStreamWithATypedError() {
        // INDEX.md describes turn 2 as the failing one; in the recorded bodies it is turn 1
        Outcome outcome = Fixtures.stream(Profiles.GROQ, "groq/pydantic-groq-tool-use-failed-error-stream.turn1.sse");

        assertThat(outcome.error()).isInstanceOf(ProviderStreamException.class);
        ProviderStreamException error = (ProviderStreamException) outcome.error();
        assertThat(error.error().type()).isEqualTo("invalid_request_error");
        assertThat(error.error().code()).isEqualTo("tool_use_failed");
        assertThat(error.error().message()).startsWith("Tool call validation failed: tool call validation failed: "
                + "parameters for tool get_something_by_name did not match schema");
        Folded partial = Folded.of(outcome.events());
        assertThat(partial.completed).isNull();
        assertThat(partial.kinds()).isEqualTo("reasoning");
        assertText(partial.reasoning(), 412, "We need to call the tool with invalid parameters first, then",
                "name: {}. Then second call with name: \"test\". Let's do that.");
    }

    @Test
    void groqToolCallArrivingWholeInOneDelta() {
        Folded f = Fixtures.stream(Profiles.GROQ, "groq/pydantic-groq-tool-use-failed-error-stream.turn2.sse").folded();

        assertStarted(f, "groq", "openai/gpt-oss-120b", "chatcmpl-e35442a8-12c0-4fb4-8be4-0e51727ce7b7");
        assertThat(f.kinds()).isEqualTo("reasoning,tool");
        assertText(f.reasoning(), 92, "We need to call the function with correct parameter \"name\". ",
                "Provide a name, e.g., \"example\".");
        assertThat(f.only(REASONING).sources).containsExactly("reasoning");
        Folded.PartView tool = f.only(TOOL);
        assertTool(tool, 0, "fc_bfb39741-3748-4def-9886-a93fc9c64a90", "get_something_by_name", "{\"name\":\"example\"}");
        assertThat(tool.deltas).isEqualTo(1);
        // usage is in "usage" and again in "x_groq.usage": reported once
        assertThat(f.usageUpdates).isEqualTo(1);
        assertUsage(f, 304L, 49L, 23L, null);
        assertFinish(f, FinishReason.TOOL_CALLS, "tool_calls");
    }

    @Test
    void groqReasoningThenAnswerAfterToolResult() {
        Folded f = Fixtures.stream(Profiles.GROQ, "groq/pydantic-groq-tool-use-failed-error-stream.turn3.sse").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertText(f.reasoning(), 176, "The user wants to test error handling by calling tool with n",
                "y with valid args. We have succeeded. Now respond concisely.");
        assertThat(f.text()).isEqualTo("The tool returned the expected result for the valid call.");
        assertUsage(f, 339L, 58L, 38L, null);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void groqParsedReasoningStream() {
        Folded f = Fixtures.stream(Profiles.GROQ, "groq/vercel-groq-reasoning-field-stream.sse").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertText(f.reasoning(), 2952, "Okay, let me try to figure out how many times the letter 'r'",
                "So the number of R's in \"strawberry\" is three.\n");
        assertThat(f.only(REASONING).deltas).isEqualTo(963);
        assertText(f.text(), 347, "The word **\"strawberry\"** is spelled as **S-T-R-A-W-B-E-R-R-Y**.",
                "**Final Answer**: $\\boxed{3}$");
        assertUsage(f, 17L, 1107L, 963L, null);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void groqParsedReasoningBodies() {
        Folded r1 = Fixtures.completion(Profiles.GROQ, "groq/pydantic-groq-deepseek-r1-distill-parsed-reasoning.json").folded();
        assertText(r1.reasoning(), 3722, "Alright, so I want to make Argentinian alfajores a",
                " this traditional South American treat.\n");
        assertFinalsMatch(r1);
        assertText(r1.text(), 3469, "To create authentic Argentinian alfajores, follow ", "ns of this beloved South American treat.");
        assertUsage(r1, 524L, 1590L, null, null);

        Folded qwen = Fixtures.completion(Profiles.GROQ, "groq/vercel-groq-reasoning-field.json").folded();
        assertStarted(qwen, "groq", "qwen/qwen3-32b", "chatcmpl-73cf8a54-d54e-400c-88b8-603d1a346d96");
        assertText(qwen.reasoning(), 1724, "Okay, so the user is asking how many times the let",
                "ate letters. So the answer should be 3.\n");
        assertFinalsMatch(qwen);
        assertText(qwen.text(), 206, "The word \"strawberry\" contains **3** instances of ", "\n\n**Answer:** 3.");
        assertUsage(qwen, 17L, 649L, 570L, null);
    }

    @Test
    void openAiO3MiniReportsOnlyReasoningTokens() {
        Folded f = Fixtures.completion(Profiles.OPENAI, "openai-chat/pydantic-o3-mini-chat-reasoning-tokens.json").folded();

        assertStarted(f, "openai", "o3-mini-2025-01-31", "chatcmpl-CENUmtwDD0HdvTUYL6lUeijDtxrZL");
        assertThat(f.kinds()).isEqualTo("text");
        assertText(f.text(), 2496, "When it comes to crossing a river safely, the proc", "ive or professional guidance. Stay safe!");
        assertUsage(f, 577L, 2320L, 1792L, 0L);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void openAiCompatibleCerebrasGlmReasoningField() {
        Folded turn1 = Fixtures.completion(Profiles.CEREBRAS, "openai-compatible/pydantic-cerebras-glm-reasoning-multiturn.turn1.json").folded();
        assertStarted(turn1, "cerebras", "zai-glm-4.7", "chatcmpl-7a8879bf-5eca-4694-8673-441d7b669f8c");
        assertText(turn1.reasoning(), 1388, "The user wants me to solve the multiplication prob",
                ":**\n    *   \"25 multiplied by 4 is 100.\"");
        assertThat(turn1.only(REASONING).sources).containsExactly("reasoning");
        assertFinalsMatch(turn1);
        assertThat(turn1.text()).isEqualTo("25 * 4 = 100.");
        assertUsage(turn1, 17L, 415L, 406L, 0L);

        Folded turn2 = Fixtures.completion(Profiles.CEREBRAS, "openai-compatible/pydantic-cerebras-glm-reasoning-multiturn.turn2.json").folded();
        assertText(turn2.reasoning(), 328, "1.  **Identify the Core Task:** The user wants me ", "late Answer:** State the result clearly.");
        assertThat(turn2.text()).isEqualTo("100 / 2 = 50.");
        assertUsage(turn2, 35L, 106L, 97L, 0L);
    }

    @Test
    void openAiCompatibleSnowflakeReasoningDetailsWithoutFinishReason() {
        Folded f = Fixtures.stream(Profiles.SNOWFLAKE, "openai-compatible/pydantic-snowflake-claude-thinking-stream.sse").folded();

        assertStarted(f, "snowflake", "claude-sonnet-4-6", null);
        // the empty content strings beside the reasoning open no text part
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.text()).isEqualTo("15 * 27 = 405");
        assertThat(reasoning.sources).containsExactly("reasoning_details");
        assertThat(reasoning.seals).containsOnly(
                org.assertj.core.api.Assertions.entry(Seal.Kind.FORMAT, "anthropic-claude-v1"),
                org.assertj.core.api.Assertions.entry(Seal.Kind.ITEM_ID, "reasoning-text-1"));
        assertThat(reasoning.sealHistory).hasSize(2);
        assertThat(f.text()).isEqualTo("15 × 27 = **405**\n\nHere's the breakdown:\n- 15 × 20 = 300\n- 15 × 7 = 105\n"
                + "- 300 + 105 = **405**");
        assertUsage(f, 45L, 73L, 0L, 0L);
        // [DONE] without any finish_reason
        assertFinish(f, FinishReason.OTHER, null);
    }

    @Test
    void openAiCompatibleZaiGlmStream() {
        Folded f = Fixtures.stream(Profiles.GLM, "openai-compatible/pydantic-zai-glm-reasoning-content-stream.sse").folded();

        assertStarted(f, "glm", "glm-4.7", "202607010739425543ff9439144b2c");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertText(f.reasoning(), 2173, "\n1.  **Analyze the User's Request:** The user is asking a ve",
                "tra fluff is needed.\n\n7.  **Draft the final response:** \"4\".");
        assertThat(f.text()).isEqualTo("4");
        assertUsage(f, 13L, 564L, 561L, 0L);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void openAiCompatibleZaiGlmBodies() {
        Folded turn1 = Fixtures.completion(Profiles.GLM, "openai-compatible/pydantic-zai-glm-preserved-thinking-multiturn.turn1.json").folded();
        assertText(turn1.reasoning(), 222, "\nThe user is asking for the product of 17 and 19.\n", "system instructions or chain of thought.");
        assertFinalsMatch(turn1);
        assertText(turn1.text(), 278, "17 * 19 is 323.\n\nHere is one way to think it throu", "the result is $324 - 1 = 323$.");
        assertUsage(turn1, 17L, 172L, 49L, 0L);

        Folded turn2 = Fixtures.completion(Profiles.GLM, "openai-compatible/pydantic-zai-glm-preserved-thinking-multiturn.turn2.json").folded();
        assertText(turn2.reasoning(), 304, "\nThe user wants to multiply the previous result, 3", "0 + 40 + 6 = 646.\n4.  Final Answer: 646.");
        assertThat(turn2.text()).isEqualTo("323 * 2 is 646.");
        assertUsage(turn2, 198L, 134L, 122L, 0L);
    }

    @Test
    void openAiCompatibleDashScopeQwenStreamWithUsageChunkAndNoDone() {
        Folded f = Fixtures.stream(Profiles.QWEN, "openai-compatible/vercel-alibaba-qwen-reasoning-content-stream.sse").folded();

        assertStarted(f, "qwen", "qwen3-max", "chatcmpl-3792851e-8f1b-9182-a1dc-b84603c81344");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertText(f.reasoning(), 3301, "We are asked: \"How many 'r's are in the word 'strawberry'?\" ",
                "print(count) -> 3.\n\nYes.\n\nSo final answer: 3.");
        assertText(f.text(), 816, "The word **\"strawberry\"** contains **3** instances of the letter **\"r\"**.",
                "returns `3`).  \n\n**Answer: 3**");
        assertUsage(f, 24L, 1355L, 1084L, 0L);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void openRouterClaudeDetailsAndPlainReasoningAreNotDoubled() {
        Folded f = Fixtures.stream(Profiles.OPENROUTER, "openrouter/pydantic-openrouter-claude-reasoning-details-stream.sse").folded();

        assertStarted(f, "openrouter", "anthropic/claude-sonnet-4.5", "gen-1765226419-AGrwjunAftQIAgweibL8");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.text()).isEqualTo("This is a simple arithmetic question. 2+2 equals 4.");
        assertThat(reasoning.sources).containsExactly("reasoning_details");
        assertThat(reasoning.seals.get(Seal.Kind.FORMAT)).isEqualTo("anthropic-claude-v1");
        assertThat(reasoning.seals.get(Seal.Kind.SIGNATURE)).hasSize(304)
                .startsWith("Et0BCkgIChACGAIqQA2s7h7tA7IG35fbwVkou9PM2hANVJNUwcEM4q12fTRDK6y3v6Y")
                .endsWith("AEUZy0GX0Rq1AXjvIcYAQ==");
        // the empty signature of the first fragment is no seal; the real one arrives while the part is open
        assertThat(reasoning.sealHistory).containsExactly("FORMAT@open", "SIGNATURE@open");
        assertThat(f.text()).isEqualTo("2 + 2 = 4");
        assertUsage(f, 43L, 36L, 13L, 0L);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void openRouterO3EncryptedReasoningOnly() {
        Folded f = Fixtures.stream(Profiles.OPENROUTER, "openrouter/pydantic-openrouter-o3-reasoning-stream.sse").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.text()).isEmpty();
        assertThat(reasoning.seals.get(Seal.Kind.ENCRYPTED)).hasSize(1164).startsWith("gAAAAABpCCSIBxdevbk-8QtJuf4C6mgq");
        assertThat(reasoning.seals.get(Seal.Kind.ITEM_ID)).isEqualTo("rs_0aa4f2c435e6d1dc0169082486816c8193a029b5fc4ef1764f");
        assertThat(reasoning.seals.get(Seal.Kind.FORMAT)).isEqualTo("openai-responses-v1");
        assertText(f.text(), 446, "I’m ChatGPT, a large-language-model assistant created by OpenAI. I generate text",
                "s something specific you’d like help with, just let me know!");
        assertUsage(f, 9L, 104L, 0L, 0L);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void openRouterGlmBodyWithDetailsAndPlainReasoningTakesOne() {
        Folded f = Fixtures.completion(Profiles.OPENROUTER, "openrouter/pydantic-openrouter-glm-reasoning.json").folded();

        assertStarted(f, "openrouter", "z-ai/glm-4.6", "gen-1761603589-2zW4FJLny121WIZ4fOS4");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertText(reasoning.text(), 5957, "1.  **Deconstruct the User's Prompt:**\n    *   **C",
                "and demonstrates the \"thinking\" process.");
        assertThat(reasoning.sources).containsExactly("reasoning_details");
        assertThat(reasoning.seals.get(Seal.Kind.FORMAT)).isEqualTo("unknown");
        assertFinalsMatch(f);
        assertText(f.text(), 6594, "\n\nOf course. This is an excellent question that re", "blic is built, for better and for worse.");
        assertUsage(f, 24L, 2801L, 0L, 0L);
    }

    @Test
    void openRouterGpt5MiniWithoutReasoning() {
        Folded f = Fixtures.completion(Profiles.OPENROUTER,
                "openrouter/pydantic-openrouter-gpt5-mini-reasoning-details-multiturn.turn1.json").folded();

        assertThat(f.kinds()).isEqualTo("text");
        assertThat(f.text()).isEqualTo("Hello! How can I help you today?");
        assertUsage(f, 8L, 15L, 0L, null);
    }

    @Test
    void openRouterGpt5MiniSummaryAndEncryptedShareOnePart() {
        Folded f = Fixtures.completion(Profiles.OPENROUTER,
                "openrouter/pydantic-openrouter-gpt5-mini-reasoning-details-multiturn.turn2.json").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.summary).isTrue();
        assertText(reasoning.text(), 574, "**Structuring Voltaire’s Impact**\n\nI’m thinking ab",
                "bout him for a well-rounded exploration.");
        assertThat(reasoning.seals.get(Seal.Kind.ENCRYPTED)).hasSize(5412).startsWith("gAAAAABpAjHR-iS0FxMStS_v");
        assertThat(reasoning.seals.get(Seal.Kind.ITEM_ID)).isEqualTo("rs_0e67143e70e2c03a01690231c4b7c08195b5bfcc5c216e88b2");
        assertThat(reasoning.seals.get(Seal.Kind.FORMAT)).isEqualTo("openai-responses-v1");
        assertFinalsMatch(f);
        assertText(f.text(), 3868, "Short answer: Very large. Voltaire’s writings help", "able books or articles for deeper study.");
        assertUsage(f, 41L, 1457L, 704L, null);
    }

    @Test
    void xaiGrok3MiniReasoningContentStream() {
        Folded f = Fixtures.stream(Profiles.XAI, "xai/vercel-xai-chat-reasoning-content-stream.sse").folded();

        assertStarted(f, "xai", "grok-3-mini", "f0f0f217-c24d-1fee-5fe3-28fa1d3c8c94");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertText(f.reasoning(), 1455, "First, the user said: \"Say a single word.\" That's straightfo",
                ". No punctuation if possible, just the word.\n\nResponse: Grok");
        assertThat(f.only(REASONING).deltas).isEqualTo(340);
        assertThat(f.text()).isEqualTo("Grok");
        assertUsage(f, 12L, 2L, 340L, 11L);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void xaiGrok3MiniWholeToolCallThenUsageChunk() {
        Folded f = Fixtures.stream(Profiles.XAI, "xai/vercel-xai-chat-reasoning-content-tool-call-stream.sse").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,tool");
        assertText(f.reasoning(), 1069, "First, the user is asking about the weather in San Francisco",
                "d on the result, but for now, this is the logical next step.");
        assertTool(f.only(TOOL), 0, "call_79382389", "weather", "{\"location\":\"San Francisco\"}");
        assertUsage(f, 307L, 26L, 227L, 306L);
        assertFinish(f, FinishReason.TOOL_CALLS, "tool_calls");
    }

    @Test
    void xaiShortToolCallStream() {
        Folded f = Fixtures.stream(Profiles.XAI, "xai/vercel-xai-grok-reasoning-content-tool-call-stream.sse").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,tool");
        assertThat(f.reasoning()).isEqualTo("First, the user is");
        assertTool(f.only(TOOL), 0, "call_55117580", "weather", "{\"location\":\"San Francisco\"}");
        assertUsage(f, 291L, 26L, 196L, 290L);
        assertFinish(f, FinishReason.TOOL_CALLS, "tool_calls");
    }

    // Tags stay in the content here: splitting them is the think-tag operator's job, which the
    // profile asks for with thinkTags().

    @Test
    void thinkTagsGroqRawFormatStream() {
        assertThat(Profiles.GROQ.thinkTags()).isEqualTo(ThinkTagOptions.DEFAULT);
        Folded f = Fixtures.stream(Profiles.GROQ, "think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse").folded();

        assertThat(f.kinds()).isEqualTo("text");
        assertText(f.text(), 4045, "<think>\nOkay, so I want to make Uruguayan alfajores. I've heard they're a type o",
                "or flavor balance.\n\nEnjoy your homemade Uruguayan alfajores!");
        assertThat(f.text().split("</think>", -1)).hasSize(2);
        assertThat(f.only(TEXT).deltas).isEqualTo(987);
        // only x_groq carries usage in this recording
        assertUsage(f, 21L, 988L, null, null);
        assertFinish(f, FinishReason.STOP, "stop");
    }

    @Test
    void thinkTagsGroqRawFormatBody() {
        Folded f = Fixtures.completion(Profiles.GROQ, "think-tags/pydantic-groq-deepseek-r1-distill-think-tags.json").folded();

        assertThat(f.kinds()).isEqualTo("text");
        assertText(f.text(), 5980, "<think>\nOkay, so I want to make Uruguayan alfajore", "n alfajores with a cup of coffee or tea!");
        assertThat(f.events).noneMatch(ReasoningFinal.class::isInstance);
        assertUsage(f, 21L, 1414L, null, null);
    }

    @Test
    void thinkTagsHuggingFaceRouterBodiesWithTopLevelCachedTokens() {
        CompatProfile hf = Profiles.OPENAI_COMPATIBLE.toBuilder().name("hf").thinkTags(ThinkTagOptions.DEFAULT).build();

        Folded turn1 = Fixtures.completion(hf, "think-tags/pydantic-hf-deepseek-r1-multiturn.turn1.json").folded();
        assertStarted(turn1, "hf", "deepseek-ai/DeepSeek-R1", "oV1mwwj-28Eivz-9c4b154f3b427f82");
        assertThat(turn1.kinds()).isEqualTo("text");
        assertText(turn1.text(), 4295, "<think>\nOkay, the user asked \"How do I cross the s", "igilant--every crossing is different! 🛑👟");
        assertUsage(turn1, 10L, 995L, null, 0L);

        Folded turn2 = Fixtures.completion(hf, "think-tags/pydantic-hf-deepseek-r1-multiturn.turn2.json").folded();
        assertText(turn2.text(), 6112, "<think>\nOkay, the user is asking how to cross a ri", "ing and caution--never underestimate it.");
        assertUsage(turn2, 32L, 1425L, null, 0L);
    }
}
