package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SendBack;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAI Responses wire additions of 2026 (PROTOCOLS.md §19, docs/wire-additions-2026.md):
 * {@code obfuscation} padding ignored, and the effort ladder {@code none…max} per profile. Compaction
 * items are proven by {@code ResponsesLaterTurnGoldensTest}.
 */
class ResponsesWireAdditionsTest {

    private static final String PHASE = "openai-responses/pydantic-gpt55-phase-encrypted-reasoning-function-call-stream.turn1.sse";

    /** The {@code data:} objects of a recording whose {@code type} ends in {@code .delta}. */
    private static List<JsonNode> deltas(String path) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Recorded.text(path).split("\n")) {
            if (line.startsWith("data:")) {
                JsonNode event = SendBack.tree(line.substring("data:".length()));
                if (event.get("type").stringValue().endsWith(".delta")) {
                    out.add(event);
                }
            }
        }
        return out;
    }

    private static String joined(List<JsonNode> deltas, String type) {
        StringBuilder out = new StringBuilder();
        deltas.stream().filter(d -> d.get("type").stringValue().equals(type)).forEach(d -> out.append(d.get("delta").stringValue()));
        return out.toString();
    }

    @Test
    void obfuscationOnEveryDeltaOfARecordedStreamIsIgnored() {
        List<JsonNode> deltas = deltas(PHASE);
        assertThat(deltas).hasSizeGreaterThanOrEqualTo(10).allSatisfy(d -> assertThat(d.get("obfuscation").stringValue()).isNotEmpty());
        String text = joined(deltas, "response.output_text.delta");
        String arguments = joined(deltas, "response.function_call_arguments.delta");
        assertThat(text).isNotEmpty();
        assertThat(arguments).isNotEmpty();

        Folded f = Responses.stream(PHASE).folded();

        // the answer and the call are exactly the deltas' own values: no padding leaks into either
        assertThat(f.text()).isEqualTo(text);
        assertThat(f.only(Folded.Kind.TOOL).text()).isEqualTo(arguments);
        for (JsonNode d : deltas) {
            String padding = d.get("obfuscation").stringValue();
            if (padding.length() >= 4) {
                assertThat(f.text()).doesNotContain(padding);
            }
        }
    }

    private static JsonNode reasoning(ResponsesProfile profile, ReasoningEffort effort) {
        ChatRequest request = ChatRequest.builder("gpt-5.5").user("Hi").reasoning(ReasoningOptions.effort(effort)).build();
        return SendBack.tree(new String(ResponsesCodec.encodeRequest(profile, request, false), java.nio.charset.StandardCharsets.UTF_8))
                .get("reasoning");
    }

    /** OpenAI's ladder as asked; servers that reason in the open top out at {@code xhigh}; DeepSeek gets none. */
    @ParameterizedTest
    @CsvSource({"NONE, none, none", "MINIMAL, minimal, minimal", "LOW, low, low", "MEDIUM, medium, medium",
            "HIGH, high, high", "XHIGH, xhigh, xhigh", "MAX, max, xhigh"})
    void effortLadderNoneToMaxPerProfile(ReasoningEffort effort, String openAi, String effortOnly) {
        for (ResponsesProfile p : List.of(ResponsesProfiles.OPENAI, ResponsesProfiles.AZURE, ResponsesProfiles.OPENROUTER)) {
            JsonNode r = reasoning(p, effort);
            assertThat(r.get("effort").stringValue()).as(p.name()).isEqualTo(openAi);
            // a summary is asked for whenever reasoning is on
            assertThat(r.has("summary")).as(p.name()).isEqualTo(effort != ReasoningEffort.NONE);
        }
        for (ResponsesProfile p : List.of(ResponsesProfiles.XAI, ResponsesProfiles.LMSTUDIO, ResponsesProfiles.VLLM,
                ResponsesProfiles.OLLAMA)) {
            assertThat(reasoning(p, effort).toString()).as(p.name()).isEqualTo("{\"effort\":\"" + effortOnly + "\"}");
        }
        assertThat(reasoning(ResponsesProfiles.DEEPSEEK, effort)).isNull();
    }

    @Test
    void theGatewaysReaderTakesEveryLevelOfTheLadder() {
        for (String wire : List.of("none", "minimal", "low", "medium", "high", "xhigh", "max")) {
            ResponsesCall call = ResponsesRequestReader.read("{\"model\":\"m\",\"input\":\"Hi\",\"reasoning\":{\"effort\":\""
                    + wire + "\"}}");
            ReasoningOptions asked = call.toChatRequest("upstream", List.of(new UserMessage("Hi"))).reasoning();
            assertThat(asked.effort()).as(wire).isEqualTo(ReasoningEffort.valueOf(wire.toUpperCase(java.util.Locale.ROOT)));
        }
    }
}
