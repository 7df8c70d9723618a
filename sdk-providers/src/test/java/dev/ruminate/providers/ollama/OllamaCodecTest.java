package dev.ruminate.providers.ollama;

import static dev.ruminate.providers.testing.Folded.Kind.TOOL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningVerdict;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.OllamaScript;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/** The decoder on scripted chat and generate streams and bodies, faults included. */
class OllamaCodecTest {

    private static Recorded.Outcome decode(OllamaScript script) {
        return Recorded.run(Ollama.decode(script.toNdjson(), null));
    }

    private static Recorded.Outcome decode(String ndjson) {
        return Recorded.run(Ollama.decode(ndjson.getBytes(StandardCharsets.UTF_8), null));
    }

    @Test
    void chatStreamGivesEventsInOrder() {
        byte[] body = OllamaScript.create().model("gpt-oss:20b").thinking("Hmm.").content("Hi!").usage(5, 7)
                .tokensOf(10).toNdjson();

        StepVerifier.create(Ollama.decode(body, null))
                .expectNext(new ResponseStarted("ollama-native", "gpt-oss:20b", null))
                .expectNext(new ReasoningDelta(0, "Hmm.", false, "thinking"))
                .expectNext(new PartEnded(0))
                .expectNext(new ContentDelta(1, "Hi!"))
                .expectNext(new PartEnded(1))
                .expectNext(new UsageUpdate(new Usage(5L, 7L, null, null)))
                .expectNext(new ResponseCompleted(FinishReason.STOP, "stop"))
                .verifyComplete();
    }

