package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.ResponsesScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random {@link ResponsesScript}s served over HTTP in random chunks: the provider reduces each to
 * exactly the scripted message (parts in order, seals from {@code output_item.done}, matched
 * reasoning), streamed or not; and the script's terminal variants end the call as the API says.
 */
@ExtendWith(NettyLeakCheck.class)
class ResponsesScriptedProperties {

    private static final String[] WORDS = {"the", "road", "😀", "naïve", "\"quoted\"", "line\nbreak", "∑", "ok", " "};
    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static LongStream seeds() {
        return Seeds.of(6);
    }

    private static String words(Random random) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(12);
        for (int i = 0; i < n; i++) {
            sb.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    private static ResponsesProvider provider() {
        return ResponsesProvider.builder(ResponsesProfiles.OPENAI).baseUrl(emulator.baseUrl() + "/v1").build();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomScriptsReduceToTheScriptedMessage(long seed) {
        Random random = Seeds.random(seed);
        // several scripts per seed: each test pays for a leak check
        for (int round = 0; round < 4; round++) {
            aRandomScriptReducesToTheScriptedMessage(random, seed * 10 + round);
        }
    }

    private static void aRandomScriptReducesToTheScriptedMessage(Random random, long seed) {
        ResponsesScript script = ResponsesScript.create().tokensOf(1 + random.nextInt(6))
                .argumentDeltas(random.nextBoolean()).reencrypt(random.nextBoolean());
        List<Part> expected = new ArrayList<>();
        boolean calls = false;
        int items = 1 + random.nextInt(5);
        for (int i = 0; i < items; i++) {
            switch (random.nextInt(4)) {
                case 0 -> {
                    String id = "rs_" + i;
                    String blob = "blob" + seed + "x" + i;
                    int n = random.nextInt(3);
                    String[] summaries = new String[n];
                    for (int s = 0; s < n; s++) {
                        summaries[s] = words(random);
                    }
                    script.reasoning(id, blob, summaries);
                    if (n == 0) {
                        expected.add(new ReasoningPart("", false, null, seals(id, blob)));
                    }
                    for (int s = 0; s < n; s++) {
                        expected.add(new ReasoningPart(summaries[s], true, "summary_text", s == 0 ? seals(id, blob) : seals(id, null)));
                    }
                }
                case 1 -> {
                    String text = words(random);
                    script.rawReasoning("rs_raw" + i, text);
                    expected.add(new ReasoningPart(text, false, "reasoning_text", seals("rs_raw" + i, null)));
                }
                case 2 -> {
                    String text = words(random);
                    script.text(text);
                    expected.add(new TextPart(text, dev.ruminate.core.message.Seals.NONE));
                }
                default -> {
                    String args = "{\"q\":\"" + words(random).replace("\\", "").replace("\"", "").replace("\n", " ") + "\"}";
                    script.functionCall("call_" + i, "fn" + i, args);
                    expected.add(new ToolCallPart("call_" + i, "fn" + i, args, true, seals("fc_" + i, null)));
                    calls = true;
                }
            }
        }
        script.usage(10, 20, 5, 2);
        boolean stream = random.nextBoolean();
        emulator.enqueue(stream ? script.toResponse().chunked(ChunkPlan.random(random.nextLong(), 8 + random.nextInt(120)))
                : script.toJsonResponse());

        ChatResult result = ResponsesProviderTest.reduce(stream ? provider().stream(ResponsesProviderTest.REQUEST)
                : provider().completeAsEvents(ResponsesProviderTest.REQUEST)).ok();

        AssistantMessage m = Provenances.checked(result).message();
        assertThat(m.parts()).as(script.toString()).isEqualTo(expected);
        assertThat(m.usage()).isEqualTo(new Usage(10L, 20L, 5L, 2L));
        assertThat(m.finishReason()).isEqualTo(calls ? FinishReason.TOOL_CALLS : FinishReason.STOP);
        boolean anyText = expected.stream().anyMatch(p -> p instanceof ReasoningPart r && !r.text().isEmpty());
        assertThat(result.reasoningCheck().verdict()).isEqualTo(anyText ? ReasoningVerdict.MATCHED : ReasoningVerdict.UNAVAILABLE);
    }

    private static dev.ruminate.core.message.Seals seals(String itemId, String encrypted) {
        dev.ruminate.core.message.Seals s = dev.ruminate.core.message.Seals.NONE.with(dev.ruminate.core.event.Seal.Kind.ITEM_ID, itemId);
        return encrypted == null ? s : s.with(dev.ruminate.core.event.Seal.Kind.ENCRYPTED, encrypted);
    }

    @Test
    void scriptedEndingsAreTyped() {
        emulator.enqueue(ResponsesScript.create().text("cut").noTerminal().toResponse());
        assertThat(ResponsesProviderTest.reduce(provider().stream(ResponsesProviderTest.REQUEST)).failed())
                .isInstanceOf(IncompleteStreamException.class)
                .satisfies(e -> assertThat(e.partial().text()).isEqualTo("cut"));

        emulator.enqueue(ResponsesScript.create().text("half").failed("server_error", "Boom").toResponse());
        assertThat(ResponsesProviderTest.reduce(provider().stream(ResponsesProviderTest.REQUEST)).failed())
                .isInstanceOf(ProviderStreamException.class)
                .satisfies(e -> assertThat(e.partial().text()).isEqualTo("half"));

        emulator.enqueue(ResponsesScript.create().text("long").incomplete("max_output_tokens").doneSentinel(true).toResponse());
        AssistantMessage m = ResponsesProviderTest.reduce(provider().stream(ResponsesProviderTest.REQUEST)).ok().message();
        assertThat(m.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(m.rawFinishReason()).isEqualTo("max_output_tokens");
    }
}
