package dev.ruminate.providers.ollama;

import static dev.ruminate.providers.ollama.OllamaRequestFeaturesTest.PNG;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.error.UnsupportedInputException.Reason;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.testkit.AcceptanceRules;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaImagesRule;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 18's Ollama requests over real HTTP against the emulator checking Ollama's acceptance rules:
 * images and the schema's {@code format} that pass them, bad input refused before any request, the
 * encoder's warnings on the result, and the rule's 400 for images that are not base64.
 */
@ExtendWith(NettyLeakCheck.class)
class OllamaRequestFeaturesOverHttpTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start().checking(AcceptanceRules.ollama());
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private OllamaProvider provider() {
        return OllamaProvider.builder().baseUrl(emulator.baseUrl().toString()).build();
    }

    @Test
    void imagesAndTheSchemasFormatPassOllamasRulesOnChatAndGenerate() {
        ChatRequest request = ChatRequest.builder("llava").user("Which city?", Media.image(PNG, "image/png"))
                .output(OutputSchema.of("city_answer", "{\"type\":\"object\"}")).build();
        emulator.enqueue(OllamaScript.create().content("{\"city\":\"Paris\"}").usage(20, 6).toResponse());
        emulator.enqueue(OllamaScript.create().endpoint(OllamaScript.Endpoint.GENERATE).content("{\"city\":\"Paris\"}")
                .usage(20, 6).toResponse());

        ChatResult chat = Ollama.reduce(provider().stream(request)).ok();
        ChatResult generate = Ollama.reduce(provider().generate(request)).ok();

        assertThat(chat.message().text()).isEqualTo("{\"city\":\"Paris\"}");
        assertThat(generate.message().text()).isEqualTo("{\"city\":\"Paris\"}");
        List<RecordedRequest> sent = emulator.requests();
        assertThat(sent).extracting(RecordedRequest::rejectedBy).containsOnlyNulls();
        JsonNode chatBody = JSON.readTree(sent.get(0).body());
        JsonNode generateBody = JSON.readTree(sent.get(1).body());
        assertThat(chatBody.at("/messages/0/images/0").asString()).isEqualTo("iVBORw0KGgo=");
        assertThat(chatBody.get("format").toString()).isEqualTo("{\"type\":\"object\"}");
        assertThat(generateBody.at("/images/0").asString()).isEqualTo("iVBORw0KGgo=");
        assertThat(generateBody.get("format").toString()).isEqualTo("{\"type\":\"object\"}");
    }

    @Test
    void anImageByUrlOrADocumentIsRefusedTypedBeforeAnyRequest() {
        RuminateException url = Ollama.reduce(provider().stream(ChatRequest.builder("llava")
                .user("x", Media.imageUrl("https://example.com/cat.png", "image/png")).build())).failed();
        RuminateException document = Ollama.reduce(provider().generate(ChatRequest.builder("llava")
                .user("x", Media.document(PNG, "application/pdf", null)).build())).failed();

        assertThat(url).isInstanceOf(UnsupportedInputException.class);
        assertThat(((UnsupportedInputException) url).reason()).isEqualTo(Reason.SOURCE);
        assertThat(document).isInstanceOf(UnsupportedInputException.class);
        assertThat(((UnsupportedInputException) document).reason()).isEqualTo(Reason.KIND);
        assertThat(url.getMessage()).contains(OllamaProvider.NAME).doesNotContain("example.com");
        assertThat(emulator.requests()).isEmpty();
    }

    @Test
    void theEncodersWarningsReachTheResult() {
        ChatRequest request = ChatRequest.builder("qwen3").user("x").caching(PromptCaching.conversation())
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build();
        emulator.enqueue(OllamaScript.create().thinking("Hm.").content("Done.").toResponse());

        ChatResult result = Ollama.reduce(provider().stream(request)).ok();

        assertThat(result.warnings()).extracting(Warning::code).containsExactly(Warning.OPTION_IGNORED, Warning.OPTION_COERCED);
        assertThat(result.message().text()).isEqualTo("Done.");
    }

    @Test
    void imagesThatAreNotBase64GetOllamas400FromTheCheckingEmulator() {
        // the encoder always writes base64, so the rule is shown with an extra that replaces the images
        ChatRequest request = ChatRequest.builder("llava").user("x", Media.image(PNG, "image/png"))
                .extra("images", List.of("data:image/png;base64,iVBORw0KGgo=")).build();

        RuminateException error = Ollama.reduce(provider().generate(request)).failed();

        assertThat(error).isInstanceOf(ProviderHttpException.class).hasMessageContaining("illegal base64 data at input byte 4");
        assertThat(((ProviderHttpException) error).status()).isEqualTo(400);
        assertThat(emulator.requests()).singleElement()
                .satisfies(r -> assertThat(r.rejectedBy()).isEqualTo(OllamaImagesRule.NAME));
    }
}
