package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Golden request bodies for images and documents, and the refusals each profile makes before encoding. */
class ChatCompletionsMediaTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10};
    private static final byte[] PDF = "%PDF-1.7 tiny".getBytes(StandardCharsets.US_ASCII);
    private static final String PNG_URL = "data:image/png;base64," + Base64.getEncoder().encodeToString(PNG);
    private static final String PDF_URL = "data:application/pdf;base64," + Base64.getEncoder().encodeToString(PDF);
    private static final String IMAGE_PART = "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + PNG_URL + "\"}}";

    private static String encode(CompatProfile profile, ChatRequest request) {
        return new String(ChatCompletionsCodec.encodeRequest(profile, request, false), StandardCharsets.UTF_8);
    }

    private static void refused(CompatProfile profile, ChatRequest request, Reason reason, String detail) {
        assertThatThrownBy(() -> encode(profile, request)).isInstanceOfSatisfying(UnsupportedInput.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.getMessage()).contains(detail).doesNotContain("base64").doesNotContain("example.com/");
        });
    }

    @Test
    void openAiGetsImagesByBytesAndUrlAndAPdfAsAFilePartBeforeTheText() {
        ChatRequest request = ChatRequest.builder("gpt-4.1")
                .user("What is in these?", Media.image(PNG, "image/png"), Media.imageUrl("https://example.com/cat.jpg", null),
                        Media.document(PDF, "application/pdf", "report.pdf"))
                .build();

        assertThat(encode(Profiles.OPENAI, request)).isEqualTo("{\"model\":\"gpt-4.1\",\"messages\":[{\"role\":\"user\",\"content\":["
                + IMAGE_PART + ","
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://example.com/cat.jpg\"}},"
                + "{\"type\":\"file\",\"file\":{\"filename\":\"report.pdf\",\"file_data\":\"" + PDF_URL + "\"}},"
                + "{\"type\":\"text\",\"text\":\"What is in these?\"}]}]}");
    }

    static Stream<Arguments> imageProfiles() {
        return Stream.of(Arguments.of(Profiles.MISTRAL), Arguments.of(Profiles.GROQ), Arguments.of(Profiles.GEMINI_OPENAI),
                Arguments.of(Profiles.OPENROUTER), Arguments.of(Profiles.AZURE), Arguments.of(Profiles.OLLAMA));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("imageProfiles")
    void everyVisionProfileTakesAnInlineImageTheSameWay(CompatProfile profile) {
        ChatRequest request = ChatRequest.builder("m").system("s").user("", Media.image(PNG, "image/png")).build();

        // media alone: no empty text part
        assertThat(encode(profile, request)).isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"s\"},"
                + "{\"role\":\"user\",\"content\":[" + IMAGE_PART + "]}]}");
    }

    @Test
    void openRouterTakesAPdfByUrlWithADefaultFileName() {
        ChatRequest request = ChatRequest.builder("anthropic/claude-sonnet-4.5")
                .user("Summarise", Media.documentUrl("https://example.com/paper.pdf", "application/pdf", null)).build();

        assertThat(encode(Profiles.OPENROUTER, request)).contains("{\"type\":\"file\",\"file\":{\"filename\":\"document-0.pdf\","
                + "\"file_data\":\"https://example.com/paper.pdf\"}},{\"type\":\"text\",\"text\":\"Summarise\"}");
    }

    @Test
    void textOnlyProfilesRefuseImages() {
        for (CompatProfile profile : List.of(Profiles.DEEPSEEK, Profiles.CEREBRAS, Profiles.MINIMAX)) {
            refused(profile, ChatRequest.builder("m").user("hi", Media.image(PNG, "image/png")).build(), Reason.KIND,
                    "message 0, media 0: the profile " + profile.name() + " takes no images");
        }
    }

    @Test
    void unsupportedTypesSourcesKindsAndSizesAreRefusedByPosition() {
        ChatRequest two = ChatRequest.builder("m").system("s").user("a").user("b", Media.image(PNG, "image/png"),
                Media.image(PNG, "image/heic")).build();
        refused(Profiles.OPENAI, two, Reason.MEDIA_TYPE, "message 2, media 1: image/heic images are not accepted");
        refused(Profiles.OPENAI, ChatRequest.builder("m").user("x", Media.documentUrl("https://example.com/a.pdf", null, null)).build(),
                Reason.SOURCE, "takes a document's bytes, not its URL");
        refused(Profiles.OPENAI, ChatRequest.builder("m").user("x", Media.document(PDF, "text/plain", null)).build(),
                Reason.MEDIA_TYPE, "text/plain documents");
        refused(Profiles.MISTRAL, ChatRequest.builder("m").user("x", Media.document(PDF, "application/pdf", "a.pdf")).build(),
                Reason.KIND, "takes no documents");
        refused(Profiles.GEMINI_OPENAI, ChatRequest.builder("m").user("x", Media.imageUrl("https://example.com/a.png", "image/png"))
                .build(), Reason.SOURCE, "only inline");
        refused(Profiles.OPENAI, ChatRequest.builder("m").user("x", Media.image(new byte[20 * 1024 * 1024 + 1], "image/png")).build(),
                Reason.TOO_LARGE, "over 20 MB");
        Media[] many = new Media[501];
        java.util.Arrays.fill(many, Media.image(PNG, "image/png"));
        refused(Profiles.OPENAI, ChatRequest.builder("m").user("x", many).build(), Reason.TOO_LARGE, "more than 500 images");
    }

    @Test
    void theRequestsMediaLimitCountsInlineBytesInTheBase64TheyAreSentIn() {
        Media nineteen = Media.image(new byte[19 * 1024 * 1024], "image/jpeg");

        // 38 MB of bytes are 50.7 MB of base64 data URLs in the body: over OpenAI's 50 MB, refused before sending
        refused(Profiles.OPENAI, ChatRequest.builder("m").user("x", nineteen, nineteen).build(), Reason.TOO_LARGE,
                "message 0, media 1: the media of the request are over 50 MB together");
        assertThat(encode(Profiles.OPENAI, ChatRequest.builder("m").user("x", nineteen).build())).contains("data:image/jpeg");
    }

    @Test
    void aToolResultWithMediaIsRefusedBecauseToolMessagesHoldTextOnly() {
        ChatRequest request = ChatRequest.builder("m").user("go")
                .message(new ToolResultMessage("c1", "shot", "done", false, List.of(Media.image(PNG, "image/png")))).build();

        refused(Profiles.OPENAI, request, Reason.KIND, "message 1, media 0: a tool result holds text only");
    }
}
