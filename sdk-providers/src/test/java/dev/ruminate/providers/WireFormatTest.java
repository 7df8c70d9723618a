package dev.ruminate.providers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.providers.WireFormat.Framing;
import dev.ruminate.providers.testing.Recorded;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every recorded response body is told its framing and family by its content alone. */
class WireFormatTest {

    /** Every recorded response (the send-back folder holds requests). */
    static List<String> recordings() {
        return Recorded.under("").stream()
                .filter(p -> !p.startsWith("sendback/") && !p.endsWith(".md"))
                .toList();
    }

    /** The family a recording's folder and name say it is. */
    static ApiFamily expected(String path) {
        String folder = path.substring(0, path.indexOf('/'));
        // Bedrock's "mantle" recordings are its OpenAI-compatible Responses endpoint
        if (path.contains("-responses-") || path.startsWith("bedrock/") && path.endsWith(".sse")) {
            return ApiFamily.RESPONSES;
        }
        return switch (folder) {
            case "anthropic" -> ApiFamily.ANTHROPIC;
            case "bedrock" -> ApiFamily.BEDROCK;
            case "gemini" -> ApiFamily.GEMINI;
            case "ollama" -> ApiFamily.OLLAMA;
            case "openai-responses" -> ApiFamily.RESPONSES;
            case "think-tags" -> path.endsWith(".ndjson") ? ApiFamily.OLLAMA : ApiFamily.CHAT_COMPLETIONS;
            default -> ApiFamily.CHAT_COMPLETIONS;
        };
    }

    @Test
    void theRecordingsAreAllThere() {
        assertThat(recordings()).hasSizeGreaterThan(80).anyMatch(p -> p.endsWith(".eventstream"))
                .anyMatch(p -> p.endsWith(".ndjson")).anyMatch(p -> p.contains("json-array-stream"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void eachRecordingIsToldItsFamilyAndFraming(String path) {
        WireFormat format = WireFormat.recognise(Recorded.bytes(path));

        assertThat(format.family()).as("%s: %s", path, format).isEqualTo(expected(path));
        Framing framing = path.endsWith(".eventstream") ? Framing.EVENT_STREAM
                : path.endsWith(".ndjson") || path.endsWith(".jsonl") ? Framing.NDJSON
                : path.contains("json-array-stream") ? Framing.JSON_ARRAY
                : path.endsWith(".sse") ? Framing.SSE : Framing.JSON;
        assertThat(format.framing()).as("%s: %s", path, format).isEqualTo(framing);
    }

    @Test
    void theDescriptionNamesTheFamilyAndTheEvidence() {
        assertThat(WireFormat.recognise(utf8("event: message_start\ndata: {\"type\":\"message_start\"}\n\n")).describe())
                .isEqualTo("an SSE stream in the Anthropic Messages format (event: message_start)");
        assertThat(WireFormat.recognise(utf8("[{\n\"candidates\": []}\n,\r\n")).describe())
                .isEqualTo("a streamed JSON array in the Google Gemini format ({\"candidates\":…})");
        assertThat(WireFormat.recognise(utf8("data: {\"id\":\"x\",\"choices\":[]}\n\n")).family()).isEqualTo(ApiFamily.CHAT_COMPLETIONS);
        assertThat(WireFormat.recognise(utf8("data: {\"type\":\"response.created\",\"response\":{}}\n\n")).family())
                .isEqualTo(ApiFamily.RESPONSES);
    }

    @Test
    void nothingTellsAnErrorObjectGarbageOrAnEmptyBody() {
        for (String body : Stream.of("{\"error\":{\"message\":\"no\"}}", "hello", "", "data: [DONE]\n\n", "{not json").toList()) {
            assertThat(WireFormat.recognise(utf8(body)).family()).as(body).isNull();
        }
        assertThat(WireFormat.recognise(utf8("{\"error\":{\"message\":\"no\"}}")).describe()).contains("an error object");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
