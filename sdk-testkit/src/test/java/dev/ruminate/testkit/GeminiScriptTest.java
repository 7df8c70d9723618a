package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Gemini script writes the API's stream and body shapes. */
class GeminiScriptTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static List<JsonNode> chunks(String sse) {
        List<JsonNode> out = new ArrayList<>();
        for (String event : sse.split("\r\n\r\n")) {
            assertThat(event).startsWith("data: ");
            out.add(JSON.readTree(event.substring(6)));
        }
        return out;
    }

    @Test
    void writesThoughtsTextAndASignedCallAsDataOnlyEventsWithTheFinishLast() {
        String sse = GeminiScript.create().model("gemini-3-pro-preview").tokensOf(5)
                .thought("Think hard")
                .text("Answer", "sig-text")
                .functionCall("f", "{\"a\":1}", "sig-call")
                .usage(10, 20, 30)
                .toSse();

        assertThat(sse).doesNotContain("event:").doesNotContain("[DONE]");
        List<JsonNode> chunks = chunks(sse);
        assertThat(chunks).hasSize(6);
        assertThat(chunks.get(0).at("/candidates/0/content/parts/0/thought").asBoolean()).isTrue();
        assertThat(chunks.get(0).at("/candidates/0/content/parts/0/text").asString()).isEqualTo("Think");
        assertThat(chunks.get(2).at("/candidates/0/content/parts/0/thoughtSignature").asString()).isEqualTo("sig-text");
        assertThat(chunks.get(3).at("/candidates/0/content/parts/0/thoughtSignature").isMissingNode()).isTrue();
        assertThat(chunks.get(4).at("/candidates/0/content/parts/0/functionCall/args/a").asInt()).isEqualTo(1);
        assertThat(chunks.get(4).at("/candidates/0/content/parts/0/thoughtSignature").asString()).isEqualTo("sig-call");
        JsonNode last = chunks.get(5);
        assertThat(last.at("/candidates/0/finishReason").asString()).isEqualTo("STOP");
        assertThat(last.at("/usageMetadata/totalTokenCount").asLong()).isEqualTo(60);
        assertThat(last.get("modelVersion").asString()).isEqualTo("gemini-3-pro-preview");
        assertThat(chunks.get(0).has("usageMetadata")).isFalse();
    }

    @Test
    void streamsVertexPartialArgumentsAndClosesTheCall() {
        List<JsonNode> chunks = chunks(GeminiScript.create().tokensOf(3)
                .streamedFunctionCall("getWeather", "location", "Boston", "sig").toSse());
        assertThat(chunks.get(0).at("/candidates/0/content/parts/0/functionCall/willContinue").asBoolean()).isTrue();
        assertThat(chunks.get(1).at("/candidates/0/content/parts/0/functionCall/partialArgs/0/stringValue").asString())
                .isEqualTo("Bos");
        assertThat(chunks.get(2).at("/candidates/0/content/parts/0/functionCall/partialArgs/0/jsonPath").asString())
                .isEqualTo("$.location");
        assertThat(chunks.get(3).at("/candidates/0/content/parts/0/functionCall").size()).isZero();
    }

    @Test
    void canBlockTheFailOrEndWithoutAFinishReason() {
        JsonNode blocked = chunks(GeminiScript.create().blocked("SAFETY").toSse()).get(0);
        assertThat(blocked.at("/promptFeedback/blockReason").asString()).isEqualTo("SAFETY");
        assertThat(blocked.has("candidates")).isFalse();

        List<JsonNode> failed = chunks(GeminiScript.create().text("x").errorAtEnd(429, "RESOURCE_EXHAUSTED", "slow").toSse());
        assertThat(failed.get(failed.size() - 1).at("/error/status").asString()).isEqualTo("RESOURCE_EXHAUSTED");

        List<JsonNode> cut = chunks(GeminiScript.create().text("x").finishReason(null).toSse());
        assertThat(cut).allSatisfy(c -> assertThat(c.at("/candidates/0/finishReason").isMissingNode()).isTrue());
    }

    @Test
    void theBodyHoldsEveryPartInOneCandidate() {
        JsonNode body = JSON.readTree(GeminiScript.create().tokensOf(100).thought("T").text("A", "s").toJson());
        assertThat(body.at("/candidates/0/content/parts").size()).isEqualTo(2);
        assertThat(body.at("/candidates/0/finishReason").asString()).isEqualTo("STOP");
    }

    @Test
    void theBodyHasOneWholePartPerStepWhateverTheDeltaSize() {
        JsonNode body = JSON.readTree(GeminiScript.create().tokensOf(2)
                .thought("Think hard").text("Answer", "s")
                .streamedFunctionCall("getWeather", "location", "Boston", "sig")
                .toJson());

        JsonNode parts = body.at("/candidates/0/content/parts");
        assertThat(parts.size()).isEqualTo(3);
        assertThat(parts.get(0).get("text").asString()).isEqualTo("Think hard");
        assertThat(parts.get(1).get("text").asString()).isEqualTo("Answer");
        assertThat(parts.get(2).at("/functionCall/name").asString()).isEqualTo("getWeather");
        assertThat(parts.get(2).at("/functionCall/args/location").asString()).isEqualTo("Boston");
        assertThat(parts.get(2).get("thoughtSignature").asString()).isEqualTo("sig");
    }
}
