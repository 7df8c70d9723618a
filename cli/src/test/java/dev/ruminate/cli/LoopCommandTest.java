package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakCheck.class)
class LoopCommandTest {

    /** A variable every test JVM has, standing in for the key variable (see ChatCommandTest). */
    private static final String KEY_VARIABLE = "PATH";

    private static void enqueueThreeSteps(ProviderEmulator emulator) {
        emulator.enqueue(ChatCompletionsScript.create().model("deepseek-v4")
                .reasoning("I need the current time in Paris first.")
                .toolCall("call_clock", "clock", "{\"timezone\":\"Europe/Paris\"}")
                .finish("tool_calls").usage(100, 20, 10).toResponse());
        emulator.enqueue(ChatCompletionsScript.create().model("deepseek-v4")
                .reasoning("Now the two computations, in parallel.")
                .toolCall("call_calc_1", "calculator", "{\"expression\":\"2*(3+4)^2\"}")
                .toolCall("call_calc_2", "calculator", "{\"expression\":\"1/(2-2)\"}")
                .finish("tool_calls").usage(200, 30, 15).toResponse());
        emulator.enqueue(ChatCompletionsScript.create().model("deepseek-v4")
                .reasoning("98, and the second divides by zero.")
                .content("2*(3+4)^2 = 98; 1/(2-2) is undefined.")
                .finish("stop").usage(300, 40, 5).toResponse());
    }

    @Test
    void runsAThreeStepLoopWithTheBuiltInToolsRenderingEachStep() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            enqueueThreeSteps(emulator);

            CliRun run = CliRun.of("loop", "--provider", "deepseek", "--model", "deepseek-v4",
                    "--base-url", emulator.baseUrl().toString(), "--api-key-env", KEY_VARIABLE, "--no-color",
                    "What", "time", "is", "it", "in", "Paris,", "and", "what", "is", "2*(3+4)^2", "and", "1/(2-2)?");

            assertThat(run.status()).as(run.err()).isZero();
            String out = run.out();
            assertThat(out).containsSubsequence(
                    "step 1", "thinking (reasoning_content)\nI need the current time in Paris first.",
                    "→ tool call clock {\"timezone\":\"Europe/Paris\"}", "← clock (", "\"timezone\":\"Europe/Paris\"",
                    "step 1 · finish tool_calls · usage: input 100 output 20 reasoning 10",
                    "step 2", "Now the two computations, in parallel.",
                    "step 2 · finish tool_calls",
                    "step 3", "98, and the second divides by zero.", "answer\n2*(3+4)^2 = 98; 1/(2-2) is undefined.",
                    "loop stopped: final_answer after 3 steps", "total usage: input 600 output 90 reasoning 30");
            String step2 = out.substring(out.indexOf("\nstep 2\n"), out.indexOf("\nstep 3\n"));
            assertThat(step2).contains("= {\"expression\":\"2*(3+4)^2\",\"value\":\"98\"}")
                    .contains("← calculator (").contains("error [handler_failed]: the tool calculator failed: division by zero");
            assertThat(out + run.err()).doesNotContain(System.getenv(KEY_VARIABLE));

            assertThat(emulator.requests()).hasSize(3);
            assertThat(emulator.requests().get(0).body()).contains("\"name\":\"clock\"", "\"name\":\"calculator\"",
                    "What time is it in Paris");
            // the third request carries both earlier steps back: their reasoning, calls and results in call order
            String third = emulator.requests().get(2).body();
            assertThat(third).containsSubsequence("I need the current time in Paris first.", "\"tool_call_id\":\"call_clock\"",
                    "Now the two computations", "\"tool_call_id\":\"call_calc_1\"", "98",
                    "\"tool_call_id\":\"call_calc_2\"", "division by zero");
        }
    }

    @Test
    void theStepLimitStopsTheLoopAndSaysSo() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            enqueueThreeSteps(emulator);

            CliRun run = CliRun.of("loop", "--provider", "deepseek", "--model", "deepseek-v4", "--max-steps", "2",
                    "--base-url", emulator.baseUrl().toString(), "--api-key-env", KEY_VARIABLE, "--no-color", "go");

            assertThat(run.status()).as(run.err()).isZero();
            assertThat(run.out()).contains("loop stopped: step_limit after 2 steps").doesNotContain("step 3");
            assertThat(emulator.requests()).hasSize(2);
        }
    }

    @Test
    void aProviderErrorExitsThreeWithATypedMessage() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(EmulatorResponse.httpError(401,
                    "{\"error\":{\"message\":\"Authentication Fails, Your api key is invalid\",\"type\":\"authentication_error\"}}"));

            CliRun run = CliRun.of("loop", "--provider", "deepseek", "--model", "m", "--base-url", emulator.baseUrl().toString(),
                    "--api-key-env", KEY_VARIABLE, "--no-color", "hi");

            assertThat(run.status()).isEqualTo(3);
            assertThat(run.err()).contains("loop failed (authentication_failed)");
        }
    }

    @Test
    void badArgumentsAreUsageErrorsAndHelpPrintsTheUsage() {
        assertThat(CliRun.of("loop", "--provider", "deepseek", "--model", "m", "--max-steps", "0", "hi").err())
                .contains("--max-steps must be a whole number >= 1");
        assertThat(CliRun.of("loop", "--provider", "deepseek", "--model", "m").status()).isEqualTo(2);
        CliRun help = CliRun.of("loop", "--help");
        assertThat(help.status()).isZero();
        assertThat(help.out()).contains("loop --provider NAME --model MODEL [--max-steps N]");
    }
}
