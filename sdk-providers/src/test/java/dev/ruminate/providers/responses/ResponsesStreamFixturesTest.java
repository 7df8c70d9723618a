package dev.ruminate.providers.responses;

import static dev.ruminate.providers.responses.Responses.assertBlockFromDone;
import static dev.ruminate.providers.responses.Responses.assertEncryptedFromDone;
import static dev.ruminate.providers.responses.Responses.assertReasoning;
import static dev.ruminate.providers.responses.Responses.assertText;
import static dev.ruminate.providers.testing.Folded.Kind.REASONING;
import static dev.ruminate.providers.testing.Folded.Kind.SERVER_TOOL;
import static dev.ruminate.providers.testing.Folded.Kind.TEXT;
import static dev.ruminate.providers.testing.Folded.Kind.TOOL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every streamed Responses recording (see PROVENANCE.md), decoded with its server's profile. The
 * expected values were read off the recordings: each reasoning part's text is the concatenation of
 * its deltas and equals the {@code .done} text, encrypted content is the {@code output_item.done}
 * blob, usage is that of {@code response.completed}.
 */
class ResponsesStreamFixturesTest {

    private static Folded decode(String path) {
        return Responses.stream(path).folded();
    }

    private static void assertStarted(Folded f, String provider, String model, String id) {
        assertThat(f.started).isNotNull();
        assertThat(f.started.provider()).isEqualTo(provider);
        assertThat(f.started.model()).isEqualTo(model);
        assertThat(f.started.responseId()).isEqualTo(id);
    }

    private static void assertFinish(Folded f, FinishReason reason) {
        assertThat(f.completed).isNotNull();
        assertThat(f.completed.finishReason()).isEqualTo(reason);
        assertThat(f.completed.rawFinishReason()).isEqualTo("completed");
    }

    private static void assertVerdict(Folded f, ReasoningVerdict verdict) {
        assertThat(Responses.reduce(f.events).reasoningCheck().verdict()).isEqualTo(verdict);
    }

    private static void assertTool(Folded.PartView p, int outputIndex, String callId, String name, String args,
                                   String itemId) {
        assertThat(p.kind).isEqualTo(TOOL);
        assertThat(p.toolIndex).isEqualTo(outputIndex);
        assertThat(p.toolId).isEqualTo(callId);
        assertThat(p.toolName).isEqualTo(name);
        assertThat(p.text()).isEqualTo(args);
        assertThat(p.seals).containsEntry(Seal.Kind.ITEM_ID, itemId);
    }

    @Test
    void o3MiniFourSummaryPartsBecomeFourReasoningPartsOfOneItem() {
        String path = "openai-responses/pydantic-o3-mini-reasoning-summary-stream.sse";
        Folded f = decode(path);

        assertStarted(f, "openai-responses", "o3-mini-2025-01-31", "resp_68c42d0fb418819dbfa579f69406b49508fbf9b1584184ff");
        assertThat(f.kinds()).isEqualTo("reasoning,reasoning,reasoning,reasoning,text");
        List<Folded.PartView> r = f.ofKind(REASONING);
        assertReasoning(r.get(0), true, 460, "**Providing street crossing instructions**\n\n", "fely crossing the street.");
        assertReasoning(r.get(1), true, 517, "**Explaining street crossing safety**\n\nI see ", "for safe street crossing.");
        assertReasoning(r.get(2), true, 540, "**Sharing street crossing safety tips**\n\nWhen", "nyone needing assistance.");
        assertReasoning(r.get(3), true, 505, "**Providing safe crossing advice**\n\nI’m going", "r and easy to understand!");
        String id = "rs_68c42d1d0878819d8266007cd3d1402c08fbf9b1584184ff";
        for (Folded.PartView p : r) {
            assertThat(p.seals).containsEntry(Seal.Kind.ITEM_ID, id);
            assertThat(p.deltas).isGreaterThan(1);
        }
        // the encrypted state goes on the item's first part only
        String encrypted = r.get(0).seals.get(Seal.Kind.ENCRYPTED);
        assertThat(encrypted).startsWith("gAAAAABoxC0m_QWp").endsWith("tWmQ30zeXDs=").hasSize(440);
        assertEncryptedFromDone(path, id, encrypted);
        assertThat(r.subList(1, 4)).allSatisfy(p -> assertThat(p.seals).doesNotContainKey(Seal.Kind.ENCRYPTED));
        assertText(f.text(), 1251, "I'm not a road safety professional, but here ", " to your area. Stay safe!");
        assertThat(f.usage).isEqualTo(new Usage(13L, 1680L, 1408L, 0L));
        assertFinish(f, FinishReason.STOP);
        assertVerdict(f, ReasoningVerdict.MATCHED);
    }

