package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.NettyLeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakCheck.class)
class DemoCommandTest {

    @Test
    void theDemoRunsItsToolTurnsAThinkTagStreamAndAThreeStepToolLoopOnTheEmulators() {
        CliRun run = CliRun.of("demo", "--pace-ms", "0", "--no-color");

        assertThat(run.status()).as(run.err()).isZero();
        String out = run.out();
        assertThat(out).contains("thinking (reasoning_content)")
                .contains("→ tool call get_weather {\"city\":\"Paris\"}")
                .contains("usage: input 412 output 61 reasoning 38")
                .contains("reasoning check: unavailable")
                .contains("Yes — pack a small umbrella.")
                .contains("thinking (tags)")
                .contains("The Moon is about **384,400 km**")
                .endsWith("demo complete\n");
        // The second turn's request carries the first turn's reasoning back beside its tool call.
        String request = out.substring(out.indexOf("the request History built"));
        assertThat(request).contains("\"reasoning_content\" : \"The user is going to Paris tomorrow")
                .contains("\"tool_call_id\" : \"call_00_paris\"");
        // Reasoning is shown before the answer in each turn.
        assertThat(out.indexOf("Forecast: light rain")).isLessThan(out.indexOf("Yes — pack"));
        assertThat(out).doesNotContain("emulator-key-not-a-secret");
        // Responses: the encrypted reasoning item goes back, with its id, right before its function call.
        String responses = out.substring(out.indexOf("3. OpenAI Responses"), out.indexOf("4. Anthropic Messages"));
        String items = responses.substring(responses.indexOf("turn 2's input items as sent"));
        assertThat(items.indexOf("\"encrypted_content\" : \"gAAAAABpDemoEncryptedReasoningState=\""))
                .isPositive().isLessThan(items.indexOf("\"type\" : \"function_call\""));
        assertThat(items).contains("\"id\" : \"rs_demo_1\"").contains("\"type\" : \"function_call_output\"");
        // Anthropic: the signed thinking block goes back first, before the tool_use.
        String anthropic = out.substring(out.indexOf("4. Anthropic Messages"), out.indexOf("5. Claude on Amazon Bedrock"));
        assertThat(anthropic).contains("→ tool call get_weather {\"city\":\"Oslo\"}").contains("snow showers are expected");
        String anthropicSent = anthropic.substring(anthropic.indexOf("turn 2's assistant message as sent"));
        assertThat(anthropicSent.indexOf("\"signature\" : \"EuYBCkQYAiJALWRlbW8tc2lnbmF0dXJlLTE=\""))
                .isPositive().isLessThan(anthropicSent.indexOf("\"type\" : \"tool_use\""));
        // Bedrock: a signed request, and the signed reasoning block back before the toolUse in turn 2.
        String bedrock = out.substring(out.indexOf("Amazon Bedrock"));
        assertThat(bedrock).contains("thinking (reasoningContent)")
                .contains("→ tool call get_weather {\"city\":\"Lisbon\"}")
                .contains("signed with: AWS4-HMAC-SHA256 Credential=AKIDREPLAY/")
                .contains("Use SPF 30+.");
        String sentBack = bedrock.substring(bedrock.indexOf("turn 2's assistant message as sent"));
        assertThat(sentBack.indexOf("\"signature\" : \"EqQBCkYIBxABLWRlbW8tc2lnbmF0dXJl\""))
                .isPositive().isLessThan(sentBack.indexOf("\"toolUse\""));
        assertThat(out).doesNotContain("replay-secret-not-a-secret");
        // Gemini: the signature goes back on the function call part itself.
        String gemini = out.substring(out.indexOf("6. Google Gemini 3"), out.indexOf("7. Ollama native API"));
        String geminiSent = gemini.substring(gemini.indexOf("turn 2's model content as sent"));
        assertThat(geminiSent).contains("\"thoughtSignature\" : \"EpwICpkIAXLIMm4tZGVtby1zaWduYXR1cmU=\"")
                .doesNotContain("Checking Madrid's forecast");
        assertThat(geminiSent.indexOf("\"functionCall\"")).isPositive().isLessThan(geminiSent.indexOf("\"thoughtSignature\""));
        // Ollama sends thinking back beside the tool call; Mistral as a thinking chunk before the text.
        String ollama = out.substring(out.indexOf("7. Ollama native API"), out.indexOf("8. Mistral Magistral"));
        assertThat(ollama.substring(ollama.indexOf("turn 2's assistant message as sent")))
                .contains("\"thinking\" : \"Rome tomorrow: I should check the forecast with get_weather.\"");
        String mistral = out.substring(out.indexOf("8. Mistral Magistral"));
        String mistralSent = mistral.substring(mistral.indexOf("turn 2's assistant message as sent"));
        assertThat(mistralSent.indexOf("\"type\" : \"thinking\"")).isPositive().isLessThan(mistralSent.indexOf("\"text\" : \"17 × 3 = 51.\""));
        // The ToolLoop: three steps, each one's thinking shown before its calls, the calls' results, the stop.
        String loop = out.substring(out.indexOf("9. A ToolLoop"));
        assertThat(loop).containsSubsequence("step 1", "I need the current time there first.",
                "→ tool call clock {\"timezone\":\"Asia/Tokyo\"}", "← clock (",
                "\"local\":\"2026-11-25T18:30:00+09:00\"", "step 2", "two sums, both for the calculator.",
                "step 3", "06:15 Tokyo time", "You land at about 06:15", "loop stopped: final_answer after 3 steps");
        assertThat(loop).contains("= {\"expression\":\"18.5 + 11.75 - 24\",\"value\":\"6.25\"}")
                .contains("= {\"expression\":\"2 * 23 * 1.25\",\"value\":\"57.5\"}");
        // What went back in step 3: both earlier assistant turns with their signed thinking before their tool_use.
        String sent = loop.substring(loop.indexOf("step 3's request as sent"));
        assertThat(sent).containsSubsequence("\"signature\":\"EuYBCkQYAiJALWxvb3Atc2lnbmF0dXJlLTE=\"", "\"type\":\"tool_use\"",
                "\"tool_use_id\":\"toolu_clock\"", "\"signature\":\"EuYBCkQYAiJALWxvb3Atc2lnbmF0dXJlLTI=\"",
                "\"id\":\"toolu_hours\"", "\"id\":\"toolu_fee\"", "\"tool_use_id\":\"toolu_hours\"",
                "\"tool_use_id\":\"toolu_fee\"");
    }

    @Test
    void aBadPaceIsAUsageError() {
        assertThat(CliRun.of("demo", "--pace-ms", "abc").status()).isEqualTo(2);
        assertThat(CliRun.of("demo", "--pace-ms", "-5").err()).contains("--pace-ms must be a whole number");
    }

    @Test
    void modelOutputCannotDriveTheTerminal() {
        assertThat(LiveRenderer.printable("a\u001b]0;pwned\u0007b\u009bc\nd\te")).isEqualTo("a]0;pwnedbc\nd\te");
        String plain = "no controls here";
        assertThat(LiveRenderer.printable(plain)).isSameAs(plain);
    }
}
