package dev.ruminate.providers.responses;

import static dev.ruminate.providers.responses.Responses.assertReasoning;
import static dev.ruminate.providers.responses.Responses.assertText;
import static dev.ruminate.providers.testing.Folded.Kind.REASONING;
import static dev.ruminate.providers.testing.Folded.Kind.SERVER_TOOL;
import static dev.ruminate.providers.testing.Folded.Kind.TOOL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every non-streaming Responses recording (see PROVENANCE.md). A body is the provider's final view,
 * so each reasoning part comes as one delta and a matching {@code ReasoningFinal}.
 */
class ResponsesBodyFixturesTest {

    private static Folded decode(String path) {
        Folded f = Responses.body(path).folded();
        for (Folded.PartView p : f.parts) {
            assertThat(p.deltas).as("one delta per part with text").isLessThanOrEqualTo(1);
        }
        return f;
    }

    private static void assertSummaries(List<Folded.PartView> parts, String itemId, int... lengths) {
        assertThat(parts).hasSize(lengths.length);
        for (int i = 0; i < lengths.length; i++) {
            Folded.PartView p = parts.get(i);
            assertThat(Folded.codePoints(p.text())).isEqualTo(lengths[i]);
            assertThat(p.summary).isTrue();
            assertThat(p.sources).containsExactly("summary_text");
            assertThat(p.finalText).isEqualTo(p.text());
            assertThat(p.seals).containsEntry(Seal.Kind.ITEM_ID, itemId);
            if (i > 0) {
                assertThat(p.seals).doesNotContainKey(Seal.Kind.ENCRYPTED);
            }
        }
    }

    /** The body holds the blob exactly once, as the item's encrypted_content. */
    private static void assertEncrypted(String path, Folded.PartView p, String start, String end, int length) {
        String value = p.seals.get(Seal.Kind.ENCRYPTED);
        assertThat(value).startsWith(start).endsWith(end).hasSize(length);
        assertThat(Recorded.text(path)).contains("\"" + value + "\"");
    }

    private static void assertFinish(Folded f, FinishReason reason) {
        assertThat(f.completed).isNotNull();
        assertThat(f.completed.finishReason()).isEqualTo(reason);
        assertThat(f.completed.rawFinishReason()).isEqualTo("completed");
    }

    private static void assertVerdict(Folded f, ReasoningVerdict verdict) {
        assertThat(Responses.reduce(f.events).reasoningCheck().verdict()).isEqualTo(verdict);
    }

    @Test
    void gpt5FiveSummaryPartsThenAPlanCall() {
        String path = "openai-responses/pydantic-gpt5-reasoning-tool-calls.turn1.json";
        Folded f = decode(path);

        assertThat(f.started.model()).isEqualTo("gpt-5-2025-08-07");
        assertThat(f.started.responseId()).isEqualTo("resp_68c42d28772c819684459966ee2201ed0e8bc41441c948f6");
        assertThat(f.kinds()).isEqualTo("reasoning,reasoning,reasoning,reasoning,reasoning,tool");
        List<Folded.PartView> r = f.ofKind(REASONING);
        assertSummaries(r, "rs_68c42d29124881968e24c1ca8c1fc7860e8bc41441c948f6", 515, 558, 614, 591, 633);
        assertThat(r.get(0).text()).startsWith("**Creating a structured poem**\n\nI need to cra");
        assertThat(r.get(4).text()).endsWith("pdate_plan tool for that!");
        assertEncrypted(path, r.get(0), "gAAAAABoxC0_aDtr", "7Mq865810g==", 9572);
        Folded.PartView call = f.only(TOOL);
        assertThat(call.toolId).isEqualTo("call_gL7JE6GDeGGsFubqO2XGytyO");
        assertThat(call.toolName).isEqualTo("update_plan");
        assertThat(call.text()).startsWith("{\"plan\":\"Plan:\\n1) Determine required first-letter acrostics").hasSize(488);
        assertThat(call.seals).containsEntry(Seal.Kind.ITEM_ID, "fc_68c42d3e9e4881968b15fbb8253f58540e8bc41441c948f6");
        assertThat(f.usage).isEqualTo(new Usage(124L, 1926L, 1792L, 0L));
        assertFinish(f, FinishReason.TOOL_CALLS);
        assertVerdict(f, ReasoningVerdict.MATCHED);

        Folded turn2 = decode("openai-responses/pydantic-gpt5-reasoning-tool-calls.turn2.json");
        assertThat(turn2.kinds()).isEqualTo("text");
        assertText(turn2.text(), 499, "Softly old fountains illumine alleys\nDunes ov", "ices curl under starlight");
        assertThat(turn2.usage).isEqualTo(new Usage(2087L, 124L, 0L, 2048L));
        assertFinish(turn2, FinishReason.STOP);
        assertVerdict(turn2, ReasoningVerdict.UNAVAILABLE);
    }

