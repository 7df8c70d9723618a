package dev.ruminate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.ResponsesScript;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A client's images, files and json_schema {@code text.format} reach an OpenAI Responses backend
 * (checking emulator) in its own form, and what the backend does not take is a 400 with nothing
 * forwarded.
 */
@ExtendWith(NettyLeakCheck.class)
class MediaAndSchemaTest {

    private static final String PNG64 = Base64.getEncoder().encodeToString(new byte[] {(byte) 0x89, 'P', 'N', 'G', 7});
    private static final String PDF64 = Base64.getEncoder().encodeToString("%PDF-1.4".getBytes(StandardCharsets.US_ASCII));
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}";

    private static ProviderEmulator openai;
    private static GatewayHarness gateway;
    private static Http http;

    @BeforeAll
    static void start() {
        openai = ProviderEmulator.start().checking(AcceptanceRules.responses());
        try {
            gateway = new GatewayHarness("ruminate.providers.oai.kind=openai-responses",
                    "ruminate.providers.oai.base-url=" + openai.baseUrl() + "/v1",
                    "ruminate.providers.oai.api-key-env=OPENAI_API_KEY",
                    "ruminate.gateway.routes.gpt.provider=oai",
                    "ruminate.gateway.routes.gpt.upstream-model=gpt-5.1");
        } catch (RuntimeException | Error e) {
            openai.close();
            throw e;
        }
        http = gateway.http();
    }

    @AfterAll
    static void stop() {
        gateway.close();
        openai.close();
    }

    private static ObjectNode request(String imageUrl) {
        ObjectNode request = Http.request("gpt", null);
        ArrayNode content = request.putArray("input").addObject().put("role", "user").putArray("content");
        content.addObject().put("type", "input_image").put("image_url", imageUrl);
        content.addObject().put("type", "input_file").put("filename", "r.pdf")
                .put("file_data", "data:application/pdf;base64," + PDF64);
        content.addObject().put("type", "input_text").put("text", "How many pages?");
        return request;
    }

    @Test
    void imagesFilesAndTheSchemaArePassedOn() {
        openai.enqueue(ResponsesScript.create().model("gpt-5.1").text("{\"n\":1}").toResponse());
        ObjectNode request = request("data:image/png;base64," + PNG64);
        request.putObject("text").putObject("format").put("type", "json_schema").put("name", "count")
                .put("strict", true).set("schema", Http.json(SCHEMA));

        JsonNode response = http.post(request);

        assertThat(response.path("status").asString()).isEqualTo("completed");
        JsonNode sent = Http.json(openai.requests().get(openai.requests().size() - 1).body());
        assertThat(sent.get("input")).isEqualTo(Http.json("[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64," + PNG64 + "\",\"detail\":\"auto\"},"
                + "{\"type\":\"input_file\",\"filename\":\"r.pdf\",\"file_data\":\"data:application/pdf;base64," + PDF64 + "\"},"
                + "{\"type\":\"input_text\",\"text\":\"How many pages?\"}]}]"));
        assertThat(sent.get("text")).isEqualTo(Http.json("{\"format\":{\"type\":\"json_schema\",\"name\":\"count\","
                + "\"schema\":" + SCHEMA + ",\"strict\":true}}"));
    }

    @Test
    void whatTheBackendDoesNotTakeIs400AndNothingIsForwarded() {
        int before = openai.requests().size();

        Http.Failure heic = http.fail(request("data:image/heic;base64," + PNG64));

        assertThat(heic.status()).isEqualTo(400);
        assertThat(heic.body().path("error").path("code").asString()).isEqualTo("unsupported_value");
        assertThat(heic.body().path("error").path("message").asString()).contains("a media type it does not read")
                .doesNotContain(PNG64);

        Http.Failure stored = http.fail(Http.json("{\"model\":\"gpt\",\"input\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"input_file\",\"file_id\":\"file-abc\"}]}]}").toString());
        assertThat(stored.status()).isEqualTo(400);
        assertThat(stored.body().path("error").path("param").asString()).isEqualTo("input[0].content[0].file_id");
        assertThat(openai.requests()).hasSize(before);
    }
}
