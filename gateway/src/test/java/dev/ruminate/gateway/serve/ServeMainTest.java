package dev.ruminate.gateway.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.providers.OpaqueStateRecovery;
import dev.ruminate.spring.RuminateProperties;
import dev.ruminate.testkit.NettyLeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code ruminate serve}: the listening line, the built-in emulators, replaying a recording, recording upstream requests. */
@ExtendWith(NettyLeakCheck.class)
class ServeMainTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private record Started(ServeMain.Serving serving, String stdout) {
    }

    private static Started start(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ServeMain.Serving serving = ServeMain.start(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Started(serving, out.toString(StandardCharsets.UTF_8));
    }

    private static JsonNode ask(String baseUrl, String model) {
        return post(baseUrl, "{\"model\":\"" + model + "\",\"input\":\"Hello\"}");
    }

    private static JsonNode post(String baseUrl, String body) {
        String answer = HttpClient.create().headers(h -> h.set("Content-Type", "application/json"))
                .post().uri(baseUrl + "/responses").send(ByteBufFlux.fromString(Flux.just(body)))
                .responseSingle((res, b) -> b.asString(StandardCharsets.UTF_8)).block(Duration.ofSeconds(20));
        return JSON.readTree(answer);
    }

    @Test
    void theFirstLineSaysWhereItListensAndTheEmulatedRoutesAnswerWithReasoning() {
        Started started = start("--port", "0", "--no-auth");
        try (ServeMain.Serving serving = started.serving()) {
            assertThat(started.stdout()).matches("ruminate gateway listening on http://127\\.0\\.0\\.1:\\d+/v1\\R");
            assertThat(started.stdout().strip()).endsWith(serving.baseUrl());
            for (String model : List.of("deepseek-reasoner", "qwq-think-tags", "claude-thinking")) {
                JsonNode response = ask(serving.baseUrl(), model);
                assertThat(response.path("status").asString()).as(model).isEqualTo("completed");
                assertThat(response.path("output").findValuesAsString("type")).as(model).contains("reasoning", "message");
            }
        }
    }

    @Test
    void theEmulatedDeepSeekCallsTheToolOfferedOncePerLoop() {
        Started started = start("--port", "0", "--no-auth");
        try (ServeMain.Serving serving = started.serving()) {
            String tools = ",\"tools\":[{\"type\":\"function\",\"name\":\"lookup\",\"parameters\":{\"type\":\"object\"}}]";
            JsonNode call = post(serving.baseUrl(), "{\"model\":\"deepseek-reasoner\",\"input\":\"Look it up\"" + tools + "}");
            JsonNode fc = call.path("output").findParents("type").stream()
                    .filter(i -> "function_call".equals(i.path("type").asString())).findFirst().orElseThrow();
            assertThat(fc.path("name").asString()).isEqualTo("lookup");

            JsonNode answer = post(serving.baseUrl(), "{\"model\":\"deepseek-reasoner\",\"previous_response_id\":\""
                    + call.path("id").asString() + "\",\"input\":[{\"type\":\"function_call_output\",\"call_id\":\""
                    + fc.path("call_id").asString() + "\",\"output\":\"42\"}]" + tools + "}");
            assertThat(answer.path("output").findValuesAsString("type")).contains("message").doesNotContain("function_call");
        }
    }

    @Test
    void replaysARecordingAndWritesEachUpstreamRequest(@TempDir Path dir) throws IOException {
        Path recording = Path.of("src/test/resources/fixtures/anthropic/pydantic-thinking-stream.sse");
        Path requests = dir.resolve("upstream");
        Started started = start("--provider", "anthropic", "--replay", recording.toString(), "--model", "claude",
                "--port", "0", "--no-auth", "--upstream-requests", requests.toString());
        try (ServeMain.Serving serving = started.serving()) {
            JsonNode response = ask(serving.baseUrl(), "claude");
            assertThat(response.path("output").get(0).path("type").asString()).isEqualTo("reasoning");
            // one upstream connection per concurrent stream, far past Reactor Netty's default 500
            assertThat(serving.context().getBean(RuminateProperties.class).providers().get("upstream").connections())
                    .satisfies(c -> assertThat(c.max()).isEqualTo(ServeMain.UPSTREAM_CONNECTIONS));

            List<Path> files;
            try (Stream<Path> list = Files.list(requests)) {
                files = list.toList();
            }
            assertThat(files).singleElement().satisfies(f -> {
                assertThat(f.getFileName().toString()).isEqualTo("0001-upstream.json");
                String sent = Files.readString(f);
                assertThat(sent).isEqualTo(serving.emulators().get(0).requests().get(0).body());
                assertThat(sent).contains("\"model\":\"claude\"").doesNotContain("emulator");
            });
        }
    }

    @Test
    void thinkTagsSplitsAReplayedBackendsTagsIntoReasoning() {
        Path recording = Path.of("src/test/resources/fixtures/think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse");
        Started started = start("--provider", "chutes", "--replay", recording.toString(), "--think-tags",
                "--port", "0", "--no-auth");
        try (ServeMain.Serving serving = started.serving()) {
            JsonNode output = ask(serving.baseUrl(), "chutes").path("output");
            JsonNode reasoning = output.get(0);
            assertThat(reasoning.path("type").asString()).isEqualTo("reasoning");
            assertThat(reasoning.findValuesAsString("text")).first().asString().contains("Uruguayan alfajores").doesNotContain("<think>");
            JsonNode message = output.get(1);
            assertThat(message.path("type").asString()).isEqualTo("message");
            String answer = message.path("content").get(0).path("text").asString();
            assertThat(answer).isNotBlank().doesNotContain("<think>").doesNotContain("</think>");
        }
    }

    @Test
    void withoutThinkTagsAReplayedBackendsTagsStayInTheAnswer() {
        Path recording = Path.of("src/test/resources/fixtures/think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse");
        Started started = start("--provider", "chutes", "--replay", recording.toString(), "--port", "0", "--no-auth");
        try (ServeMain.Serving serving = started.serving()) {
            JsonNode output = ask(serving.baseUrl(), "chutes").path("output");
            assertThat(output.findValuesAsString("type")).doesNotContain("reasoning");
            assertThat(output.findValuesAsString("text")).anySatisfy(t -> assertThat(t).startsWith("<think>"));
        }
    }

    @Test
    void recoverOpaqueStateTurnsTheUpstreamProvidersRecoveryOnAndItIsOffWithout() {
        Path recording = Path.of("src/test/resources/fixtures/anthropic/pydantic-thinking-stream.sse");
        Started on = start("--provider", "anthropic", "--replay", recording.toString(), "--recover-opaque-state",
                "--port", "0", "--no-auth");
        try (ServeMain.Serving serving = on.serving()) {
            assertThat(serving.context().getBean(RuminateProperties.class).providers().get("upstream").opaqueStateRecovery())
                    .isEqualTo(OpaqueStateRecovery.STRIP_AND_RETRY_ONCE);
        }
        Started off = start("--provider", "anthropic", "--replay", recording.toString(), "--port", "0", "--no-auth");
        try (ServeMain.Serving serving = off.serving()) {
            assertThat(serving.context().getBean(RuminateProperties.class).providers().get("upstream").opaqueStateRecovery())
                    .isNull();
        }
    }

    @Test
    void refusesToServeWithoutKeysOnANonLoopbackAddress() {
        assertThatThrownBy(() -> start("--port", "0", "--no-auth", "--host", "0.0.0.0").serving().close())
                .hasStackTraceContaining("loopback");
    }

    @Test
    void badOptionsAreExplained() {
        assertThatThrownBy(() -> ServeOptions.parse(List.of("--port", "0"))).hasMessageContaining("--key-env");
        assertThatThrownBy(() -> ServeOptions.parse(List.of("--replay", "x.sse", "--no-auth"))).hasMessageContaining("--provider");
        assertThatThrownBy(() -> ServeOptions.parse(List.of("--colour"))).hasMessageContaining("unknown option");
        assertThatThrownBy(() -> ServeOptions.parse(List.of("--think-tags", "--no-auth"))).hasMessageContaining("--provider");
        assertThat(ServeOptions.parse(List.of("--provider", "chutes", "--think-tags", "--no-auth")).thinkTags()).isTrue();
        assertThat(ServeOptions.parse(List.of("--provider", "chutes", "--no-auth")).thinkTags()).isFalse();
        assertThatThrownBy(() -> ServeOptions.parse(List.of("--recover-opaque-state", "--no-auth")))
                .hasMessageContaining("--provider");
        assertThat(ServeOptions.parse(List.of("--provider", "anthropic", "--recover-opaque-state", "--no-auth"))
                .recoverOpaqueState()).isTrue();
        assertThat(ServeOptions.parse(List.of("--provider", "anthropic", "--no-auth")).recoverOpaqueState()).isFalse();
        assertThatThrownBy(() -> ServeMain.contentType("{\"id\":1}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("not a stream");
    }
}