    @Test
    void o3MiniBodiesWithSummariesAndEncryptedContent() {
        String path = "openai-responses/pydantic-o3-mini-responses-encrypted-reasoning.json";
        Folded f = decode(path);
        assertThat(f.kinds()).isEqualTo("reasoning,reasoning,text");
        assertSummaries(f.ofKind(REASONING), "rs_68c1fa166e9c81979ff56b16882744f1093f57e27128848a", 446, 631);
        assertThat(f.parts.get(0).text()).startsWith("**Emphasizing pedestrian safety**\n\nI want to ");
        assertEncrypted(path, f.parts.get(0), "gAAAAABowfofynE_", "HmcL8R9E5Po=", 440);
        assertText(f.text(), 1501, "I'm happy to help. When crossing the street, ", "afe opportunity to cross.");
        assertThat(f.usage).isEqualTo(new Usage(13L, 1915L, 1600L, 0L));
        assertFinish(f, FinishReason.STOP);
        assertVerdict(f, ReasoningVerdict.MATCHED);

        String path3 = "openai-responses/pydantic-o3-mini-responses-encrypted-reasoning-3.json";
        Folded f3 = decode(path3);
        assertThat(f3.kinds()).isEqualTo("reasoning,reasoning,reasoning,text");
        assertSummaries(f3.ofKind(REASONING), "rs_68bb645d50f48196a0c49fd603b87f4503498c8aa840cf12", 511, 524, 659);
        assertThat(f3.parts.get(2).text()).endsWith("l pedestrian safety laws.");
        assertEncrypted(path3, f3.parts.get(0), "gAAAAABou2RnAKfa", "ig77o-foVQs=", 440);
        assertText(f3.text(), 1310, "I’m not a certified traffic safety expert, bu", "ecific advice. Stay safe!");
        assertThat(f3.usage).isEqualTo(new Usage(13L, 1616L, 1344L, 0L));
        assertVerdict(f3, ReasoningVerdict.MATCHED);
    }

    @Test
    void gpt52SummaryAuto() {
        String path = "openai-responses/pydantic-reasoning-summary-auto.json";
        Folded f = decode(path);
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertReasoning(f.only(REASONING), true, 451, "**Generating factorial function**\n\nI need to ", "e final code to the user.");
        assertEncrypted(path, f.only(REASONING), "gAAAAABpQvTkJZft", "dces_zR5QA==", 1252);
        assertText(f.text(), 543, "```python\ndef factorial(n: int) -> int:\n", "(factorial(5))  # 120\n```");
        assertThat(f.usage).isEqualTo(new Usage(34L, 226L, 59L, 0L));
        assertFinish(f, FinishReason.STOP);
    }

    @Test
    void vercelAndAzureAnswerTurnsAfterTheToolLoop() {
        String path = "openai-responses/vercel-reasoning-summary-encrypted-tool-call.json";
        Folded f = decode(path);
        assertThat(f.started.model()).isEqualTo("gpt-5-mini-2025-08-07");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertReasoning(f.only(REASONING), true, 399, "**Reporting final result**\n\nThe tool returned", "ing. Let's finalize that!");
        assertThat(f.only(REASONING).seals).containsEntry(Seal.Kind.ITEM_ID, "rs_0f35ed53160b395301693cc95817ac8190b978637daea4987e");
        assertEncrypted(path, f.only(REASONING), "gAAAAABpPMlcH0HH", "1LtUqh2kCQ==", 1572);
        assertThat(f.text()).isEqualTo("12 + 7 = 19\n19 × 3 = 57\n57 × 10 = 570\n\nFinal result: 570");
        assertThat(f.usage).isEqualTo(new Usage(865L, 163L, 128L, 0L));
        assertFinish(f, FinishReason.STOP);

        String azure = "openai-responses/vercel-azure-reasoning-summary-encrypted-tool-call.json";
        Folded a = decode(azure);
        assertThat(a.started.provider()).isEqualTo("azure-responses");
        assertThat(a.started.model()).isEqualTo("gpt-5-mini");
        assertReasoning(a.only(REASONING), true, 399, "**Compiling final result**\n\nI need to present", " The final result is 570!");
        assertEncrypted(azure, a.only(REASONING), "gAAAAABpPLg7YtHo", "L7MDBTMRGQ==", 1380);
        assertThat(a.text()).isEqualTo("(12 + 7) = 19\n19 × 3 = 57\n57 × 10 = 570\n\nFinal result: 570");
        assertThat(a.usage).isEqualTo(new Usage(564L, 101L, 64L, 0L));
        assertVerdict(a, ReasoningVerdict.MATCHED);
    }

