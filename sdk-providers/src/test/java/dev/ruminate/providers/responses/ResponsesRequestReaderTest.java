package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading a client's Responses request: every field, every error with its path, and the limits. */
class ResponsesRequestReaderTest {

    @Test
    void readsEveryFieldAndKeepsEachItemAsSent() {
        String item0 = "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"Hi\"}]}";
        String item1 = "{ \"type\" : \"item_reference\", \"id\" : \"msg_1\" }";
        String item2 = "{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":\"21C\"}";
        ResponsesCall call = ResponsesRequestReader.read("{\"model\":\"gw-model\",\"input\":[" + item0 + "," + item1 + ","
                + item2 + "],\"instructions\":\"Be brief.\",\"tools\":[{\"type\":\"function\",\"name\":\"weather\","
                + "\"description\":\"Weather\",\"parameters\":{\"type\":\"object\"},\"strict\":true},"
                + "{\"type\":\"function\",\"name\":\"time\"}],\"tool_choice\":\"required\","
                + "\"reasoning\":{\"effort\":\"xhigh\",\"summary\":\"detailed\"},\"max_output_tokens\":256,"
                + "\"temperature\":0.2,\"top_p\":0.5,\"store\":false,\"previous_response_id\":\"resp_9\",\"stream\":true,"
                + "\"include\":[\"reasoning.encrypted_content\"],\"metadata\":{\"a\":\"b\"},\"parallel_tool_calls\":false,"
                + "\"user\":\"u\",\"safety_identifier\":\"s\",\"prompt_cache_key\":\"k\",\"text\":{\"format\":{\"type\":\"text\"},"
                + "\"verbosity\":\"low\"},\"truncation\":\"auto\",\"service_tier\":\"auto\","
                + "\"stream_options\":{\"include_obfuscation\":false}}");
        assertThat(call.model()).isEqualTo("gw-model");
        assertThat(call.inputItems()).containsExactly(item0, item1, item2);
        assertThat(call.referencedItemIds()).containsExactly("msg_1");
        assertThat(call.instructions()).isEqualTo("Be brief.");
        assertThat(call.tools()).containsExactly(new FunctionTool("weather", "Weather", "{\"type\":\"object\"}", true),
                new FunctionTool("time", "", "{\"type\":\"object\",\"properties\":{}}", null));
        assertThat(call.toolChoice()).isEqualTo(ToolChoice.REQUIRED);
        assertThat(call.reasoningEffort()).isEqualTo("xhigh");
        assertThat(call.reasoningSummary()).isEqualTo("detailed");
        assertThat(call.maxOutputTokens()).isEqualTo(256);
        assertThat(call.temperature()).isEqualTo(0.2);
        assertThat(call.topP()).isEqualTo(0.5);
        assertThat(call.store()).isFalse();
        assertThat(call.previousResponseId()).isEqualTo("resp_9");
        assertThat(call.stream()).isTrue();
        assertThat(call.include()).containsExactly("reasoning.encrypted_content");
        assertThat(call.metadataJson()).isEqualTo("{\"a\":\"b\"}");
        assertThat(call.parallelToolCalls()).isFalse();
        assertThat(call.user()).isEqualTo("u");
        assertThat(call.safetyIdentifier()).isEqualTo("s");
        assertThat(call.promptCacheKey()).isEqualTo("k");
        assertThat(call.textJson()).contains("verbosity");
        assertThat(call.truncation()).isEqualTo("auto");
        assertThat(call.serviceTier()).isEqualTo("auto");
        assertThat(call.streamOptionsJson()).contains("include_obfuscation");

        ChatRequest request = call.toChatRequest("upstream-model", List.of(new UserMessage("Hi")));
        assertThat(request.model()).isEqualTo("upstream-model");
        assertThat(request.messages()).containsExactly(new UserMessage("Hi"));
        assertThat(request.tools()).containsExactly(new ToolDefinition("weather", "Weather", "{\"type\":\"object\"}"),
                new ToolDefinition("time", "", "{\"type\":\"object\",\"properties\":{}}"));
        assertThat(request.reasoning().effort()).isEqualTo(ReasoningEffort.XHIGH);
        assertThat(request.sampling().maxOutputTokens()).isEqualTo(256);
        assertThat(request.sampling().temperature()).isEqualTo(0.2);
        assertThat(request.sampling().topP()).isEqualTo(0.5);
        assertThat(request.extras()).isEmpty();
    }

