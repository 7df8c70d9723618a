package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every Gemini recording decodes and reduces to what it holds, read off the files: thought
 * summaries, answer text, each thought signature byte-identical and on the part it came with,
 * function calls (whole, and assembled from Vertex AI's partial arguments), usage and finish.
 */
class GeminiFixturesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static List<ChatEvent> stream(String path, String provider) {
        return Flux.fromIterable(Recorded.sse(path)).transform(GeminiCodec.streamDecoder(provider)).collectList().block();
    }

    /**
     * Decodes a {@code streamGenerateContent} body read without {@code alt=sse} (one JSON array of
     * the chunks, as llm-gemini recorded it) by giving each chunk to the SSE decoder as one event:
     * the chunks are the same objects either way, only the framing differs.
     */
    static List<ChatEvent> jsonArrayStream(String path, String provider) {
        StringBuilder sse = new StringBuilder();
        for (JsonNode chunk : JSON.readTree(Recorded.bytes(path))) {
            sse.append("data: ").append(chunk).append("\n\n");
        }
        return Flux.fromIterable(SseSplitter.split(sse.toString())).transform(GeminiCodec.streamDecoder(provider))
                .collectList().block();
    }

    static ChatResult reduce(List<ChatEvent> events) {
        Folded.of(events);
        return ChatReducer.defaults().reduce(Flux.fromIterable(events)).block();
    }

    /** Every {@code thoughtSignature} of a recording, in wire order. */
    static List<String> signatures(String path) {
        List<String> out = new ArrayList<>();
        List<JsonNode> objects = new ArrayList<>();
        if (path.endsWith(".json")) {
            JsonNode body = JSON.readTree(Recorded.bytes(path));
            if (body.isArray()) {
                body.forEach(objects::add);
            } else {
                objects.add(body);
            }
        } else {
            for (String line : Recorded.text(path).split("\n")) {
                if (line.startsWith("data: ")) {
                    objects.add(JSON.readTree(line.substring(6)));
                }
            }
        }
        for (JsonNode o : objects) {
            for (JsonNode part : o.path("candidates").path(0).path("content").path("parts")) {
                if (part.has("thoughtSignature")) {
                    out.add(part.get("thoughtSignature").asString());
                }
            }
            if (o.path("delta").has("signature")) {
                out.add(o.path("delta").get("signature").asString());
            }
        }
        return out;
    }

    @Test
    void gemini3ToolCallStreamSignsTheCallItself() {
        String path = "gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse";
        List<ChatEvent> events = stream(path, "gemini");
        assertThat(Folded.of(events).kinds()).isEqualTo("tool");
        AssistantMessage m = reduce(events).message();
        ToolCallPart call = m.toolCalls().get(0);
        assertThat(call.name()).isEqualTo("get_country");
        assertThat(call.arguments()).isEqualTo("{}");
        assertThat(call.id()).isNull();
        assertThat(call.seals().signature()).isEqualTo(signatures(path).get(0)).hasSize(1408).startsWith("EpwICpkIAX");
        assertThat(m.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(m.rawFinishReason()).isEqualTo("STOP");
        assertThat(m.usage()).isEqualTo(new Usage(29L, 212L, 202L, null));
        assertThat(m.model()).isEqualTo("gemini-3-pro-preview");
    }

    @Test
    void theAnswerTurnAfterTheToolHasNoReasoning() {
        AssistantMessage m = reduce(stream("gemini/pydantic-gemini-tool-call-thought-signature.turn2.sse", "gemini")).message();
        assertThat(m.parts()).singleElement().isInstanceOf(TextPart.class);
        assertThat(m.text()).isEqualTo("The capital of Mexico is Mexico City.");
        assertThat(m.parts().get(0).seals().isEmpty()).isTrue();
        assertThat(m.usage()).isEqualTo(new Usage(257L, 8L, null, null));
        assertThat(m.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void aTrailingEmptyTextSignsTheAnswerItEnds() {
        for (String file : List.of("vercel-gemini-reasoning-thought-signature-stream.sse", "vercel-gemini3-reasoning-thought-signature-stream.sse")) {
            String path = "gemini/" + file;
            AssistantMessage m = reduce(stream(path, "gemini")).message();
            assertThat(m.parts()).as(file).singleElement().isInstanceOf(TextPart.class);
            assertThat(m.parts().get(0).seals().signature()).as(file).isEqualTo(signatures(path).get(0));
            assertThat(m.text()).startsWith("There are **3** \"r\"s in").contains("St**r**awbe**rr**y".substring(1));
        }
        assertThat(reduce(stream("gemini/vercel-gemini-reasoning-thought-signature-stream.sse", "gemini")).message().usage())
                .isEqualTo(new Usage(9L, 285L, 256L, null));
    }

    @Test
    void thoughtSummariesBodyKeepsTheSignatureOnTheAnswerText() {
        String path = "gemini/pydantic-gemini-thought-summaries-multiturn.turn1.json";
        List<ChatEvent> events = GeminiCodec.decodeResponse("gemini", Recorded.bytes(path)).collectList().block();
        assertThat(Folded.of(events).kinds()).isEqualTo("reasoning,text");
        ChatResult result = reduce(events);
        ReasoningPart thought = (ReasoningPart) result.message().parts().get(0);
        TextPart answer = (TextPart) result.message().parts().get(1);
        assertThat(thought.summary()).isTrue();
        assertThat(thought.source()).isEqualTo("thought");
        assertThat(thought.text()).hasSize(2238).startsWith("**A Safe Street-Crossing Guide: My Thought Process**");
        assertThat(thought.seals().isEmpty()).isTrue();
        assertThat(answer.text()).hasSize(3017).endsWith("ffic lights rather than looking for you.");
        assertThat(answer.seals().signature()).isEqualTo(signatures(path).get(0)).hasSize(5180);
        assertThat(result.message().usage()).isEqualTo(new Usage(29L, 1737L, 1001L, null));
        assertThat(result.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);

        AssistantMessage second = reduce(GeminiCodec.decodeResponse("gemini",
                Recorded.bytes("gemini/pydantic-gemini-thought-summaries-multiturn.turn2.json")).collectList().block()).message();
        assertThat(second.reasoning()).hasSize(2781).startsWith("**Navigating Nature's Road");
        assertThat(second.text()).hasSize(3850);
        assertThat(second.parts().get(1).seals().signature()).hasSize(5732).startsWith("EschCsQhAd");
    }

    @Test
    void aWholeFunctionCallBodyKeepsItsArgumentsAndSignature() {
        String path = "gemini/vercel-gemini3-tool-call-thought-signature.json";
        AssistantMessage m = reduce(GeminiCodec.decodeResponse("gemini", Recorded.bytes(path)).collectList().block()).message();
        ToolCallPart call = m.toolCalls().get(0);
        assertThat(call.name()).isEqualTo("weather");
        assertThat(JSON.readTree(call.arguments())).isEqualTo(JSON.readTree("{\"location\":\"San Francisco\"}"));
        assertThat(call.seals().signature()).isEqualTo(signatures(path).get(0)).hasSize(96);
        assertThat(m.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(m.usage()).isEqualTo(new Usage(29L, 1816L, 1801L, null));
    }

    @Test
    void vertexPartialArgumentsAssembleIntoOneCallEach() {
        String path = "gemini/vercel-vertex-partial-args-tool-call-stream.sse";
        AssistantMessage m = reduce(stream(path, "vertex")).message();
        assertThat(m.toolCalls()).extracting(ToolCallPart::name, ToolCallPart::arguments).containsExactly(
                org.assertj.core.groups.Tuple.tuple("getWeather", "{\"location\":\"Boston\"}"),
                org.assertj.core.groups.Tuple.tuple("getWeather", "{\"location\":\"San Francisco\"}"));
        assertThat(m.toolCalls().get(0).seals().signature()).isEqualTo(signatures(path).get(0)).hasSize(1032);
        assertThat(m.toolCalls().get(1).seals().isEmpty()).isTrue();
        assertThat(m.usage()).isEqualTo(new Usage(26L, 155L, 132L, null));
        assertThat(m.provider()).isEqualTo("vertex");
    }

    @Test
    void vertexThoughtThenWholeAndPartialCalls() {
        String path = "gemini/vercel-vertex-gemini3-thought-text-partial-args-tool-calls-stream.sse";
        List<ChatEvent> events = stream(path, "vertex");
        assertThat(Folded.of(events).kinds()).isEqualTo("reasoning,tool,tool,tool,tool");
        AssistantMessage m = reduce(events).message();
        assertThat(m.reasoning()).hasSize(320).startsWith("**Processing User Requests**");
        assertThat(m.toolCalls()).extracting(ToolCallPart::name)
                .containsExactly("read_theme", "read_screen", "read_screen", "read_screen");
        assertThat(m.toolCalls()).extracting(ToolCallPart::arguments)
                .containsExactly("{}", "{\"id\":\"A\"}", "{\"id\":\"B\"}", "{\"id\":\"C\"}");
        assertThat(m.toolCalls().get(0).seals().signature()).isEqualTo(signatures(path).get(0)).startsWith("AY89a18a8/");
        assertThat(m.toolCalls()).allSatisfy(c -> assertThat(c.argumentsValid()).isTrue());
        assertThat(m.usage()).isEqualTo(new Usage(249L, 241L, 183L, null));
    }

    @Test
    void interactionsThoughtSignatureThenAnswer() {
        String path = "gemini/vercel-gemini-interactions-thought-signature-stream.sse";
        List<ChatEvent> events = stream(path, "gemini");
        assertThat(Folded.of(events).kinds()).isEqualTo("reasoning,text");
        AssistantMessage m = reduce(events).message();
        ReasoningPart thought = (ReasoningPart) m.parts().get(0);
        assertThat(thought.text()).isEmpty();
        assertThat(thought.seals().signature()).isEqualTo(signatures(path).get(0)).hasSize(744);
        assertThat(m.text()).isEqualTo("I'm doing great, thank you for asking!\n\nHow are you doing today? And what can I do for you?");
        assertThat(m.model()).isEqualTo("gemini-2.5-flash");
        assertThat(m.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(m.usage()).isEqualTo(new Usage(7L, 141L, 115L, 0L));
    }

    @Test
    void interactionsFunctionCallStreamsItsArguments() {
        String path = "gemini/vercel-gemini-interactions-thought-tool-call-stream.sse";
        AssistantMessage m = reduce(stream(path, "gemini")).message();
        assertThat(((ReasoningPart) m.parts().get(0)).seals().signature()).isEqualTo(signatures(path).get(0)).hasSize(516);
        ToolCallPart call = m.toolCalls().get(0);
        assertThat(call.id()).isEqualTo("61nzpsv4");
        assertThat(call.name()).isEqualTo("getWeather");
        assertThat(call.arguments()).isEqualTo("{\"location\":\"San Francisco\"}");
        assertThat(m.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(m.rawFinishReason()).isEqualTo("requires_action");
        assertThat(m.usage()).isEqualTo(new Usage(53L, 80L, 65L, 0L));
    }

    @Test
    void everyGeminiRecordingIsCoveredAndReducesOverTheCodec() {
        List<String> all = Recorded.under("gemini");
        assertThat(all).hasSize(15);
        for (String path : all) {
            List<ChatEvent> events = path.contains("-json-array-stream") ? jsonArrayStream(path, "gemini")
                    : path.endsWith(".json") ? GeminiCodec.decodeResponse("gemini", Recorded.bytes(path)).collectList().block()
                    : stream(path, "gemini");
            ChatResult result = reduce(events);
            assertThat(result.message().parts()).as(path).isNotEmpty();
            assertThat(signatures(path)).as(path).allSatisfy(s -> assertThat(result.message().parts())
                    .anySatisfy(p -> assertThat(p.seals().signature()).isEqualTo(s)));
        }
    }
}