    @Test
    void gpt5CodeInterpreterCallsAreServerToolBlocksBetweenReasoningAndText() {
        String path = "openai-responses/pydantic-gpt5-reasoning-code-interpreter-stream.sse";
        Folded f = decode(path);

        assertStarted(f, "openai-responses", "gpt-5-2025-08-07", "resp_68c35098e6fc819e80fb94b25b7d031b0f2d670b80edc507");
        assertThat(f.kinds()).isEqualTo("reasoning,server_tool,server_tool,server_tool,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertReasoning(reasoning, true, 440, "**Calculating a large integer**\n\nI need to co", "o ahead and compute that!");
        String id = "rs_68c3509b2ee0819eba32735182d275ad0f2d670b80edc507";
        assertThat(reasoning.seals).containsEntry(Seal.Kind.ITEM_ID, id);
        String encrypted = reasoning.seals.get(Seal.Kind.ENCRYPTED);
        assertThat(encrypted).startsWith("gAAAAABow1CfwMTF").endsWith("sRqhPuqxVA==").hasSize(1764);
        assertEncryptedFromDone(path, id, encrypted);
        List<Folded.PartView> blocks = f.ofKind(SERVER_TOOL);
        assertBlockFromDone(path, blocks.get(0), "code_interpreter_call", "ci_68c3509faff0819e96f6d45e6faf78490f2d670b80edc507");
        assertBlockFromDone(path, blocks.get(1), "code_interpreter_call", "ci_68c350a41d2c819ebb23bdfb9ff322770f2d670b80edc507");
        assertBlockFromDone(path, blocks.get(2), "code_interpreter_call", "ci_68c350a5e1f8819eb082eccb870199ec0f2d670b80edc507");
        assertThat(blocks.get(0).blockJson).contains("\"container_id\":\"cntr_68c3509aa0348191ad0bfefe24878dbb0deaa35a4e39052");
        assertText(f.text(), 646, "123456^123 equals:\n18030210630404480750814092", "8331839817426366854332416");
        assertThat(f.usage).isEqualTo(new Usage(3727L, 347L, 128L, 3200L));
        assertFinish(f, FinishReason.STOP);
        assertVerdict(f, ReasoningVerdict.MATCHED);
    }

    @Test
    void mcpStreamHasListToolsAndCallBlocksAndTextlessEncryptedReasoning() {
        String path = "openai-responses/pydantic-reasoning-mcp-server-stream.sse";
        Folded f = decode(path);

        assertStarted(f, "openai-responses", "o4-mini-2025-04-16", "resp_00b9cc7a23d047270068faa0e25934819f9c3bfdec80065bc4");
        assertThat(f.kinds()).isEqualTo("server_tool,reasoning,server_tool,reasoning,text");
        assertBlockFromDone(path, f.parts.get(0), "mcp_list_tools", "mcpl_00b9cc7a23d047270068faa0e29804819fb060cec0408ffbcd");
        assertBlockFromDone(path, f.parts.get(2), "mcp_call", "mcp_00b9cc7a23d047270068faa0e67fb0819fa9e21302c398e9ac");
        assertThat(f.parts.get(2).toolName).isEqualTo("ask_question");
        assertThat(f.parts.get(2).blockJson).contains("\\\"repoName\\\":\\\"pydantic/pydantic-ai\\\"");
        // reasoning items without summary: the encrypted state alone opens an empty part
        Folded.PartView first = f.parts.get(1);
        assertThat(first.text()).isEmpty();
        assertThat(first.finalText).isNull();
        assertThat(first.seals).containsEntry(Seal.Kind.ITEM_ID, "rs_00b9cc7a23d047270068faa0e4cd5c819f8855c183ff0fe957");
        assertThat(first.seals.get(Seal.Kind.ENCRYPTED)).startsWith("gAAAAABo-qDma-ZM").endsWith("opxrWoEfQw==").hasSize(1828);
        assertEncryptedFromDone(path, "rs_00b9cc7a23d047270068faa0e4cd5c819f8855c183ff0fe957", first.seals.get(Seal.Kind.ENCRYPTED));
        Folded.PartView second = f.parts.get(3);
        assertThat(second.seals.get(Seal.Kind.ENCRYPTED)).startsWith("gAAAAABo-qD2WTMm").endsWith("F4ysK0lpmlF7").hasSize(1740);
        assertEncryptedFromDone(path, "rs_00b9cc7a23d047270068faa0f4ff54819f9fb9ff25bebe7f5f", second.seals.get(Seal.Kind.ENCRYPTED));
        assertText(f.text(), 687, "pydantic-ai is a Python “agent” framework tha", "for AI agent development.");
        assertThat(f.usage).isEqualTo(new Usage(1401L, 480L, 256L, 0L));
        assertFinish(f, FinishReason.STOP);
        assertVerdict(f, ReasoningVerdict.UNAVAILABLE);
    }

    @Test
    void webSearchStreamAlternatesIdOnlyReasoningItemsAndSearchCalls() {
        String path = "openai-responses/vercel-web-search-reasoning-items-stream.sse";
        Folded f = decode(path);

        assertStarted(f, "openai-responses", "gpt-5-mini-2025-08-07", "resp_0cc96ac817fdc57e00693337060a408198b92bf1f99cf1b8ec");
        assertThat(f.kinds()).isEqualTo("reasoning,server_tool,reasoning,server_tool,reasoning,server_tool,reasoning,"
                + "server_tool,reasoning,server_tool,reasoning,server_tool,reasoning,text");
        assertThat(f.ofKind(REASONING)).hasSize(7).allSatisfy(p -> {
            assertThat(p.text()).isEmpty();
            assertThat(p.seals).containsOnlyKeys(Seal.Kind.ITEM_ID);
            assertThat(p.seals.get(Seal.Kind.ITEM_ID)).startsWith("rs_0cc96ac817fdc57e00693337");
        });
        assertThat(f.parts.get(0).seals).containsEntry(Seal.Kind.ITEM_ID, "rs_0cc96ac817fdc57e0069333706f5748198ad6f9d56c74ba528");
        assertThat(f.parts.get(12).seals).containsEntry(Seal.Kind.ITEM_ID, "rs_0cc96ac817fdc57e006933373641e8819899b5ecb68564ac56");
        List<Folded.PartView> searches = f.ofKind(SERVER_TOOL);
        assertThat(searches).hasSize(6);
        assertBlockFromDone(path, searches.get(0), "web_search_call", "ws_0cc96ac817fdc57e006933370e71cc81989ece73cbdfe67d25");
        assertBlockFromDone(path, searches.get(5), "web_search_call", "ws_0cc96ac817fdc57e00693337335db881989d7938ef5e5dcd6b");
        // the done item carries the action the added item lacked
        assertThat(searches).allSatisfy(p -> assertThat(p.blockJson).contains("\"action\":"));
        assertText(f.text(), 3645, "I checked today’s tech headlines (today = Dec", "ull out more details now?");
        assertThat(f.usage.inputTokens()).isEqualTo(31073L);
        assertThat(f.usage.outputTokens()).isEqualTo(4416L);
        assertThat(f.usage.cachedTokens()).isEqualTo(3712L);
        assertFinish(f, FinishReason.STOP);
        assertVerdict(f, ReasoningVerdict.UNAVAILABLE);
    }

    @Test
    void localShellCallIsAServerToolBlockAfterAnIdOnlyReasoningItem() {
        String path = "openai-responses/vercel-local-shell-reasoning-item-stream.sse";
        Folded f = decode(path);

        assertThat(f.kinds()).isEqualTo("reasoning,server_tool");
        assertThat(f.parts.get(0).seals).containsOnly(
                java.util.Map.entry(Seal.Kind.ITEM_ID, "rs_68da7fd65a3481948bbb35ff2c79c6c20faf5df54b42d9a6"));
        assertBlockFromDone(path, f.parts.get(1), "local_shell_call", "lsh_68da7fd99b3c8194bd624b18c0c0851b0faf5df54b42d9a6");
        assertThat(f.parts.get(1).blockJson).contains("\"call_id\":\"call_h3nm8hUG0KO9tVNuRACkL1ri\"");
        assertThat(f.usage).isEqualTo(new Usage(407L, 151L, 128L, 0L));
        assertFinish(f, FinishReason.STOP);
    }

    @Test
    void copilotRotatesItemIdsOnEveryEventButPartsFollowTheOutputIndex() {
        String path = "openai-responses/vercel-github-copilot-reasoning-summary-id-rotation-stream.sse";
        Folded f = decode(path);

        assertStarted(f, "openai-responses", "gpt-5.3-codex", "capture-id-1");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertReasoning(reasoning, true, 34, "**Counting character occurrences**", "**");
        // the id of output_item.done wins over the id of added (capture-id-3) and of every delta
        assertThat(reasoning.seals).containsOnly(java.util.Map.entry(Seal.Kind.ITEM_ID, "capture-id-8"));
        assertText(f.text(), 138, "There are **3** letter **“r”**s in **“strawbe", "ositions **3, 8, and 9**.");
        assertThat(f.only(TEXT).deltas).isGreaterThan(10);
        assertThat(f.usage).isEqualTo(new Usage(19L, 105L, 44L, 0L));
        assertFinish(f, FinishReason.STOP);
        assertVerdict(f, ReasoningVerdict.MATCHED);
    }

    @Test
    void lmStudioRawReasoningTextThenTextThenACallWithArgumentsOnlyInDone() {
        String path = "openai-responses/vercel-lmstudio-reasoning-text-tool-call-stream.sse";
        Folded f = decode(path);

        assertStarted(f, "lmstudio-responses", "zai-org/glm-4.7-flash", "resp_cc7bfe18e2f2eca93006515c0fd19cfed16e46a93a60444a");
        assertThat(f.kinds()).isEqualTo("reasoning,text,tool");
        Folded.PartView reasoning = f.only(REASONING);
        assertReasoning(reasoning, false, 242, "The user is asking for the weather in San Fra", "o make the function call.");
        assertThat(reasoning.seals).containsOnly(java.util.Map.entry(Seal.Kind.ITEM_ID, "rs_3yo6zy4vu4hq6iegqwhn1"));
        assertText(f.text(), 67, "I'll get the current weather information for ", "or San Francisco for you.");
        assertTool(f.only(TOOL), 2, "call_2025306790300011", "weather", "{\"location\":\"San Francisco\"}",
                "fc_z9synwu0kvc33k6e9u3dq4");
        assertThat(f.usage).isEqualTo(new Usage(182L, 61L, 48L, 2L));
        assertFinish(f, FinishReason.TOOL_CALLS);
        assertVerdict(f, ReasoningVerdict.MATCHED);
    }

    @Test
    void deepSeekRawReasoningThenFunctionCallThenAnswerTurn() {
        String path = "deepseek/pydantic-deepseek-responses-api-function-tool-stream.turn1.sse";
        Folded f = decode(path);

        assertStarted(f, "deepseek-responses", "deepseek-v4-flash", "1235b7ba-fdc9-4a1c-bfe4-6137c207baf3");
        assertThat(f.kinds()).isEqualTo("reasoning,tool");
        Folded.PartView reasoning = f.only(REASONING);
        assertReasoning(reasoning, false, 61, "The user asks about temperature in Tokyo. I'l", "okyo. I'll call the tool.");
        assertThat(reasoning.seals).containsOnly(java.util.Map.entry(Seal.Kind.ITEM_ID, "fa6f3a83-5d25-46e8-9d03-1a89ce5cf2ba"));
        assertTool(f.only(TOOL), 1, "call_00_xjY8Z2BvSlzgEmmw0DtH0464", "get_temperature", "{\"city\": \"Tokyo\"}",
                "62bf2bb7-56af-4e3a-883b-83d4aad54da1");
        assertThat(f.usage).isEqualTo(new Usage(366L, 59L, 14L, 256L));
        assertFinish(f, FinishReason.TOOL_CALLS);
        assertVerdict(f, ReasoningVerdict.MATCHED);

        Folded turn2 = decode("deepseek/pydantic-deepseek-responses-api-function-tool-stream.turn2.sse");
        assertThat(turn2.kinds()).isEqualTo("text");
        assertText(turn2.text(), 47, "The current temperature in Tokyo is **21.0°C*", "e in Tokyo is **21.0°C**.");
        assertThat(turn2.usage).isEqualTo(new Usage(440L, 14L, 0L, 384L));
        assertFinish(turn2, FinishReason.STOP);
        assertVerdict(turn2, ReasoningVerdict.UNAVAILABLE);
    }

    @Test
    void xaiStoreFalseSummaryWithEncryptedContentOnlyInDone() {
        String path = "xai/vercel-xai-responses-reasoning-store-false-stream.sse";
        Folded f = decode(path);

        assertStarted(f, "xai-responses", "grok-code-fast-1", "0b824fe9-3250-2588-0bbf-0810402fc822");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertReasoning(reasoning, true, 754, "First, the question is: \"What is specifically", "ing sections for clarity.");
        assertThat(reasoning.seals).containsEntry(Seal.Kind.ITEM_ID, "rs_0b824fe9-3250-2588-0bbf-0810402fc822");
        String encrypted = reasoning.seals.get(Seal.Kind.ENCRYPTED);
        assertThat(encrypted).startsWith("WjtnRFdCMihgUoZ7").endsWith("rz+mjndXaAUM").hasSize(1731);
        assertEncryptedFromDone(path, "rs_0b824fe9-3250-2588-0bbf-0810402fc822", encrypted);
        assertText(f.text(), 2786, "### Overview of Sonoran Cuisine\nSonoran cuisi", "ntic, approachable meals.");
        assertThat(f.usage).isEqualTo(new Usage(216L, 831L, 253L, 192L));
        assertFinish(f, FinishReason.STOP);
        assertVerdict(f, ReasoningVerdict.MATCHED);
    }

    @Test
    void openAiEncryptedToolLoopCaptureHoldsFourResponses() {
        String path = "openai-responses/vercel-reasoning-summary-encrypted-tool-call-stream.sse";
        toolLoop(path, "openai-responses", "rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9",
                163, "**Calculating step-by-step using calculator**", "orting the final product.",
                "gAAAAABpPDIVOKrs", "Nxat0wz4uQ==", 1060,
                List.of("call_AB6AaRZ1FYZB2RwS6A5vbdqn", "call_Q6pW65MUgW9vF59BmItYGos3", "call_Zl5vIMnD7dVAjgU6FkhmiCZh"),
                List.of(134L, 221L, 260L, 299L));
    }

    @Test
    void azureEncryptedToolLoopCaptureHoldsFourResponses() {
        String path = "openai-responses/vercel-azure-reasoning-summary-encrypted-tool-call-stream.sse";
        toolLoop(path, "azure-responses", "rs_0ca3f598125653cf01693c1f22e2d08195b4275856d2c3bd9f",
                455, "**Calculating in steps**\n\nI need to carry out", "with the multiplications.",
                "gAAAAABpPB8lj5jD", "xBcNflrwsw==", 1188,
                List.of("call_UdvUeOElp5zdU0DKr6IoyhjE", "call_Qm7RkNSRinyfYLyTUPXLrgH5", "call_axaLIcwBQwyb49kT8613pJxW"),
                List.of(137L, 237L, 276L, 315L));
    }

    /**
     * A capture of a whole tool loop: reasoning + add(12, 7); multiply(19, 3); multiply(57, 10); the
     * answer. Decoded whole, the stream ends at the first {@code response.completed}; each response
     * decodes on its own.
     */
    private static void toolLoop(String path, String provider, String reasoningId, int length, String start, String end,
                                 String encStart, String encEnd, int encLength, List<String> callIds, List<Long> inputs) {
        Folded whole = decode(path);
        List<List<SseEvent>> turns = Responses.responses(Recorded.sse(path));
        assertThat(turns).hasSize(4);
        List<Folded> f = turns.stream().map(t -> Responses.stream(Responses.profileOf(path), t).folded()).toList();
        assertThat(whole.events).isEqualTo(f.get(0).events);

        assertThat(f.get(0).started.provider()).isEqualTo(provider);
        assertThat(f.get(0).kinds()).isEqualTo("reasoning,tool");
        Folded.PartView reasoning = f.get(0).only(REASONING);
        assertReasoning(reasoning, true, length, start, end);
        assertThat(reasoning.seals).containsEntry(Seal.Kind.ITEM_ID, reasoningId);
        String encrypted = reasoning.seals.get(Seal.Kind.ENCRYPTED);
        assertThat(encrypted).startsWith(encStart).endsWith(encEnd).hasSize(encLength);
        assertEncryptedFromDone(path, reasoningId, encrypted);
        Folded.PartView add = f.get(0).only(TOOL);
        assertThat(add.toolIndex).isEqualTo(1);
        assertThat(add.toolId).isEqualTo(callIds.get(0));
        assertThat(add.toolName).isEqualTo("calculator");
        assertThat(add.text()).isEqualTo("{\"a\":12,\"b\":7,\"op\":\"add\"}");
        assertThat(add.seals.get(Seal.Kind.ITEM_ID)).startsWith("fc_");
        assertFinish(f.get(0), FinishReason.TOOL_CALLS);
        assertVerdict(f.get(0), ReasoningVerdict.MATCHED);

        assertThat(f.get(1).kinds()).isEqualTo("tool");
        assertThat(f.get(1).only(TOOL).toolId).isEqualTo(callIds.get(1));
        assertThat(f.get(1).only(TOOL).text()).isEqualTo("{\"a\":19,\"b\":3,\"op\":\"multiply\"}");
        assertFinish(f.get(1), FinishReason.TOOL_CALLS);
        assertThat(f.get(2).only(TOOL).toolId).isEqualTo(callIds.get(2));
        assertThat(f.get(2).only(TOOL).text()).isEqualTo("{\"a\":57,\"b\":10,\"op\":\"multiply\"}");
        assertThat(f.get(3).kinds()).isEqualTo("text");
        assertThat(f.get(3).text()).isEqualTo("The final result is **570**.");
        assertFinish(f.get(3), FinishReason.STOP);
        for (int i = 0; i < 4; i++) {
            assertThat(f.get(i).usage.inputTokens()).isEqualTo(inputs.get(i));
        }
        assertThat(f.get(0).usage).isEqualTo(new Usage(inputs.get(0), 28L, 0L, 0L));
    }
}
