package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.TextPart;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A thought signature on a streamed answer lands where the whole body puts it: Gemini 2.5 signs the
 * first chunk of its answer and streams the rest unsigned, and its {@code generateContent} body has
 * that answer as one signed text part, so the stream must reduce to that one part too (it was
 * split into a signed first chunk and an unsigned rest). A second signature still opens a part of
 * its own, never overwriting the first.
 */
class GeminiSignedAnswerParityTest {

    private static final String SIGNATURE = "EqoeCqceAdHtim+cXhv3WM3Av2yBDu==";
    private static final String SECOND = "EschCsQhAdHtim8jB36dDPs8jpmXU4==";

    @Test
    void anAnswerSignedOnItsFirstChunkIsOneSignedPartAsInTheBody() {
        String stream = chunk("{\"text\":\"Crossing the street \",\"thoughtSignature\":\"" + SIGNATURE + "\"}", null)
                + chunk("{\"text\":\"safely is \"}", null)
                + chunk("{\"text\":\"easy.\"}", "STOP");
        String body = response("{\"text\":\"Crossing the street safely is easy.\",\"thoughtSignature\":\"" + SIGNATURE + "\"}", "STOP");

        AssistantMessage streamed = streamed(stream);

        assertThat(streamed.parts()).containsExactly(signedText("Crossing the street safely is easy.", SIGNATURE));
        assertThat(streamed).isEqualTo(whole(body));
    }

    @Test
    void aSecondSignatureOpensItsOwnPartAsInTheBody() {
        String stream = chunk("{\"text\":\"One \",\"thoughtSignature\":\"" + SIGNATURE + "\"}", null)
                + chunk("{\"text\":\"two.\"}", null)
                + chunk("{\"text\":\"\",\"thoughtSignature\":\"" + SECOND + "\"}", "STOP");
        String body = response("{\"text\":\"One two.\",\"thoughtSignature\":\"" + SIGNATURE + "\"},"
                + "{\"text\":\"\",\"thoughtSignature\":\"" + SECOND + "\"}", "STOP");

        AssistantMessage streamed = streamed(stream);

        assertThat(streamed.parts()).containsExactly(signedText("One two.", SIGNATURE), signedText("", SECOND));
        assertThat(streamed).isEqualTo(whole(body));
    }

    @Test
    void unsignedTextEndedByAnEmptySignedPartIsOneSignedPartAsGemini3StreamsIt() {
        String stream = chunk("{\"text\":\"There are 3 \"}", null)
                + chunk("{\"text\":\"r's.\"}", null)
                + chunk("{\"text\":\"\",\"thoughtSignature\":\"" + SIGNATURE + "\"}", "STOP");
        String body = response("{\"text\":\"There are 3 r's.\",\"thoughtSignature\":\"" + SIGNATURE + "\"}", "STOP");

        assertThat(streamed(stream).parts()).containsExactly(signedText("There are 3 r's.", SIGNATURE));
        assertThat(streamed(stream)).isEqualTo(whole(body));
    }

    private static Part signedText(String text, String signature) {
        return new TextPart(text, dev.ruminate.core.message.Seals.NONE.with(dev.ruminate.core.event.Seal.Kind.SIGNATURE, signature));
    }

    private static AssistantMessage streamed(String sse) {
        return GeminiEmulated.referenceOfBody(false, sse.getBytes(StandardCharsets.UTF_8)).ok().message();
    }

    private static AssistantMessage whole(String body) {
        return GeminiEmulated.reduce(GeminiCodec.decodeResponse("gemini", body.getBytes(StandardCharsets.UTF_8))).ok().message();
    }

    private static String chunk(String part, @Nullable String finishReason) {
        return "data: " + response(part, finishReason) + "\r\n\r\n";
    }

    private static String response(String parts, @Nullable String finishReason) {
        String finish = finishReason == null ? "" : ",\"finishReason\":\"" + finishReason + "\"";
        return "{\"candidates\":[{\"content\":{\"parts\":[" + parts + "],\"role\":\"model\"}" + finish + ",\"index\":0}],"
                + "\"usageMetadata\":{\"promptTokenCount\":5,\"candidatesTokenCount\":7,\"totalTokenCount\":12},"
                + "\"modelVersion\":\"gemini-2.5-flash\",\"responseId\":\"r1\"}";
    }
}
