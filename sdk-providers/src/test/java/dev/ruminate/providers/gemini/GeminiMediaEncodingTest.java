package dev.ruminate.providers.gemini;

import static dev.ruminate.providers.gemini.GeminiStructuredOutputTest.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden request bodies of Gemini images and documents (inline bytes, a file URI, an inline PDF),
 * and the refusals before anything is written: a URL without a media type, a type Gemini does not
 * read, inline data over the limit, media in a tool result.
 */
class GeminiMediaEncodingTest {

    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static final byte[] PDF = "%PDF-1.7\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void anInlineImageGoesBeforeTheTextAsInlineData() {
        ChatRequest request = ChatRequest.builder("gemini-2.5-flash").user("What is this?", Media.image(PNG, "image/png")).build();

        assertThat(body(request)).isEqualTo("{\"contents\":[{\"role\":\"user\",\"parts\":["
                + "{\"inlineData\":{\"mimeType\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}},{\"text\":\"What is this?\"}]}]}");
    }

    @Test
    void aFileUriGoesAsFileDataWithItsMediaType() {
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview").user("Summarise both.",
                Media.documentUrl("gs://bucket/report.pdf", "application/pdf", null),
                Media.imageUrl("https://generativelanguage.googleapis.com/v1beta/files/abc123", "image/jpeg")).build();

        assertThat(body(request)).isEqualTo("{\"contents\":[{\"role\":\"user\",\"parts\":["
                + "{\"fileData\":{\"mimeType\":\"application/pdf\",\"fileUri\":\"gs://bucket/report.pdf\"}},"
                + "{\"fileData\":{\"mimeType\":\"image/jpeg\",\"fileUri\":\"https://generativelanguage.googleapis.com/v1beta/files/abc123\"}},"
                + "{\"text\":\"Summarise both.\"}]}]}");
    }

    @Test
    void anInlinePdfGoesAsInlineDataAndMediaAloneNeedNoText() {
        ChatRequest request = ChatRequest.builder("gemini-2.5-pro").user("", Media.document(PDF, "application/pdf", "a.pdf")).build();

        assertThat(body(request)).isEqualTo("{\"contents\":[{\"role\":\"user\",\"parts\":["
                + "{\"inlineData\":{\"mimeType\":\"application/pdf\",\"data\":\"JVBERi0xLjcK\"}}]}]}");
    }

    private static UnsupportedInputAssert refused(ChatRequest request) {
        Throwable[] caught = new Throwable[1];
        assertThatThrownBy(() -> body(request)).isInstanceOf(UnsupportedInput.class)
                .satisfies(e -> caught[0] = e);
        return new UnsupportedInputAssert((UnsupportedInput) caught[0]);
    }

    record UnsupportedInputAssert(UnsupportedInput error) {
        UnsupportedInputAssert because(Reason reason, String... words) {
            assertThat(error.reason()).isEqualTo(reason);
            assertThat(error.getMessage()).contains(words);
            return this;
        }
    }

    @Test
    void aUrlWithoutAMediaTypeIsRefusedAsASourceNamingItsPlaceNeverTheUrl() {
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview").system("Be brief.")
                .user("Look", Media.image(PNG, "image/png"), Media.imageUrl("https://example.com/secret-token/cat", null)).build();

        UnsupportedInputAssert refusal = refused(request).because(Reason.SOURCE, "message 1, media 1", "media type");
        assertThat(refusal.error().getMessage()).doesNotContain("example.com").doesNotContain("secret-token");
    }

    @Test
    void typesGeminiDoesNotReadAreRefusedByMediaType() {
        refused(ChatRequest.builder("gemini-3-pro-preview").user("x", Media.image(PNG, "image/gif")).build())
                .because(Reason.MEDIA_TYPE, "message 0, media 0", "image/gif");
        refused(ChatRequest.builder("gemini-3-pro-preview").user("x",
                Media.document(PDF, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "a.docx")).build())
                .because(Reason.MEDIA_TYPE, "wordprocessingml");
        assertThat(body(ChatRequest.builder("gemini-3-pro-preview").user("x",
                Media.document("a,b\n".getBytes(StandardCharsets.UTF_8), "text/csv", null)).build()))
                .contains("\"mimeType\":\"text/csv\"");
        // a document given with an image type is an image on the wire, which has no kind
        assertThat(body(ChatRequest.builder("gemini-3-pro-preview").user("x", Media.document(PNG, "image/png", null)).build()))
                .contains("{\"inlineData\":{\"mimeType\":\"image/png\",");
    }

    @Test
    void inlineDataOverTwentyMebibytesBase64EncodedIsRefusedAsTooLarge() {
        // 15 MiB raw is exactly 20 MiB base64-encoded: the limit; one byte more is over it
        byte[] atLimit = new byte[15 * 1024 * 1024];
        byte[] one = new byte[3];
        ChatRequest fits = ChatRequest.builder("gemini-2.5-flash").user("x", Media.document(atLimit, "application/pdf", null)).build();
        ChatRequest over = ChatRequest.builder("gemini-2.5-flash").user("x", Media.document(atLimit, "application/pdf", null))
                .user("and", Media.image(one, "image/png")).build();

        assertThat(body(fits)).startsWith("{\"contents\":");
        refused(over).because(Reason.TOO_LARGE, "message 1, media 0", "Files API");
    }

    @Test
    void mediaInAToolResultAreRefusedAsAKind() {
        ChatRequest request = ChatRequest.builder("gemini-3-pro-preview").user("Screenshot?")
                .message(new ToolResultMessage("c1", "screenshot", "done", false, List.of(Media.image(PNG, "image/png")))).build();

        refused(request).because(Reason.KIND, "message 1, media 0", "tool result");
    }
}
