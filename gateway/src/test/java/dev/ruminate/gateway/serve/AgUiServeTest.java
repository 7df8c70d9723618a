package dev.ruminate.gateway.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.NettyLeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /ag-ui} of {@code ruminate serve} on recorded upstream streams, through the real provider clients over
 * loopback: the events carry reasoning and text but none of the recording's opaque state, and a second run that
 * sends the conversation back (as an AG-UI client keeps it) makes the provider send that state upstream byte for byte.
 */
@ExtendWith(NettyLeakCheck.class)
class AgUiServeTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern SIGNATURE = Pattern.compile("\"(?:signature|thoughtSignature)\"\\s*:\\s*\"([^\"]+)\"");

    private static ServeMain.Serving start(String provider, Path recording) {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return ServeMain.start(List.of("--provider", provider, "--replay", recording.toString(), "--model", provider,
                "--port", "0", "--no-auth"), quiet, quiet);
    }

    private static List<String> signatures(Path recording) throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = SIGNATURE.matcher(Files.readString(recording));
        while (m.find()) {
            out.add(m.group(1));
        }
        assertThat(out).as("the recording holds opaque state").isNotEmpty();
        return out;
    }

    private static String agUi(ServeMain.Serving serving) {
        return serving.baseUrl().replaceFirst("/v1$", "") + "/ag-ui";
    }

    /** Posts a RunAgentInput and returns the status and the events (the data lines, parsed). */
    private static List<JsonNode> run(String url, ObjectNode input) {
        String body = HttpClient.create().headers(h -> h.set("Content-Type", "application/json"))
                .post().uri(url).send(ByteBufFlux.fromString(Flux.just(input.toString())))
                .responseSingle((res, b) -> {
                    assertThat(res.status().code()).isEqualTo(200);
                    assertThat(res.responseHeaders().get("Content-Type")).startsWith("text/event-stream");
                    return b.asString(StandardCharsets.UTF_8);
                })
                .block(Duration.ofSeconds(30));
        List<JsonNode> events = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            if (!frame.isBlank()) {
                assertThat(frame).startsWith("data: ");
                events.add(JSON.readTree(frame.substring("data: ".length())));
            }
        }
        return events;
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.path("type").asString()).toList();
    }

    private static String deltas(List<JsonNode> events, String type) {
        StringBuilder sb = new StringBuilder();
        events.stream().filter(e -> e.path("type").asString().equals(type)).forEach(e -> sb.append(e.path("delta").asString()));
        return sb.toString();
    }

    private static ObjectNode input(String threadId, ArrayNode messages) {
        ObjectNode input = JSON.createObjectNode();
        input.put("threadId", threadId);
        input.put("runId", UUID.randomUUID().toString());
        input.set("messages", messages);
        return input;
    }

    /**
     * The conversation as an AG-UI client keeps it after a run: a reasoning message per reasoning span (holding the
     * encrypted value it was given), then the assistant message with its text and tool calls.
     */
    private static void append(ArrayNode messages, List<JsonNode> events) {
        ObjectNode assistant = null;
        for (JsonNode e : events) {
            switch (e.path("type").asString()) {
                case "REASONING_MESSAGE_START" -> messages.addObject().put("id", e.path("messageId").asString())
                        .put("role", "reasoning").put("content", "");
                case "REASONING_MESSAGE_CONTENT" -> find(messages, e.path("messageId").asString())
                        .put("content", find(messages, e.path("messageId").asString()).path("content").asString()
                                + e.path("delta").asString());
                case "TEXT_MESSAGE_START" -> assistant = messages.addObject().put("id", e.path("messageId").asString())
                        .put("role", "assistant").put("content", "");
                case "TEXT_MESSAGE_CONTENT" -> assistant.put("content", assistant.path("content").asString()
                        + e.path("delta").asString());
                case "TOOL_CALL_START" -> {
                    if (assistant == null) {
                        assistant = messages.addObject().put("id", e.path("parentMessageId").asString()).put("role", "assistant");
                    }
                    ArrayNode calls = assistant.has("toolCalls") ? (ArrayNode) assistant.get("toolCalls") : assistant.putArray("toolCalls");
                    ObjectNode call = calls.addObject().put("id", e.path("toolCallId").asString()).put("type", "function");
                    call.putObject("function").put("name", e.path("toolCallName").asString()).put("arguments", "");
                }
                case "TOOL_CALL_ARGS" -> {
                    for (JsonNode c : assistant.path("toolCalls")) {
                        if (c.path("id").asString().equals(e.path("toolCallId").asString())) {
                            ObjectNode f = (ObjectNode) c.path("function");
                            f.put("arguments", f.path("arguments").asString() + e.path("delta").asString());
                        }
                    }
                }
                case "REASONING_ENCRYPTED_VALUE" -> {
                    if (e.path("subtype").asString().equals("message")) {
                        find(messages, e.path("entityId").asString()).put("encryptedValue", e.path("encryptedValue").asString());
                    } else {
                        for (JsonNode c : assistant.path("toolCalls")) {
                            if (c.path("id").asString().equals(e.path("entityId").asString())) {
                                ((ObjectNode) c).put("encryptedValue", e.path("encryptedValue").asString());
                            }
                        }
                    }
                }
                default -> {
                }
            }
        }
    }

    private static ObjectNode find(ArrayNode messages, String id) {
        for (JsonNode m : messages) {
            if (m.path("id").asString().equals(id)) {
                return (ObjectNode) m;
            }
        }
        throw new AssertionError("no message " + id);
    }

    private void roundTrip(String provider, Path recording, String toolResult) throws IOException {
        List<String> signatures = signatures(recording);
        try (ServeMain.Serving serving = start(provider, recording)) {
            String thread = UUID.randomUUID().toString();
            ArrayNode messages = JSON.createArrayNode();
            messages.addObject().put("id", UUID.randomUUID().toString()).put("role", "user").put("content", "Hello");
            List<JsonNode> first = run(agUi(serving), input(thread, messages));

            assertThat(types(first)).startsWith("RUN_STARTED").endsWith("RUN_FINISHED").doesNotContain("RUN_ERROR")
                    .contains("REASONING_ENCRYPTED_VALUE");
            assertThat(deltas(first, "REASONING_MESSAGE_CONTENT") + deltas(first, "TOOL_CALL_ARGS")).isNotEmpty();
            for (String signature : signatures) {
                assertThat(first.toString()).as("no event holds the recording's opaque state").doesNotContain(signature);
            }
            first.stream().filter(e -> e.path("type").asString().equals("REASONING_ENCRYPTED_VALUE"))
                    .forEach(e -> assertThat(e.path("encryptedValue").asString()).matches("ruminate-turn:[0-9a-f-]{36}:\\d+"));

            append(messages, first);
            JsonNode assistant = messages.get(messages.size() - 1);
            if (assistant.has("toolCalls")) {
                for (JsonNode call : assistant.path("toolCalls")) {
                    messages.addObject().put("id", UUID.randomUUID().toString()).put("role", "tool")
                            .put("toolCallId", call.path("id").asString()).put("content", toolResult);
                }
            } else {
                messages.addObject().put("id", UUID.randomUUID().toString()).put("role", "user").put("content", "More?");
            }
            int before = serving.emulators().get(0).requests().size();
            assertThat(types(run(agUi(serving), input(thread, messages)))).endsWith("RUN_FINISHED");
            String sent = serving.emulators().get(0).requests().get(before).body();
            for (String signature : signatures) {
                assertThat(sent).as("the opaque state goes back upstream byte for byte").contains(signature);
            }

            // the same conversation under another thread: its turns and handles resolve nowhere, so no state goes up
            int strangers = serving.emulators().get(0).requests().size();
            run(agUi(serving), input(UUID.randomUUID().toString(), messages));
            String foreign = serving.emulators().get(0).requests().get(strangers).body();
            for (String signature : signatures) {
                assertThat(foreign).doesNotContain(signature);
            }
        }
    }

    @Test
    void anthropicSignedThinkingStaysOnTheServerAndGoesBackUpstream() throws IOException {
        roundTrip("anthropic", Path.of("src/test/resources/fixtures/anthropic/pydantic-thinking-stream.sse"), "");
    }

    @Test
    void geminiThoughtSignatureOnAFrontendToolCallStaysOnTheServerAndGoesBackWithTheToolResult() throws IOException {
        roundTrip("gemini", Path.of("src/test/resources/fixtures/gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse"),
                "Mexico");
    }

    @Test
    void aBodyThatIsNotARunAgentInputIs400NamingThePlaceNotTheValue() {
        Path recording = Path.of("src/test/resources/fixtures/anthropic/pydantic-thinking-stream.sse");
        try (ServeMain.Serving serving = start("anthropic", recording)) {
            String body = "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[{\"id\":\"m\",\"role\":\"wizard\",\"content\":\"secret-value\"}]}";
            String[] answer = new String[2];
            HttpClient.create().headers(h -> h.set("Content-Type", "application/json"))
                    .post().uri(agUi(serving)).send(ByteBufFlux.fromString(Flux.just(body)))
                    .responseSingle((res, b) -> {
                        answer[0] = String.valueOf(res.status().code());
                        return b.asString(StandardCharsets.UTF_8);
                    })
                    .doOnNext(s -> answer[1] = s)
                    .block(Duration.ofSeconds(20));
            assertThat(answer[0]).isEqualTo("400");
            assertThat(answer[1]).contains("messages[0].role").doesNotContain("secret-value");
            assertThat(serving.emulators().get(0).requests()).isEmpty();
        }
    }
}
