package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.spi.UnsupportedInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import tools.jackson.databind.ObjectMapper;

/**
 * Images and documents on the Responses API: golden input items for each source, and every refusal
 * (kind, media type, source, size) made with a message that names the place, never the bytes or URL.
 */
class ResponsesMediaTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3};
    private static final String PNG64 = Base64.getEncoder().encodeToString(PNG);
    private static final byte[] PDF = "%PDF-1.7 tiny".getBytes(StandardCharsets.US_ASCII);
    private static final String PDF64 = Base64.getEncoder().encodeToString(PDF);

    private static String input(ResponsesProfile profile, ChatRequest request) {
        byte[] body = ResponsesCodec.encodeRequest(profile, request, false);
        return "\"input\":" + new ObjectMapper().readTree(body).get("input");
    }

    @Test
    void imageBytesGoAsADataUrlBeforeTheText() {
        ChatRequest request = ChatRequest.builder("gpt-5.1").user("What is this?", Media.image(PNG, "image/png")).build();

        assertThat(input(ResponsesProfiles.OPENAI, request)).isEqualTo("\"input\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64," + PNG64 + "\",\"detail\":\"auto\"},"
                + "{\"type\":\"input_text\",\"text\":\"What is this?\"}]}]");
    }

    @Test
    void anImageUrlGoesAsItIs() {
        ChatRequest request = ChatRequest.builder("gpt-5.1")
                .user("Describe", Media.imageUrl("https://example.com/cat.jpg", null)).build();

        assertThat(input(ResponsesProfiles.OPENAI, request)).isEqualTo("\"input\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_image\",\"image_url\":\"https://example.com/cat.jpg\",\"detail\":\"auto\"},"
                + "{\"type\":\"input_text\",\"text\":\"Describe\"}]}]");
    }

    @Test
    void pdfBytesGoAsFileDataWithAFileName() {
        ChatRequest request = ChatRequest.builder("gpt-5.1")
                .user("Summarise", Media.document(PDF, "application/pdf", "report.pdf"),
                        Media.document(PDF, "application/pdf", null)).build();

        assertThat(input(ResponsesProfiles.OPENAI, request)).isEqualTo("\"input\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_file\",\"filename\":\"report.pdf\",\"file_data\":\"data:application/pdf;base64,"
                + PDF64 + "\"},"
                + "{\"type\":\"input_file\",\"filename\":\"document-0-1.pdf\",\"file_data\":\"data:application/pdf;base64,"
                + PDF64 + "\"},"
                + "{\"type\":\"input_text\",\"text\":\"Summarise\"}]}]");
    }

    @Test
    void aFileUrlGoesAsFileUrlAndMediaAloneHaveNoText() {
        ChatRequest request = ChatRequest.builder("gpt-5.1")
                .user("", Media.documentUrl("https://example.com/a.pdf", "application/pdf", "a.pdf")).build();

        assertThat(input(ResponsesProfiles.AZURE, request)).isEqualTo("\"input\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_file\",\"file_url\":\"https://example.com/a.pdf\"}]}]");
    }

    @Test
    void aToolResultWithAnImageHasAnOutputArray() {
        AssistantMessage call = new AssistantMessage(List.of(new ToolCallPart("call_1", "screenshot", "{}", true,
                Seals.NONE)), "openai-responses", "gpt-5.1", FinishReason.TOOL_CALLS, "completed", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("gpt-5.1").user("Look").message(call)
                .message(new ToolResultMessage("call_1", "screenshot", "the screen", false,
                        List.of(Media.image(PNG, "image/png"))))
                .message(new ToolResultMessage("call_2", "other", "plain", false)).build();

        assertThat(input(ResponsesProfiles.OPENAI, request)).isEqualTo("\"input\":["
                + "{\"role\":\"user\",\"content\":\"Look\"},"
                + "{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"screenshot\",\"arguments\":\"{}\"},"
                + "{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":["
                + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64," + PNG64 + "\",\"detail\":\"auto\"},"
                + "{\"type\":\"input_text\",\"text\":\"the screen\"}]},"
                + "{\"type\":\"function_call_output\",\"call_id\":\"call_2\",\"output\":\"plain\"}]");
    }

    private static void refused(ResponsesProfile profile, ChatRequest request, Reason reason, String message) {
        ThrowingCallable encode = () -> ResponsesCodec.encodeRequest(profile, request, true);
        assertThatThrownBy(encode).isInstanceOf(UnsupportedInput.class).hasMessage(message)
                .satisfies(e -> assertThat(((UnsupportedInput) e).reason()).isEqualTo(reason))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("example.com", PNG64));
    }

    @Test
    void anImageTypeOpenAiDoesNotReadIsRefused() {
        refused(ResponsesProfiles.OPENAI, ChatRequest.builder("m").system("s").user("x", Media.image(PNG, "image/heic"))
                .build(), Reason.MEDIA_TYPE, "message 1, media 0: image image/heic: images must be image/png, image/jpeg,"
                + " image/gif or image/webp");
    }

    @Test
    void aDocumentTypeOutsideTheListIsRefused() {
        refused(ResponsesProfiles.OPENAI, ChatRequest.builder("m").user("x", Media.image(PNG, "image/png"),
                Media.document(PDF, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", null))
                .build(), Reason.MEDIA_TYPE, "message 0, media 1: document application/vnd.openxmlformats-officedocument"
                + ".wordprocessingml.document: documents must be application/pdf or text (plain, markdown, csv, html, json)");
    }

    @Test
    void aUrlTheApiCannotFetchIsRefused() {
        refused(ResponsesProfiles.OPENAI, ChatRequest.builder("m").user("x", Media.imageUrl("gs://bucket/cat.png",
                "image/png")).build(), Reason.SOURCE, "message 0, media 0: image image/png: a gs: URL; this API fetches"
                + " http(s) URLs only (give the bytes instead)");
    }

    @Test
    void anOversizedImageIsRefused() {
        byte[] big = new byte[20 * 1024 * 1024 + 1];
        refused(ResponsesProfiles.OPENAI, ChatRequest.builder("m").user("x", Media.image(big, "image/png")).build(),
                Reason.TOO_LARGE, "message 0, media 0: image image/png: " + big.length + " bytes, over the 20 MB an image"
                        + " may have");
    }

    @Test
    void tooManyMediaBytesInOneRequestAreRefused() {
        byte[] nineteen = new byte[19 * 1024 * 1024];
        List<Media> media = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            media.add(Media.image(nineteen, "image/jpeg"));
        }
        // 38 MB of bytes are over 50 MB in the base64 the body carries them in: refused at the second
        refused(ResponsesProfiles.OPENAI, ChatRequest.builder("m").user("x", media.toArray(Media[]::new)).build(),
                Reason.TOO_LARGE, "message 0, media 1: image image/jpeg: the request's media exceed 50 MB");
    }

    @Test
    void tooManyImagesAreRefused() {
        Media one = Media.image(PNG, "image/gif");
        Media[] many = new Media[501];
        java.util.Arrays.fill(many, one);
        refused(ResponsesProfiles.OPENAI, ChatRequest.builder("m").user("x", many).build(), Reason.TOO_LARGE,
                "message 0, media 500: image image/gif: more than 500 images in one request");
    }

    @Test
    void aServerWithoutAKindRefusesIt() {
        refused(ResponsesProfiles.DEEPSEEK, ChatRequest.builder("m").user("x", Media.image(PNG, "image/png")).build(),
                Reason.KIND, "message 0, media 0: image image/png: this server takes no images");
        refused(ResponsesProfiles.VLLM, ChatRequest.builder("m").user("x", Media.document(PDF, "application/pdf", null))
                .build(), Reason.KIND, "message 0, media 0: document application/pdf: this server takes no documents"
                + " (input_file)");
        refused(ResponsesProfiles.LMSTUDIO, ChatRequest.builder("m").user("x")
                .message(new ToolResultMessage("c", "f", "out", false, List.of(Media.image(PNG, "image/png")))).build(),
                Reason.KIND, "message 1, media 0: image image/png: this server takes no images or files in tool results");
    }

    @Test
    void mediaTheServerAlreadyHoldsAreNotChecked() {
        // with previous_response_id only the messages after the last assistant turn go, and only they are checked
        AssistantMessage earlier = new AssistantMessage(List.of(new dev.ruminate.core.message.TextPart("ok", Seals.NONE)),
                "vllm-responses", "m", FinishReason.STOP, "completed", Usage.UNKNOWN);
        ChatRequest request = ChatRequest.builder("m").user("x", Media.document(PDF, "application/pdf", null))
                .message(earlier).user("next").extra("previous_response_id", "resp_1").build();

        assertThat(input(ResponsesProfiles.VLLM, request)).isEqualTo("\"input\":[{\"role\":\"user\",\"content\":\"next\"}]");
    }
}