    @Test
    void defaultsFollowOpenAi() {
        ResponsesCall call = ResponsesRequestReader.read("{\"model\":\"m\",\"input\":\"Hello \\\"you\\\"\"}");
        assertThat(call.inputItems()).containsExactly("{\"type\":\"message\",\"role\":\"user\",\"content\":\"Hello \\\"you\\\"\"}");
        List<Message> messages = ResponsesInput.readItems(call.inputItems(), call.instructions());
        assertThat(messages).containsExactly(new UserMessage("Hello \"you\""));
        assertThat(call.store()).isTrue();
        assertThat(call.stream()).isFalse();
        assertThat(call.parallelToolCalls()).isTrue();
        assertThat(call.toolChoice()).isEqualTo(ToolChoice.AUTO);
        assertThat(call.echo()).isEqualTo(ResponseEcho.NONE);
        ChatRequest request = call.toChatRequest("u", messages);
        assertThat(request.reasoning().isDefault()).isTrue();
        assertThat(request.sampling().maxOutputTokens()).isNull();
    }

    @Test
    void toolChoiceNoneSendsNoToolsAndEachWireHasItsSpelling() {
        ResponsesCall none = ResponsesRequestReader.read("{\"model\":\"m\",\"input\":\"x\",\"tool_choice\":\"none\","
                + "\"tools\":[{\"type\":\"function\",\"name\":\"f\"}]}");
        assertThat(none.toChatRequest("u", List.of(new UserMessage("x"))).tools()).isEmpty();
        ToolChoice f = ResponsesRequestReader.read("{\"model\":\"m\",\"tool_choice\":{\"type\":\"function\",\"name\":\"f\"}}")
                .toolChoice();
        assertThat(f).isEqualTo(ToolChoice.function("f"));
        assertThat(f.chatCompletionsValue()).isEqualTo(Map.of("type", "function", "function", Map.of("name", "f")));
        assertThat(f.responsesValue()).isEqualTo(Map.of("type", "function", "name", "f"));
        assertThat(f.anthropicValue()).isEqualTo(Map.of("type", "tool", "name", "f"));
        assertThat(ToolChoice.REQUIRED.anthropicValue()).isEqualTo(Map.of("type", "any"));
        assertThat(ToolChoice.REQUIRED.chatCompletionsValue()).isEqualTo("required");
    }