    @Test
    void programmaticToolCallingHasEncryptedOnlyReasoningAProgramBlockAndACall() {
        String path = "openai-responses/vercel-programmatic-tool-calling-encrypted-reasoning.json";
        Folded f = decode(path);
        assertThat(f.started.model()).isEqualTo("gpt-5.6-sol");
        assertThat(f.kinds()).isEqualTo("reasoning,server_tool,tool");
        Folded.PartView reasoning = f.only(REASONING);
        assertThat(reasoning.text()).isEmpty();
        assertThat(reasoning.seals).containsEntry(Seal.Kind.ITEM_ID, "rs_0742d30c1d273351016a6145f02f90819f8f697ae6397b30ca");
        assertEncrypted(path, reasoning, "gAAAAABqYUXyB9Uq", "UnNopSBjug==", 1316);
        Folded.PartView program = f.only(SERVER_TOOL);
        assertThat(program.blockType).isEqualTo("program");
        assertThat(program.toolId).isEqualTo("cm_0742d30c1d273351016a6145f1d2d0819faa3ecfc950fceec4");
        assertThat(Recorded.text(path)).contains(program.blockJson);
        assertThat(program.blockJson).contains("\"fingerprint\"").startsWith("{").endsWith("}");
        Folded.PartView call = f.only(TOOL);
        assertThat(call.toolId).isEqualTo("call_rj6LW6NEyodD5YVKeoexoLNz");
        assertThat(call.toolName).isEqualTo("getInventory");
        assertThat(call.text()).isEqualTo("{\"sku\":\"sku_123\"}");
        assertThat(call.toolIndex).isEqualTo(2);
        assertThat(f.usage).isEqualTo(new Usage(631L, 139L, 55L, 0L));
        assertFinish(f, FinishReason.TOOL_CALLS);
        assertVerdict(f, ReasoningVerdict.UNAVAILABLE);
    }

    @Test
    void deepSeekRawReasoningWithItsOwnEncryptedContent() {
        String path = "deepseek/pydantic-deepseek-responses-api-reasoning-replay.turn1.json";
        Folded f = decode(path);
        assertThat(f.started.provider()).isEqualTo("deepseek-responses");
        assertThat(f.kinds()).isEqualTo("reasoning,text");
        Folded.PartView reasoning = f.only(REASONING);
        assertReasoning(reasoning, false, 178, "The user requested reading \"a\" and viewing \"b", "e the exact reply \"done\".");
        assertThat(reasoning.seals).containsOnly(Map.entry(Seal.Kind.ITEM_ID, "84cf774d-60a1-4e20-85e3-4cf73ee18cd5"),
                Map.entry(Seal.Kind.ENCRYPTED, "806896f9-a0e7-497f-9645-51900b22342d-0"));
        assertThat(f.text()).isEqualTo("done");
        assertThat(f.usage).isEqualTo(new Usage(180L, 40L, 38L, 128L));
        assertFinish(f, FinishReason.STOP);
        assertVerdict(f, ReasoningVerdict.MATCHED);

        Folded turn2 = decode("deepseek/pydantic-deepseek-responses-api-reasoning-replay.turn2.json");
        assertReasoning(turn2.only(REASONING), false, 430, "We need to respond exactly \"done\" again? User", ". So I'll output \"again\".");
        assertThat(turn2.only(REASONING).seals).containsEntry(Seal.Kind.ENCRYPTED, "15473b38-ad91-4b6c-85e9-dd1c4a0e285a-0");
        assertThat(turn2.text()).isEqualTo("again");
        assertThat(turn2.usage).isEqualTo(new Usage(189L, 102L, 100L, 128L));
    }
}
