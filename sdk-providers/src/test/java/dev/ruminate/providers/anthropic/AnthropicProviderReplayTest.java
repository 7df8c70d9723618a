package dev.ruminate.providers.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SseSplitter;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * Every Anthropic recording served byte for byte over HTTP to {@link AnthropicProvider}: it reduces
 * to exactly what the codec gives for the same bytes, and the request carries Anthropic's headers.
 */
@ExtendWith(NettyLeakCheck.class)
class AnthropicProviderReplayTest {

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static List<String> streams() {
        return AnthropicRecordings.streams();
    }

    static List<String> bodies() {
        return AnthropicRecordings.bodies();
    }

    private static AnthropicEmulated.Reduced streamOverHttp(String path) {
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(path), "text/event-stream"));
        return AnthropicEmulated.reduce(AnthropicEmulated.provider(emulator).build().stream(AnthropicEmulated.REQUEST));
    }

    @Test
    void theRecordingsAreAllThere() {
        assertThat(streams()).hasSize(8);
        assertThat(bodies()).hasSize(15);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void recordedStreamReducesOverHttpAsTheCodecDecodesIt(String path) {
        AnthropicEmulated.Reduced http = streamOverHttp(path);

        assertThat(http.comparable()).isEqualTo(
                AnthropicEmulated.reduce(AnthropicRecordings.decode(path)).comparable());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void recordedBodyReducesOverHttpAsTheCodecDecodesIt(String path) {
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(path), "application/json"));

        AnthropicEmulated.Reduced http = AnthropicEmulated.reduce(
                AnthropicEmulated.provider(emulator).build().completeAsEvents(AnthropicEmulated.REQUEST));

        assertThat(http.comparable()).isEqualTo(
                AnthropicEmulated.reduce(AnthropicRecordings.decode(path)).comparable());
    }

    @Test
    void webSearchStreamOverHttpKeepsEveryPartInOrder() {
        AssistantMessage m = streamOverHttp("anthropic/pydantic-thinking-web-search-stream.sse").ok().message();

        assertThat(m.provider()).isEqualTo("anthropic");
        assertThat(m.model()).isEqualTo("claude-sonnet-4-20250514");
        assertThat(m.parts()).hasSize(17);
        assertThat(m.parts().get(0)).isInstanceOfSatisfying(ReasoningPart.class, r -> {
            assertThat(r.source()).isEqualTo("thinking");
            assertThat(r.seals().signature()).startsWith("Er8ECkYIBxgCKkDp29haxwUos3j9").hasSize(776);
        });
        assertThat(m.parts().get(1)).isInstanceOfSatisfying(ServerToolPart.class, s -> {
            assertThat(s.type()).isEqualTo("server_tool_use");
            assertThat(s.name()).isEqualTo("web_search");
            assertThat(s.json()).contains("\"input\":{\"query\": \"San Francisco weather today\"}");
        });
        assertThat(m.parts().get(2)).isInstanceOfSatisfying(ServerToolPart.class,
                s -> assertThat(s.type()).isEqualTo("web_search_tool_result"));
        assertThat(m.usage()).isEqualTo(new Usage(22397L, 637L, null, 0L, 0L));
    }

    @Test
    void interleavedThinkingOverHttpGivesExactlyTheCodecsEvents() {
        AnthropicScript script = AnthropicScript.create()
                .thinking("First, the weather.", "sig-a")
                .toolUse("toolu_a", "weather", "{\"city\":\"Oslo\"}")
                .thinking("Then the time.", "sig-b")
                .toolUse("toolu_b", "time", "{\"tz\":\"CET\"}")
                .stopReason("tool_use")
                .tokensOf(3);
        emulator.enqueue(script.toResponse().chunked(ChunkPlan.fixed(5)));

        AnthropicProvider provider = AnthropicEmulated.provider(emulator).interleavedThinking(true).build();
        List<ChatEvent> overHttp = Provenances.checkedEvents(
                provider.stream(AnthropicEmulated.REQUEST).collectList().block(AnthropicEmulated.TIMEOUT), provider.origin());
        List<ChatEvent> codec = Flux.fromIterable(SseSplitter.split(script.toSse()))
                .transform(AnthropicCodec.streamDecoder()).collectList().block();

        assertThat(overHttp).isEqualTo(codec);
        assertThat(overHttp).filteredOn(e -> e instanceof Seal || e instanceof PartEnded || e instanceof ToolCallDelta)
                .extracting(Object::toString).containsExactly(
                        "Seal[part=0, kind=SIGNATURE, value=sig-a]", "PartEnded[part=0]",
                        "ToolCallDelta[part=1, toolIndex=0, id=toolu_a, name=weather, argumentsDelta=]",
                        "ToolCallDelta[part=1, toolIndex=0, id=null, name=null, argumentsDelta={\"c]",
                        "ToolCallDelta[part=1, toolIndex=0, id=null, name=null, argumentsDelta=ity]",
                        "ToolCallDelta[part=1, toolIndex=0, id=null, name=null, argumentsDelta=\":\"]",
                        "ToolCallDelta[part=1, toolIndex=0, id=null, name=null, argumentsDelta=Osl]",
                        "ToolCallDelta[part=1, toolIndex=0, id=null, name=null, argumentsDelta=o\"}]",
                        "PartEnded[part=1]",
                        "Seal[part=2, kind=SIGNATURE, value=sig-b]", "PartEnded[part=2]",
                        "ToolCallDelta[part=3, toolIndex=1, id=toolu_b, name=time, argumentsDelta=]",
                        "ToolCallDelta[part=3, toolIndex=1, id=null, name=null, argumentsDelta={\"t]",
                        "ToolCallDelta[part=3, toolIndex=1, id=null, name=null, argumentsDelta=z\":]",
                        "ToolCallDelta[part=3, toolIndex=1, id=null, name=null, argumentsDelta=\"CE]",
                        "ToolCallDelta[part=3, toolIndex=1, id=null, name=null, argumentsDelta=T\"}]",
                        "PartEnded[part=3]");
    }

    @Test
    void toolUseBodyOverHttp() {
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes("anthropic/pydantic-thinking-tool-use.turn1.json"),
                "application/json"));

        AssistantMessage m = AnthropicEmulated.reduce(AnthropicEmulated.provider(emulator).build()
                .completeAsEvents(AnthropicEmulated.REQUEST)).ok().message();

        assertThat(m.toolCalls()).extracting(ToolCallPart::id, ToolCallPart::name, ToolCallPart::arguments,
                        ToolCallPart::argumentsValid)
                .containsExactly(tuple("toolu_01YGzqpRE16Vricda3Aqcejo",
                        "get_user_country", "{}", true));
    }

    @Test
    void requestCarriesAnthropicHeadersAndBody() {
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes("anthropic/vercel-clear-thinking-stream.sse"),
                "text/event-stream"));
        int before = emulator.requests().size();

        AnthropicEmulated.reduce(AnthropicEmulated.provider(emulator).interleavedThinking(true)
                .betas("context-management-2025-06-27").build().stream(AnthropicEmulated.REQUEST)).ok();

        RecordedRequest request = emulator.requests().get(before);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/v1/messages");
        assertThat(request.header("x-api-key")).isEqualTo(AnthropicEmulated.KEY);
        assertThat(request.header("authorization")).isNull();
        assertThat(request.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(request.header("anthropic-beta"))
                .isEqualTo("context-management-2025-06-27,interleaved-thinking-2025-05-14");
        assertThat(request.body()).isEqualTo("{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":8192,\"messages\":"
                + "[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"How many r's in strawberry?\"}]}],"
                + "\"stream\":true}");
    }

    @Test
    void withoutBetasNoBetaHeaderIsSent() {
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes("anthropic/vercel-clear-thinking.json"),
                "application/json"));
        int before = emulator.requests().size();

        AnthropicEmulated.reduce(AnthropicEmulated.provider(emulator).maxTokens(2048).build()
                .completeAsEvents(AnthropicEmulated.REQUEST)).ok();

        RecordedRequest request = emulator.requests().get(before);
        assertThat(request.header("anthropic-beta")).isNull();
        assertThat(request.body()).contains("\"max_tokens\":2048").doesNotContain("\"stream\"");
    }
}