    @Test
    void unknownTopLevelParametersOfRealClientsAreIgnored() {
        // what @ai-sdk/openai and openai-node send besides the fields read, and parameters OpenAI added later
        ResponsesCall call = ResponsesRequestReader.read("{\"model\":\"m\",\"input\":[],\"top_logprobs\":2,"
                + "\"max_tool_calls\":3,\"prompt_cache_retention\":\"24h\",\"context_management\":[{\"type\":\"x\"}],"
                + "\"background\":false,\"brand_new_parameter\":{\"nested\":[1,2]}}");
        assertThat(call.model()).isEqualTo("m");
        assertThat(call.inputItems()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "{\"input\":\"x\"}                                                               | model",
        "{\"model\":7}                                                                   | model",
        "{\"model\":\"m\",\"input\":7}                                                   | input",
        "{\"model\":\"m\",\"input\":[\"sk-SECRET\"]}                                      | input[0]",
        "{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":\"a\"},{\"type\":\"sk-SECRET\"}]} | input[1].type",
        "{\"model\":\"m\",\"input\":[{\"role\":\"sk-SECRET\",\"content\":\"x\"}]}        | input[0].role",
        "{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"a\"},{\"type\":\"input_image\",\"image_url\":\"sk-SECRET\"}]}]} | input[0].content[1].image_url",
        "{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_file\",\"file_id\":\"sk-SECRET\"}]}]} | input[0].content[0].file_id",
        "{\"model\":\"m\",\"input\":[{\"type\":\"function_call\",\"name\":\"sk-SECRET\"}]} | input[0].call_id",
        "{\"model\":\"m\",\"input\":[{\"type\":\"item_reference\"}]}                      | input[0].id",
        "{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":7}]}                   | input[0].content",
        "{\"model\":\"m\",\"tools\":[{\"type\":\"web_search\"}]}                          | tools[0].type",
        "{\"model\":\"m\",\"tools\":[{\"type\":\"function\"}]}                            | tools[0].name",
        "{\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"name\":\"f\"},{\"type\":\"function\",\"name\":\"f\"}]} | tools[1].name",
        "{\"model\":\"m\",\"tool_choice\":\"sk-SECRET\"}                                  | tool_choice",
        "{\"model\":\"m\",\"tool_choice\":{\"type\":\"mcp\"}}                              | tool_choice",
        "{\"model\":\"m\",\"reasoning\":{\"effort\":\"sk-SECRET\"}}                        | reasoning.effort",
        "{\"model\":\"m\",\"reasoning\":{\"summary\":\"sk-SECRET\"}}                       | reasoning.summary",
        "{\"model\":\"m\",\"max_output_tokens\":0}                                         | max_output_tokens",
        "{\"model\":\"m\",\"max_output_tokens\":1.5}                                       | max_output_tokens",
        "{\"model\":\"m\",\"temperature\":3}                                               | temperature",
        "{\"model\":\"m\",\"top_p\":\"sk-SECRET\"}                                         | top_p",
        "{\"model\":\"m\",\"store\":\"sk-SECRET\"}                                         | store",
        "{\"model\":\"m\",\"include\":[7]}                                                 | include[0]",
        "{\"model\":\"m\",\"metadata\":[]}                                                 | metadata",
        "{\"model\":\"m\",\"text\":{\"format\":{\"type\":\"json_schema\"}}}                | text.format.name",
        "{\"model\":\"m\",\"text\":{\"format\":{\"type\":\"json_schema\",\"name\":\"a\",\"schema\":\"sk-SECRET\"}}} | text.format.schema",
        "{\"model\":\"m\",\"text\":{\"format\":{\"type\":\"json_schema\",\"name\":\"sk SECRET\",\"schema\":{}}}} | text.format.name",
        "{\"model\":\"m\",\"text\":{\"format\":{\"type\":\"json_object\"}}}                | text.format.type",
        "{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_image\",\"image_url\":\"data:application/pdf;base64,c2stU0VDUkVU\"}]}]} | input[0].content[0].image_url",
        "{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_file\",\"file_data\":\"sk-SECRET\"}]}]} | input[0].content[0].file_data",
        "{\"model\":\"m\",\"input\":[{\"role\":\"system\",\"content\":[{\"type\":\"input_image\",\"image_url\":\"https://x.test/sk-SECRET\"}]}]} | input[0].content[0].type",
        "{\"model\":\"m\",\"truncation\":\"sk-SECRET\"}                                    | truncation",
        "{\"model\":\"m\",\"background\":true}                                             | background",
        "{\"model\":\"m\",\"conversation\":\"conv_1\"}                                     | conversation",
        "{\"model\":\"m\",\"prompt\":{\"id\":\"p\"}}                                       | prompt"})
    void badRequestsAre400sNamingThePathNeverTheValue(String body, String param) {
        assertThatThrownBy(() -> ResponsesRequestReader.read(body))
                .isInstanceOfSatisfying(ClientRequestException.class, e -> {
                    OpenAiError error = e.error();
                    assertThat(error.status()).isEqualTo(400);
                    assertThat(error.type()).isEqualTo("invalid_request_error");
                    assertThat(error.param()).isEqualTo(param);
                    assertThat(error.message()).doesNotContain("SECRET");
                    assertThat(error.toJson()).doesNotContain("SECRET");
                });
    }

    @ParameterizedTest(name = "{1} {2}")
    @CsvSource(delimiter = '|', value = {
        "{\"input\":\"x\"}                                     | model             | missing_required_parameter | Missing required parameter: ",
        "{\"model\":7}                                         | model             | invalid_type               | expected a string, but got a number instead.",
        "{\"model\":\"m\",\"input\":[\"sk-SECRET\"]}            | input[0]          | invalid_type               | expected an object",
        "{\"model\":\"m\",\"tools\":[{\"type\":\"function\"}]}  | tools[0].name     | missing_required_parameter | Missing required parameter",
        "{\"model\":\"m\",\"tools\":[{\"type\":\"web_search\"}]} | tools[0].type    | unsupported_value          | not supported",
        "{\"model\":\"m\",\"temperature\":3}                     | temperature       | invalid_value              | must be between 0 and 2",
        "{\"model\":\"m\",\"background\":true}                   | background        | unsupported_value          | not supported"})
    void errorsCarryOpenAisCodesAndWordsAsTheChatCompletionsReaderDoes(String body, String param, String code,
                                                                       String says) {
        assertThatThrownBy(() -> ResponsesRequestReader.read(body))
                .isInstanceOfSatisfying(ClientRequestException.class, e -> {
                    assertThat(e.error().param()).isEqualTo(param);
                    assertThat(e.error().code()).isEqualTo(code);
                    assertThat(e.error().message()).contains(says).doesNotContain("SECRET");
                });
    }

    @Test
    void malformedJsonIsInvalidJsonAndAnOversizedBodyIs413() {
        assertThatThrownBy(() -> ResponsesRequestReader.read("{\"model\":"))
                .isInstanceOfSatisfying(ClientRequestException.class, e -> {
                    assertThat(e.error().code()).isEqualTo("invalid_json");
                    assertThat(e.error().message()).startsWith("We could not parse the JSON body of your request");
                });
        assertThatThrownBy(() -> ResponsesRequestReader.withLimits(8, 1).readBody("{\"model\":\"m\"}"))
                .isInstanceOfSatisfying(ClientRequestException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(413);
                    assertThat(e.error().code()).isEqualTo("request_too_large");
                });
    }

    @Test
    void aWholeNumberWrittenAsAFloatIsTakenForMaxOutputTokens() {
        assertThat(ResponsesRequestReader.read("{\"model\":\"m\",\"max_output_tokens\":64.0}").maxOutputTokens())
                .isEqualTo(64);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"{\"model\":", "not json at all sk-SECRET", "{\"model\":\"m\"} trailing", "[]", "\"sk-SECRET\""})
    void malformedBodiesAre400s(String body) {
        assertThatThrownBy(() -> ResponsesRequestReader.read(body))
                .isInstanceOfSatisfying(ClientRequestException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.getMessage()).doesNotContain("SECRET");
                });
    }

    @Test
    void oversizedBodiesAndTooManyItemsAreRejectedBeforeReading() {
        ResponsesRequestReader small = ResponsesRequestReader.withLimits(64, 2);
        String body = "{\"model\":\"m\",\"input\":\"" + "é".repeat(30) + "\"}";
        assertThat(body.length()).isLessThan(64);
        assertThatThrownBy(() -> small.readBody(body)).isInstanceOfSatisfying(ClientRequestException.class,
                e -> assertThat(e.error().code()).isEqualTo("request_too_large"));
        String items = "{\"model\":\"m\",\"input\":[{},{},{}]}";
        assertThatThrownBy(() -> small.readBody(items)).isInstanceOfSatisfying(ClientRequestException.class,
                e -> assertThat(e.error().param()).isEqualTo("input"));
        assertThat(ResponsesRequestReader.withLimits(1024, 3).readBody("{\"model\":\"m\",\"input\":[{\"role\":\"user\","
                + "\"content\":\"a\"}]}").inputItems()).hasSize(1);
        assertThatThrownBy(() -> ResponsesRequestReader.withLimits(0, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
