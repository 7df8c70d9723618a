package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a service answering Responses requests now passes on: a user's {@code input_image} and
 * {@code input_file} parts as {@link Media}, tool outputs with images, and a json_schema
 * {@code text.format} as the request's {@link OutputSchema}; and the round trip back to the wire.
 */
class ResponsesReaderMediaAndSchemaTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 9};
    private static final String PNG64 = Base64.getEncoder().encodeToString(PNG);
    private static final byte[] PDF = "%PDF-1.4".getBytes(StandardCharsets.US_ASCII);
    private static final String PDF64 = Base64.getEncoder().encodeToString(PDF);

    @Test
    void userImagesAndFilesBecomeMediaInTheirOrder() {
        List<Message> messages = ResponsesInput.read("[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_text\",\"text\":\"Compare \"},"
                + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64," + PNG64 + "\",\"detail\":\"high\"},"
                + "{\"type\":\"input_image\",\"image_url\":\"https://example.com/b.jpg\"},"
                + "{\"type\":\"input_file\",\"filename\":\"r.pdf\",\"file_data\":\"data:application/pdf;base64," + PDF64 + "\"},"
                + "{\"type\":\"input_file\",\"file_url\":\"https://example.com/c.pdf\"},"
                + "{\"type\":\"input_text\",\"text\":\"these.\"}]}]");

        assertThat(messages).containsExactly(new UserMessage("Compare these.", List.of(
                Media.image(PNG, "image/png"),
                Media.imageUrl("https://example.com/b.jpg", null),
                Media.document(PDF, "application/pdf", "r.pdf"),
                Media.documentUrl("https://example.com/c.pdf", null, null))));
    }

    @Test
    void aToolOutputWithAnImageBecomesTextAndMedia() {
        List<Message> messages = ResponsesInput.read("[{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":["
                + "{\"type\":\"input_text\",\"text\":\"screen\"},"
                + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64," + PNG64 + "\"}]}]");

        assertThat(messages).containsExactly(new ToolResultMessage("c1", null, "screen", false,
                List.of(Media.image(PNG, "image/png"))));
    }

    @Test
    void aJsonSchemaFormatBecomesTheOutputSchemaAndGoesBackNatively() {
        String schema = "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}";
        ResponsesCall call = ResponsesRequestReader.read("{\"model\":\"gw-model\",\"input\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64," + PNG64 + "\"},"
                + "{\"type\":\"input_text\",\"text\":\"Count.\"}]}],"
                + "\"text\":{\"format\":{\"type\":\"json_schema\",\"name\":\"count\",\"schema\":" + schema + ","
                + "\"strict\":true,\"description\":\"How many\"},\"verbosity\":\"low\"}}");

        assertThat(call.outputSchema()).isEqualTo(new OutputSchema("count", schema, "How many", true,
                OutputSchema.Strategy.AUTO));
        ChatRequest request = call.toChatRequest("gpt-5.1", ResponsesInput.readItems(call.inputItems(), call.instructions()));
        assertThat(request.output()).isEqualTo(call.outputSchema());

        String body = new String(ResponsesCodec.encodeRequest(ResponsesProfiles.OPENAI, request, false), StandardCharsets.UTF_8);
        assertThat(body).isEqualTo("{\"model\":\"gpt-5.1\",\"input\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64," + PNG64 + "\",\"detail\":\"auto\"},"
                + "{\"type\":\"input_text\",\"text\":\"Count.\"}]}],"
                + "\"text\":{\"format\":{\"type\":\"json_schema\",\"name\":\"count\",\"schema\":" + schema + ","
                + "\"strict\":true,\"description\":\"How many\"}},"
                + "\"include\":[\"reasoning.encrypted_content\"],\"store\":false}");
    }

    @Test
    void aPlainTextFormatIsNoSchema() {
        assertThat(ResponsesRequestReader.read("{\"model\":\"m\",\"text\":{\"format\":{\"type\":\"text\"}}}").outputSchema())
                .isNull();
        assertThat(ResponsesRequestReader.read("{\"model\":\"m\",\"text\":{\"verbosity\":\"high\"}}").outputSchema()).isNull();
        assertThat(ResponsesRequestReader.read("{\"model\":\"m\"}").outputSchema()).isNull();
    }
}
