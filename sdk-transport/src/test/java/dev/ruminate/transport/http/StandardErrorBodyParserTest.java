package dev.ruminate.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderError;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StandardErrorBodyParserTest {

    private static ProviderError parse(String body) {
        return ErrorBodyParser.standard().parse(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheCommonNestedShape() {
        assertThat(parse("{\"error\":{\"message\":\"The reasoning_content in the thinking mode must be passed back"
                + " to the API.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_request_error\"}}"))
                .isEqualTo(new ProviderError("invalid_request_error", "invalid_request_error",
                        "The reasoning_content in the thinking mode must be passed back to the API.", null));
    }

    @Test
    void readsNumericCodesAndSkipsUnknownNestedFields() {
        assertThat(parse("{\"error\":{\"metadata\":{\"raw\":\"{...}\",\"provider_name\":\"X\"},\"code\":429,"
                + "\"message\":\"Rate limit exceeded\"},\"user_id\":\"u\"}"))
                .isEqualTo(new ProviderError(null, "429", "Rate limit exceeded", null));
    }

    @Test
    void readsAStringError() {
        assertThat(parse("{\"error\":\"model 'x' not found\"}")).isEqualTo(new ProviderError(null, null, "model 'x' not found", null));
    }

    @Test
    void readsTopLevelFieldsAsVllmSendsThem() {
        assertThat(parse("{\"object\":\"error\",\"message\":\"max_tokens is too large\",\"type\":\"BadRequestError\","
                + "\"param\":null,\"code\":400}"))
                .isEqualTo(new ProviderError("BadRequestError", "400", "max_tokens is too large", null));
    }

    @Test
    void readsDetailAndArrays() {
        assertThat(parse("{\"detail\":\"Not Found\"}").message()).isEqualTo("Not Found");
        assertThat(parse("[{\"error\":{\"code\":400,\"message\":\"bad\",\"status\":\"INVALID_ARGUMENT\"}}]"))
                .isEqualTo(new ProviderError("INVALID_ARGUMENT", "400", "bad", null));
    }

    @Test
    void jsonWithoutErrorFieldsIsUnknown() {
        assertThat(parse("{\"id\":\"chatcmpl-1\",\"choices\":[]}")).isEqualTo(ProviderError.UNKNOWN);
        assertThat(parse("   ")).isEqualTo(ProviderError.UNKNOWN);
        assertThat(parse("")).isEqualTo(ProviderError.UNKNOWN);
    }

    @Test
    void nonJsonBodiesBecomeAShortExcerpt() {
        assertThat(parse("Internal Server Error\n\n  please retry").message()).isEqualTo("Internal Server Error please retry");
        assertThat(parse("<html><head><title> 504 Gateway\nTime-out </title></head></html>").message())
                .isEqualTo("504 Gateway Time-out");
        assertThat(parse("{\"error\": {\"message\": \"trunc").message()).startsWith("{\"error\"");
        String longText = "a ".repeat(500);
        assertThat(parse(longText).message()).hasSize(201).endsWith("…");
    }
}
