package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Folded.Kind;
import dev.ruminate.providers.testing.Folded.PartView;
import dev.ruminate.providers.testing.Recorded;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Anthropic recording decodes and reduces, with what each holds checked against the recording
 * itself (read by hand: block order, thinking text, signatures and redacted data as on the wire,
 * tool input, server-tool blocks, usage, stop reason).
 */
class AnthropicFixturesTest {

    static List<String> all() {
        return Recorded.under(AnthropicRecordings.FOLDER);
    }

    @ParameterizedTest
    @MethodSource("all")
    void everyRecordingDecodesWithinTheEventContractAndReduces(String path) {
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.started).isNotNull();
        assertThat(f.started.provider()).isEqualTo("anthropic");
        assertThat(f.completed).isNotNull();
        assertThat(f.parts).isNotEmpty();
        ChatResult result = AnthropicRecordings.reduce(AnthropicRecordings.decode(path));
        assertThat(result.message().parts()).hasSize(f.parts.size());
        boolean thinking = f.parts.stream().anyMatch(p -> p.kind == Kind.REASONING && !p.text().isEmpty());
        // streams never repeat the thinking; a whole body is the provider's final view of it
        ReasoningVerdict expected = path.endsWith(".json") && thinking ? ReasoningVerdict.MATCHED : ReasoningVerdict.UNAVAILABLE;
        assertThat(result.reasoningCheck().verdict()).isEqualTo(expected);
        if (path.endsWith(".sse")) {
            assertThat(f.events).noneMatch(ReasoningFinal.class::isInstance);
        }
    }

    @Test
    void thinkingStreamWithPingsAndTrailingSpaces() {
        String path = "anthropic/pydantic-thinking-stream.sse";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.started.model()).isEqualTo("claude-sonnet-4-20250514");
        assertThat(f.started.responseId()).isEqualTo("msg_01ALwQ87pTS7hH1PjSdC9wJD");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        PartView thinking = f.parts.get(0);
        assertThat(thinking.text()).startsWith("This is a straightforward question about pedestrian safety. I should p")
                .endsWith("ation that could help prevent accidents.").hasSize(202);
        assertThat(thinking.deltas).isEqualTo(13);
        assertThat(thinking.sources).containsExactly("thinking");
        assertThat(thinking.summary).isFalse();
        assertThat(thinking.sealHistory).containsExactly("SIGNATURE@open");
        assertSignatureAsOnTheWire(path, thinking.seals.get(Seal.Kind.SIGNATURE), "EvMCCkYICxgCKkCHP2cS", 504);
        assertThat(f.parts.get(1).text()).startsWith("Here are the basic steps for safely crossing the street:\n\n**")
                .endsWith("safety over speed when crossing streets.").hasSize(1021);
        assertThat(f.usage).isEqualTo(new Usage(43L, 282L, null, 0L, 0L));
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(f.completed.rawFinishReason()).isEqualTo("end_turn");
    }

    @Test
    void redactedThinkingStreamGivesTwoTextlessPartsWithTheirData() {
        String path = "anthropic/pydantic-redacted-thinking-stream.sse";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.started.model()).isEqualTo("claude-sonnet-4-5-20250929");
        assertThat(f.started.responseId()).isEqualTo("msg_018XZkwvj9asBiffg3fXt88s");
        assertThat(f.kinds()).isEqualTo("reasoning,reasoning,text");
        for (int i = 0; i < 2; i++) {
            PartView p = f.parts.get(i);
            assertThat(p.text()).isEmpty();
            assertThat(p.seals).containsOnlyKeys(Seal.Kind.REDACTED);
        }
        assertDataAsOnTheWire(path, f.parts.get(0).seals.get(Seal.Kind.REDACTED), "EqkECkYIBxgCKkA8AZ4noDfV5VcOJe", 744);
        assertDataAsOnTheWire(path, f.parts.get(1).seals.get(Seal.Kind.REDACTED), "EtgBCkYIBxgCKkDQfGkwzflEJP5asG", 296);
        assertThat(f.parts.get(1).seals.get(Seal.Kind.REDACTED)).endsWith("dZ1J0GAE=");
        assertThat(f.parts.get(2).text()).startsWith("I notice that you've sent what appears to be some kind of te")
                .endsWith("oday with a legitimate task or question?").hasSize(359);
        assertThat(f.usage).isEqualTo(new Usage(92L, 189L, null, 0L, 0L));
        ChatResult result = AnthropicRecordings.reduce(AnthropicRecordings.decode(path));
        assertThat(result.message().parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class,
                r -> assertThat(r.seals().redacted()).isEqualTo(f.parts.get(0).seals.get(Seal.Kind.REDACTED)));
    }

    @Test
    void webSearchStreamKeepsServerToolBlocksAsTheirOwnParts() {
        String path = "anthropic/pydantic-thinking-web-search-stream.sse";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.started.model()).isEqualTo("claude-sonnet-4-20250514");
        // 17 blocks: the empty text blocks (3, 6, …) hold text in later deltas; none is empty here
        assertThat(f.kinds()).isEqualTo("reasoning,server_tool,server_tool,text,server_tool,server_tool,"
                + "text,text,text,text,text,text,text,text,text,text,text");
        assertThat(f.parts.get(0).text()).startsWith("The user is asking about the weather in San Francisco today. This is c")
                .endsWith("ery to get the most current information.").hasSize(405);
        assertSignatureAsOnTheWire(path, f.parts.get(0).seals.get(Seal.Kind.SIGNATURE), "Er8ECkYIBxgCKkDp29haxwUos3j9", 776);

        PartView search1 = f.parts.get(1);
        assertThat(search1.blockType).isEqualTo("server_tool_use");
        assertThat(search1.toolId).isEqualTo("srvtoolu_01FYcUbzEaqqQh1WBRj1QX3h");
        assertThat(search1.toolName).isEqualTo("web_search");
        assertThat(search1.blockJson).isEqualTo("{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_01FYcUbzEaqqQh1WBRj1QX3h\","
                + "\"name\":\"web_search\",\"input\":{\"query\": \"San Francisco weather today\"}}");
        PartView result1 = f.parts.get(2);
        assertThat(result1.blockType).isEqualTo("web_search_tool_result");
        assertThat(result1.toolId).isEqualTo("srvtoolu_01FYcUbzEaqqQh1WBRj1QX3h");
        assertThat(result1.blockJson).startsWith("{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_01FYcUbzEaqqQh1WBRj1QX3h\","
                + "\"content\":[{\"type\":\"web_search_result\",\"title\":\"San Francisco, CA Weather Forecast | AccuWeather\"")
                .contains("\"encrypted_content\":\"EroTCioIBxgC").endsWith("}").hasSize(15891);
        assertThat(Recorded.text(path)).contains("\"content_block\":" + result1.blockJson);
        assertThat(f.parts.get(4).blockJson).endsWith("\"input\":{\"query\": \"San Francisco weather September 16 2025\"}}");
        assertThat(f.parts.get(4).toolId).isEqualTo("srvtoolu_01FDqc7ruGpVRoNuD5G6jkUx");
        assertThat(f.parts.get(5).blockType).isEqualTo("web_search_tool_result");
        assertThat(Recorded.text(path)).contains("\"content_block\":" + f.parts.get(5).blockJson);

        assertThat(f.parts.get(3).text()).startsWith("Based on the search results, I can see that the in");
        assertThat(f.parts.get(7).text()).isEqualTo("today (September 16) shows a high of 76°F and low of 59°F");
        assertThat(f.text()).endsWith("p to be a pleasant day in San Francisco!");
        assertThat(f.usage).isEqualTo(new Usage(22397L, 637L, null, 0L, 0L));
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.STOP);

        ChatResult result = AnthropicRecordings.reduce(AnthropicRecordings.decode(path));
        assertThat(result.message().parts().get(1)).isInstanceOfSatisfying(ServerToolPart.class, s -> {
            assertThat(s.type()).isEqualTo("server_tool_use");
            assertThat(s.json()).isEqualTo(search1.blockJson);
        });
    }

    @Test
    void mcpStreamKeepsToolUseAndResultBlocks() {
        String path = "anthropic/pydantic-thinking-mcp-servers-stream.sse";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.kinds()).isEqualTo("reasoning,server_tool,server_tool,text");
        assertThat(f.parts.get(0).text()).startsWith("The user is asking about the pydantic/pydantic-ai repository. They wan")
                .endsWith("o get information about this repository.").hasSize(192);
        assertSignatureAsOnTheWire(path, f.parts.get(0).seals.get(Seal.Kind.SIGNATURE), "EuoCCkYICBgCKkDPqznn", 492);
        PartView use = f.parts.get(1);
        assertThat(use.blockType).isEqualTo("mcp_tool_use");
        assertThat(use.toolId).isEqualTo("mcptoolu_01FZmJ5UspaX5BB9uU339UT1");
        assertThat(use.toolName).isEqualTo("ask_question");
        assertThat(use.blockJson).isEqualTo("{\"type\":\"mcp_tool_use\",\"id\":\"mcptoolu_01FZmJ5UspaX5BB9uU339UT1\","
                + "\"name\":\"ask_question\",\"input\":{\"repoName\": \"pydantic/pydantic-ai\", \"question\": "
                + "\"What is this repository about? What are its main features and purpose?\"},\"server_name\":\"deepwiki\"}");
        PartView result = f.parts.get(2);
        assertThat(result.blockType).isEqualTo("mcp_tool_result");
        assertThat(result.toolId).isEqualTo("mcptoolu_01FZmJ5UspaX5BB9uU339UT1");
        assertThat(result.blockJson).startsWith("{\"type\":\"mcp_tool_result\",\"tool_use_id\":\"mcptoolu_01FZmJ5UspaX5BB9uU339UT1\","
                + "\"is_error\":false,\"content\":[{\"type\":\"text\",\"text\":\"This repository, `pydantic/pydantic-ai`, is a GenAI")
                .hasSize(6083);
        assertThat(Recorded.text(path)).contains("\"content_block\":" + result.blockJson);
        assertThat(f.parts.get(3).text()).startsWith("**Pydantic-AI** is a framework for building Generative AI ap")
                .endsWith("ing away provider-specific complexities.").hasSize(806);
        assertThat(f.usage).isEqualTo(new Usage(3042L, 354L, null, 0L, 0L));
    }

    @Test
    void codeExecutionStreamKeepsBashBlocksAndSkipsNoPart() {
        String path = "anthropic/pydantic-code-execution-stream.sse";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.started.model()).isEqualTo("claude-sonnet-4-6");
        assertThat(f.kinds()).isEqualTo("reasoning,text,server_tool,server_tool,text");
        assertThat(f.parts.get(0).text()).isEqualTo("Let me calculate this mathematical expression.");
        assertSignatureAsOnTheWire(path, f.parts.get(0).seals.get(Seal.Kind.SIGNATURE), "EusBClsIDRgCKkBp", 320);
        assertThat(f.parts.get(1).text()).isEqualTo("I'll calculate that expression for you right away!");
        PartView use = f.parts.get(2);
        assertThat(use.blockType).isEqualTo("server_tool_use");
        assertThat(use.toolName).isEqualTo("bash_code_execution");
        assertThat(use.toolId).isEqualTo("srvtoolu_01MwXaweAHve88x6s3Fc8x6Q");
        assertThat(use.blockJson).isEqualTo("{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_01MwXaweAHve88x6s3Fc8x6Q\","
                + "\"name\":\"bash_code_execution\",\"input\":{\"command\": \"echo \\\"65465-6544 * 65464-6+1.02255\\\" | bc -l\"}}");
        PartView result = f.parts.get(3);
        assertThat(result.blockType).isEqualTo("bash_code_execution_tool_result");
        assertThat(result.blockJson).isEqualTo("{\"type\":\"bash_code_execution_tool_result\",\"tool_use_id\":"
                + "\"srvtoolu_01MwXaweAHve88x6s3Fc8x6Q\",\"content\":{\"type\":\"bash_code_execution_result\","
                + "\"stdout\":\"-428330955.97745\\n\",\"stderr\":\"\",\"return_code\":0,\"content\":[]}}");
        assertThat(f.parts.get(4).text()).startsWith("Following the standard **order of operations (PEMDAS/BODMAS)")
                .endsWith("# ✅ Final Answer: **-428,330,955.97745**");
        // message_delta's usage (with the tool's input) replaces message_start's
        assertThat(f.usage).isEqualTo(new Usage(4714L, 304L, null, 0L, 0L));
        assertThat(f.usageUpdates).isEqualTo(2);
    }

    @Test
    void clearThinkingStreamHasAnEmptyFirstDeltaAndSignature() {
        String path = "anthropic/vercel-clear-thinking-stream.sse";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.parts.get(0).text()).isEqualTo("The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185");
        assertSignatureAsOnTheWire(path, f.parts.get(0).seals.get(Seal.Kind.SIGNATURE), "EvQBCkYICxgCKkAxhD4N", 332);
        assertThat(f.parts.get(1).text()).isEqualTo("925 ÷ 5 = 185");
        assertThat(f.usage).isEqualTo(new Usage(69L, 53L, null, 0L, 0L));
    }

    @Test
    void contextEditingStream() {
        String path = "anthropic/vercel-context-editing-thinking-stream.sse";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.parts.get(0).text()).startsWith("I need to calculate 25 * 37 step by step.\n\nLet me break this")
                .endsWith("Yes, 25 * 37 = 925").hasSize(563);
        assertSignatureAsOnTheWire(path, f.parts.get(0).seals.get(Seal.Kind.SIGNATURE), "EtQFCkYICxgCKkC6mX3q", 972);
        assertThat(f.parts.get(1).text()).startsWith("# 25 × 37\n\n").endsWith("**Answer: 25 × 37 = 925**").hasSize(362);
        assertThat(f.usage).isEqualTo(new Usage(50L, 485L, null, 0L, 0L));
    }

    @Test
    void wholeBodyWithThinkingTextAndToolUse() {
        String path = "anthropic/pydantic-thinking-tool-use.turn1.json";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.started.model()).isEqualTo("claude-sonnet-4-20250514");
        assertThat(f.started.responseId()).isEqualTo("msg_01WvueFjZVbHcj4H4zUzeGv2");
        assertThat(f.kinds()).isEqualTo("reasoning,text,tool");
        PartView thinking = f.parts.get(0);
        assertThat(thinking.text()).startsWith("The user is asking about the largest city in \"the user country\".")
                .endsWith("Let me call the get_user_country function first.").hasSize(376);
        assertThat(thinking.finalText).isEqualTo(thinking.text());
        assertSignatureAsOnTheWire(path, thinking.seals.get(Seal.Kind.SIGNATURE), "EqEECkYICxgCKkAo3UA4", 736);
        PartView call = f.parts.get(2);
        assertThat(call.toolId).isEqualTo("toolu_01YGzqpRE16Vricda3Aqcejo");
        assertThat(call.toolName).isEqualTo("get_user_country");
        assertThat(call.text()).isEqualTo("{}");
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(f.completed.rawFinishReason()).isEqualTo("tool_use");
        assertThat(f.usage).isEqualTo(new Usage(398L, 155L, null, 0L, 0L));
    }

    @Test
    void wholeBodiesOfTheOtherTurns() {
        Folded turn2 = AnthropicRecordings.run("anthropic/pydantic-thinking-tool-use.turn2.json").folded();
        assertThat(turn2.kinds()).isEqualTo("text");
        assertThat(turn2.text()).startsWith("Based on the information that you're from Mexico, the larges").hasSize(604);

        Folded output = AnthropicRecordings.run("anthropic/pydantic-thinking-output-tool.json").folded();
        assertThat(output.parts.get(0).text()).startsWith("The user is asking me to calculate 3 + 3.").hasSize(203);
        assertThat(output.text()).isEqualTo("{\"response\": 6}");
        assertSignatureAsOnTheWire("anthropic/pydantic-thinking-output-tool.json",
                output.parts.get(0).seals.get(Seal.Kind.SIGNATURE), "EvQCCkYICxgCKkAFV41l", 504);

        for (String[] turn : new String[][] {
                {"anthropic/pydantic-redacted-thinking-multiturn.turn1.json", "EvgFCkYIBxgCKkBmxKtC", "1020", "I notice that your message"},
                {"anthropic/pydantic-redacted-thinking-multiturn.turn2.json", "EtUFCkYIBxgCKkAE46ql", "976", "That message appeared"}}) {
            Folded f = AnthropicRecordings.run(turn[0]).folded();
            assertThat(f.kinds()).isEqualTo("reasoning,text");
            assertThat(f.parts.get(0).text()).isEmpty();
            assertThat(f.parts.get(0).finalText).isNull();
            assertDataAsOnTheWire(turn[0], f.parts.get(0).seals.get(Seal.Kind.REDACTED), turn[1], Integer.parseInt(turn[2]));
            assertThat(f.text()).startsWith(turn[3]);
        }

        Folded clear = AnthropicRecordings.run("anthropic/vercel-clear-thinking.json").folded();
        assertThat(clear.parts.get(0).text()).isEqualTo("925 divided by 5 = 185");
        assertThat(clear.text()).isEqualTo("925 ÷ 5 = 185");
    }

    @Test
    void opusBodyReportsThinkingTokens() {
        String path = "anthropic/vercel-opus-reasoning-high.json";
        Folded f = AnthropicRecordings.run(path).folded();
        assertThat(f.started.model()).isEqualTo("claude-opus-5");
        assertThat(f.parts.get(0).text()).startsWith("I need to find all roots of this cubic polynomial and verify them.")
                .endsWith("degree 3 polynomial has exactly 3 roots.").hasSize(352);
        assertSignatureAsOnTheWire(path, f.parts.get(0).seals.get(Seal.Kind.SIGNATURE), "CAISqwQKhwEIEBgCKkAc", 752);
        assertThat(f.text()).startsWith("## Step 1: Set up the problem").hasSize(2644);
        assertThat(f.usage).isEqualTo(new Usage(51L, 1699L, 139L, 0L, 0L));
    }

    @Test
    void sealsCarryTheWireBytesUnchanged() {
        for (String path : all()) {
            List<ChatEvent> events = AnthropicRecordings.run(path).folded().events;
            String text = Recorded.text(path);
            for (ChatEvent e : events) {
                if (e instanceof Seal s) {
                    // the signature or data appears verbatim, as a JSON string value, in the recording
                    assertThat(text).contains("\"" + s.value() + "\"");
                }
            }
        }
    }

    private static void assertSignatureAsOnTheWire(String path, String signature, String start, int length) {
        assertThat(signature).startsWith(start).hasSize(length);
        assertThat(Recorded.text(path)).containsAnyOf("\"signature\":\"" + signature + "\"",
                "\"signature\": \"" + signature + "\"");
    }

    private static void assertDataAsOnTheWire(String path, String data, String start, int length) {
        assertThat(data).startsWith(start).hasSize(length);
        assertThat(Recorded.text(path)).containsAnyOf("\"data\":\"" + data + "\"", "\"data\": \"" + data + "\"");
    }
}