    @Test
    void wholeToolCallsAreOnePartEachWithTheirArgumentsBytesAsSent() {
        String args = "{\"city\": \"Paris\",  \"days\":[1, 2.50], \"note\":\"caf\\u00e9 😀\"}";
        Folded f = decode(OllamaScript.create().thinking("I need the weather.")
                .toolCall("get_weather", args).toolCall("call_9", "get_time", "{}")).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,tool,tool");
        List<Folded.PartView> tools = f.ofKind(TOOL);
        assertThat(tools.get(0).toolName).isEqualTo("get_weather");
        assertThat(tools.get(0).toolId).isNull();
        assertThat(tools.get(0).toolIndex).isZero();
        assertThat(tools.get(0).text()).isEqualTo(args);
        assertThat(tools.get(0).deltas).isEqualTo(1);
        assertThat(tools.get(1).toolName).isEqualTo("get_time");
        assertThat(tools.get(1).toolId).isEqualTo("call_9");
        // both are index 0 on the wire, which counts within a line: calls are numbered in order
        assertThat(tools.get(1).toolIndex).isEqualTo(1);
        assertThat(tools.get(1).text()).isEqualTo("{}");
        assertThat(f.completed.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(f.completed.rawFinishReason()).isEqualTo("stop");
    }

    @Test
    void toolCallsWithoutAnIndexAreNumberedInOrderAndStringArgumentsAreTakenAsText() {
        String ndjson = """
                {"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"a","arguments":{"x":1}}},{"function":{"name":"b","arguments":"{\\"y\\":2}"}}]},"done":false}
                {"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}
                """;

        ChatResult result = Ollama.reduce(Ollama.decode(ndjson.getBytes(StandardCharsets.UTF_8), null)).ok();

        assertThat(result.message().toolCalls()).extracting(c -> c.name() + c.arguments())
                .containsExactly("a{\"x\":1}", "b{\"y\":2}");
        assertThat(result.message().toolCalls()).allSatisfy(c -> assertThat(c.argumentsValid()).isTrue());
        assertThat(result.message().finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
    }

    @Test
    void thinkingAfterTextOpensANewReasoningPart() {
        Folded f = decode(OllamaScript.create().thinking("a").content("b").thinking("c").content("d")).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text,reasoning,text");
        assertThat(f.reasoning()).isEqualTo("ac");
        assertThat(f.text()).isEqualTo("bd");
    }

    @Test
    void doneReasonsAreNormalized() {
        assertThat(decode(OllamaScript.create().content("x").doneReason("length")).folded().completed)
                .isEqualTo(new ResponseCompleted(FinishReason.LENGTH, "length"));
        assertThat(decode(OllamaScript.create().content("x").doneReason("load")).folded().completed)
                .isEqualTo(new ResponseCompleted(FinishReason.OTHER, "load"));
        assertThat(decode(OllamaScript.create().content("x").doneReason(null)).folded().completed)
                .isEqualTo(new ResponseCompleted(FinishReason.STOP, null));
    }

    @Test
    void aLineWithoutCountsGivesNoUsage() {
        Folded f = decode(OllamaScript.create().content("x")).folded();

        assertThat(f.usageUpdates).isZero();
        assertThat(f.usage).isEqualTo(Usage.UNKNOWN);
    }

    @Test
    void linesAfterDoneAreIgnored() {
        Folded f = decode(OllamaScript.create().content("x").toNdjsonText()
                + "{\"model\":\"m\",\"response\":\"late\",\"done\":false}\n").folded();

        assertThat(f.text()).isEqualTo("x");
    }

    @Test
    void aBodyWithoutTheDoneLineIsIncompleteAndKeepsItsPartialMessage() {
        Ollama.Reduced reduced = Ollama.reduce(Ollama.decode(OllamaScript.create().thinking("Let me see")
                .content("The answ").done(false).toNdjson(), null));

        assertThat(reduced.failed()).isInstanceOf(IncompleteStreamException.class)
                .hasMessageContaining("\"done\": true");
        assertThat(reduced.failed().partial()).isNotNull();
        assertThat(reduced.failed().partial().reasoning()).isEqualTo("Let me see");
        assertThat(reduced.failed().partial().text()).isEqualTo("The answ");
    }

    @Test
    void anEmptyBodyIsIncomplete() {
        assertThat(decode("").error()).isInstanceOf(IncompleteStreamException.class)
                .hasMessageContaining("before the response started");
    }

    @Test
    void anErrorLineEndsTheStreamWithItsMessage() {
        Recorded.Outcome outcome = decode(OllamaScript.create().content("Hel").error("model runner has unexpectedly stopped"));

        assertThat(outcome.error()).isInstanceOf(ProviderStreamException.class);
        ProviderStreamException error = (ProviderStreamException) outcome.error();
        assertThat(error.provider()).isEqualTo("ollama-native");
        assertThat(error.error().message()).isEqualTo("model runner has unexpectedly stopped");
        Folded partial = Folded.of(outcome.events());
        assertThat(partial.text()).isEqualTo("Hel");
        assertThat(partial.completed).isNull();
    }

    @Test
    void aMalformedLineFailsWithItsLineNumberAndOffset() {
        String ndjson = OllamaScript.create().content("abcd").content("efgh").malformedLineAt(1).toNdjsonText();
        long offset = ndjson.indexOf('\n') + 1;

        Recorded.Outcome outcome = decode(ndjson);

        assertThat(outcome.error()).isInstanceOf(ProtocolException.class);
        ProtocolException error = (ProtocolException) outcome.error();
        assertThat(error.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(error.line()).isEqualTo(2);
        assertThat(error.byteOffset()).isEqualTo(offset);
        assertThat(Folded.of(outcome.events()).text()).isEqualTo("abcd");
    }

    @Test
    void wrongShapesFailAsUnexpectedShape() {
        for (String line : List.of("[1,2]", "\"text\"", "{\"message\":\"hi\",\"done\":false}",
                "{\"message\":{\"tool_calls\":{}},\"done\":false}")) {
            Recorded.Outcome outcome = decode(line + "\n");
            assertThat(outcome.error()).as(line).isInstanceOf(ProtocolException.class);
            assertThat(((ProtocolException) outcome.error()).reason()).as(line)
                    .isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE);
        }
    }

    @Test
    void twoObjectsOnOneLineAreMalformed() {
        Recorded.Outcome outcome = decode("{\"response\":\"a\",\"done\":false} {\"response\":\"b\",\"done\":true}\n");

        assertThat(((ProtocolException) outcome.error()).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
    }

    @Test
    void unknownFieldsAndCrlfLineEndsAreTolerated() {
        String ndjson = "{\"model\":\"m\",\"created_at\":\"t\",\"message\":{\"role\":\"assistant\",\"content\":\"ok\","
                + "\"images\":null,\"extra\":{\"a\":[1]}},\"logprobs\":[{\"t\":1}],\"done\":false}\r\n"
                + "{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,"
                + "\"done_reason\":\"stop\",\"eval_count\":2}\r\n";

        Folded f = decode(ndjson).folded();

        assertThat(f.text()).isEqualTo("ok");
        assertThat(f.usage).isEqualTo(new Usage(null, 2L, null, null));
    }

    @Test
    void aChatBodyDecodesIntoTheSameMessageAsItsStreamWithAMatchedReasoningCheck() {
        OllamaScript script = OllamaScript.create().model("qwen3").thinking("Think it through.").content("Done.")
                .toolCall("call_1", "lookup", "{\"q\": 1}").usage(10, 20);

        Folded f = Recorded.run(OllamaCodec.decodeResponse("ollama-native", null,
                script.toJson().getBytes(StandardCharsets.UTF_8))).folded();
        ChatResult whole = Ollama.reduce(OllamaCodec.decodeResponse("ollama-native", null,
                script.toJson().getBytes(StandardCharsets.UTF_8))).ok();
        ChatResult streamed = Ollama.reduce(Ollama.decode(script.toNdjson(), null)).ok();

        assertThat(f.kinds()).isEqualTo("reasoning,text,tool");
        assertThat(f.events).filteredOn(ReasoningFinal.class::isInstance)
                .containsExactly(new ReasoningFinal(0, "Think it through."));
        assertThat(whole.reasoningCheck().verdict()).isEqualTo(ReasoningVerdict.MATCHED);
        assertThat(whole.message()).isEqualTo(streamed.message());
    }

    @Test
    void aGenerateBodyWithThinkTagsIsSplitWhenAsked() {
        byte[] body = OllamaScript.create().endpoint(OllamaScript.Endpoint.GENERATE)
                .content("<think>\nweigh it\n</think>\n\nYes.").toJson().getBytes(StandardCharsets.UTF_8);

        Folded f = Recorded.run(OllamaCodec.decodeResponse("ollama-native", dev.ruminate.core.think.ThinkTagOptions.DEFAULT,
                body)).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.reasoning()).isEqualTo("\nweigh it\n");
        assertThat(f.text()).isEqualTo("\n\nYes.");
    }

    @Test
    void anErrorBodyAndAMalformedBodyFailTyped() {
        assertThat(Recorded.run(OllamaCodec.decodeResponse("ollama-native", null,
                "{\"error\":\"model 'x' not found\"}".getBytes(StandardCharsets.UTF_8))).error())
                .isInstanceOf(ProviderStreamException.class).hasMessageContaining("model 'x' not found");
        assertThat(Recorded.run(OllamaCodec.decodeResponse("ollama-native", null,
                "{\"message\":".getBytes(StandardCharsets.UTF_8))).error())
                .isInstanceOf(ProtocolException.class).hasMessageContaining("malformed json");
    }

    @Test
    void theToolCallDeltaCarriesIdNameAndWholeArguments() {
        List<Object> calls = List.copyOf(decode(OllamaScript.create().toolCall("call_1", "f", "{\"a\":1}")).events()
                .stream().filter(ToolCallDelta.class::isInstance).toList());

        assertThat(calls).containsExactly(new ToolCallDelta(0, 0, "call_1", "f", "{\"a\":1}"));
    }
}
