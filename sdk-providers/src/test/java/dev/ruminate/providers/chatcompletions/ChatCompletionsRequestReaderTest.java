package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.serving.ClientRequestException;
import dev.ruminate.providers.serving.OpenAiError;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a client's Chat Completions body becomes, and the OpenAI-shaped error for each way it can be
 * wrong: the path of the value at fault as {@code param}, never the value itself.
 */
class ChatCompletionsRequestReaderTest {

    /** Planted in the values at fault: no error may repeat it. */
    private static final String SECRET = "sk-proj-SECRETVALUE42";

    /** JSON written with single quotes, for readability. */
    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    private static final String USER = "{'role':'user','content':'hi'}";

    @Test
    void readsTheSmallestRequest() {
        ChatCompletionsCall call = ChatCompletionsRequestReader.read(json("{'model':'m','messages':[" + USER + "]}"));

        assertThat(call.model()).isEqualTo("m");
        assertThat(call.messages()).containsExactly(new UserMessage("hi"));
        assertThat(call.tools()).isEmpty();
        assertThat(call.toolChoice()).isEqualTo(ChatCompletionsToolChoice.AUTO);
        assertThat(call.reasoningEffort()).isNull();
        assertThat(call.stream()).isFalse();
        assertThat(call.includeUsage()).isFalse();
        assertThat(call.maxOutputTokens()).isNull();
        assertThat(call.stop()).isEmpty();
        assertThat(call.metadata()).isEmpty();
        assertThat(call.ignoredParameters()).isEmpty();
        assertThat(call.toChatRequest("up")).isEqualTo(ChatRequest.builder("up").user("hi").build());
    }

    /** What @ai-sdk/openai's chat model and openai-node send for a streamed call with tools and options. */
    @Test
    void readsWhatTheOfficialClientsSend() {
        String body = json("{'model':'r1','messages':[{'role':'developer','content':'Be brief.'},"
                + "{'role':'user','content':[{'type':'text','text':'Weather?'},{'type':'text','text':'In Paris.'}]}],"
                + "'tools':[{'type':'function','function':{'name':'weather','description':'Gets it',"
                + "'parameters':{'type':'object','properties':{'city':{'type':'string'}}},'strict':true}}],"
                + "'tool_choice':'auto','parallel_tool_calls':false,'reasoning_effort':'xhigh','max_tokens':100,"
                + "'max_completion_tokens':200,'temperature':0.5,'top_p':1,'stop':['END'],'seed':7,'user':'u-1',"
                + "'metadata':{'k':'v'},'n':1,'stream':true,'stream_options':{'include_usage':true},"
                + "'frequency_penalty':0,'presence_penalty':0,'logit_bias':{},'logprobs':false,'store':false,"
                + "'service_tier':'auto','prompt_cache_key':'c','safety_identifier':'s','response_format':{'type':'text'},"
                + "'modalities':['text'],'top_k':40}");

        ChatCompletionsCall call = ChatCompletionsRequestReader.read(body);

        assertThat(call.messages()).containsExactly(new SystemMessage("Be brief."), new UserMessage("Weather?\nIn Paris."));
        assertThat(call.tools()).containsExactly(new ToolDefinition("weather", "Gets it",
                "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"));
        assertThat(call.reasoningEffort()).isEqualTo(ReasoningEffort.XHIGH);
        assertThat(call.maxOutputTokens()).as("max_completion_tokens wins").isEqualTo(200);
        assertThat(call.temperature()).isEqualTo(0.5);
        assertThat(call.topP()).isEqualTo(1.0);
        assertThat(call.stop()).containsExactly("END");
        assertThat(call.seed()).isEqualTo(7L);
        assertThat(call.user()).isEqualTo("u-1");
        assertThat(call.metadata()).isEqualTo(Map.of("k", "v"));
        assertThat(call.stream()).isTrue();
        assertThat(call.includeUsage()).isTrue();
        assertThat(call.parallelToolCalls()).isFalse();
        assertThat(call.ignoredParameters()).containsExactly("frequency_penalty", "presence_penalty", "logit_bias",
                "logprobs", "store", "service_tier", "prompt_cache_key", "safety_identifier", "top_k",
                "response_format", "modalities");

        ChatRequest request = call.toChatRequest("deepseek-reasoner");
        assertThat(request.model()).isEqualTo("deepseek-reasoner");
        assertThat(request.messages()).isEqualTo(call.messages());
        assertThat(request.tools()).isEqualTo(call.tools());
        assertThat(request.reasoning()).isEqualTo(ReasoningOptions.effort(ReasoningEffort.XHIGH));
        assertThat(request.sampling()).isEqualTo(new SamplingOptions(0.5, 1.0, 200, List.of("END"), 7L));
        assertThat(request.extras()).isEmpty();
    }

    @Test
    void anAssistantTurnKeepsReasoningThenTextThenCallsAndATurnAnswersItsCall() {
        String body = json("{'model':'m','messages':[" + USER + ","
                + "{'role':'assistant','content':'Let me look.','reasoning_content':'They want weather.',"
                + "'refusal':null,'annotations':[],'audio':null,'function_call':null,'name':'bot',"
                + "'tool_calls':[{'id':'call_1','type':'function','function':{'name':'weather','arguments':'{\\'city\\':\\'Paris\\'}'}},"
                + "{'id':'call_2','function':{'name':'time','arguments':''}}]},"
                + "{'role':'tool','tool_call_id':'call_1','content':'sunny'},"
                + "{'role':'tool','tool_call_id':'call_2','content':[{'type':'text','text':'noon'}]},"
                + "{'role':'assistant','content':null,'reasoning':'Now answer.','tool_calls':[{'id':'call_3','type':'function',"
                + "'function':{'name':'weather','arguments':'{broken'}}]},"
                + "{'role':'tool','tool_call_id':'unknown','content':'x'}]}");

        ChatCompletionsCall call = ChatCompletionsRequestReader.read(body);

        assertThat(call.messages()).hasSize(6);
        assertThat(call.messages().get(1)).isEqualTo(new AssistantMessage(List.of(
                new ReasoningPart("They want weather.", false, "reasoning_content", Seals.NONE),
                TextPart.of("Let me look."),
                new ToolCallPart("call_1", "weather", "{\"city\":\"Paris\"}", true, Seals.NONE),
                new ToolCallPart("call_2", "time", "", true, Seals.NONE)),
                null, null, FinishReason.TOOL_CALLS, null, Usage.UNKNOWN));
        assertThat(call.messages().get(2)).isEqualTo(new ToolResultMessage("call_1", "weather", "sunny", false));
        assertThat(call.messages().get(3)).isEqualTo(new ToolResultMessage("call_2", "time", "noon", false));
        assertThat(call.messages().get(4)).isEqualTo(new AssistantMessage(List.of(
                new ReasoningPart("Now answer.", false, "reasoning", Seals.NONE),
                new ToolCallPart("call_3", "weather", "{broken", false, Seals.NONE)),
                null, null, FinishReason.TOOL_CALLS, null, Usage.UNKNOWN));
        assertThat(call.messages().get(5)).isEqualTo(new ToolResultMessage("unknown", null, "x", false));
    }

    @Test
    void reasoningContentWinsOverReasoningAndARefusalIsWhatTheModelSaid() {
        String body = json("{'model':'m','messages':[" + USER + ","
                + "{'role':'assistant','content':null,'reasoning_content':'A','reasoning':'A'},"
                + "{'role':'assistant','content':null,'refusal':'I cannot.'},"
                + "{'role':'assistant','content':[{'type':'text','text':'x'},{'type':'refusal','refusal':'y'}]},"
                + "{'role':'assistant'}]}");

        ChatCompletionsCall call = ChatCompletionsRequestReader.read(body);

        assertThat(((AssistantMessage) call.messages().get(1)).parts())
                .containsExactly(new ReasoningPart("A", false, "reasoning_content", Seals.NONE));
        assertThat(((AssistantMessage) call.messages().get(2)).text()).isEqualTo("I cannot.");
        assertThat(((AssistantMessage) call.messages().get(3)).text()).isEqualTo("x\ny");
        assertThat(((AssistantMessage) call.messages().get(4)).parts()).containsExactly(TextPart.of(""));
        assertThat(call.messages()).allSatisfy(m -> {
            if (m instanceof AssistantMessage a) {
                assertThat(a.provider()).isNull();
            }
        });
    }

    @Test
    void toolChoiceNoneOffersNoToolsUnlessTheConversationUsedThem() {
        String tools = "'tools':[{'type':'function','function':{'name':'f'}}]";
        ChatCompletionsCall fresh = ChatCompletionsRequestReader.read(json("{'model':'m','messages':[" + USER + "],"
                + tools + ",'tool_choice':'none'}"));
        ChatCompletionsCall used = ChatCompletionsRequestReader.read(json("{'model':'m','messages':[" + USER + ","
                + "{'role':'assistant','tool_calls':[{'id':'c','function':{'name':'f','arguments':'{}'}}]},"
                + "{'role':'tool','tool_call_id':'c','content':'r'}]," + tools + ",'tool_choice':'none'}"));

        assertThat(fresh.toolChoice()).isEqualTo(ChatCompletionsToolChoice.NONE);
        assertThat(fresh.tools()).extracting(ToolDefinition::parametersSchema)
                .containsExactly("{\"type\":\"object\",\"properties\":{}}");
        assertThat(fresh.toChatRequest("u").tools()).isEmpty();
        assertThat(used.toChatRequest("u").tools()).hasSize(1);
    }

    @Test
    void readsEachToolChoiceAndEffort() {
        String tools = "'tools':[{'type':'function','function':{'name':'f'}}]";
        ChatCompletionsCall required = ChatCompletionsRequestReader.read(json("{'model':'m','messages':[" + USER + "],"
                + tools + ",'tool_choice':'required','reasoning_effort':'none'}"));
        ChatCompletionsCall named = ChatCompletionsRequestReader.read(json("{'model':'m','messages':[" + USER + "],"
                + tools + ",'tool_choice':{'type':'function','function':{'name':'f'}},'reasoning_effort':'minimal'}"));

        assertThat(required.toolChoice()).isEqualTo(ChatCompletionsToolChoice.REQUIRED);
        assertThat(required.toolChoice().toChatCompletionsValue()).isEqualTo("required");
        assertThat(required.toChatRequest("u").reasoning().enabled()).isFalse();
        assertThat(named.toolChoice()).isEqualTo(ChatCompletionsToolChoice.function("f"));
        assertThat(named.toolChoice().toChatCompletionsValue())
                .isEqualTo(Map.of("type", "function", "function", Map.of("name", "f")));
        assertThat(named.reasoningEffort()).isEqualTo(ReasoningEffort.MINIMAL);
    }

    @Test
    void numbersWrittenAsFloatsAreTakenWhereIntegersBelong() {
        ChatCompletionsCall call = ChatCompletionsRequestReader.read(json("{'model':'m','messages':[" + USER + "],"
                + "'max_tokens':64.0,'seed':3.0,'temperature':1}"));

        assertThat(call.maxOutputTokens()).isEqualTo(64);
        assertThat(call.seed()).isEqualTo(3L);
        assertThat(call.temperature()).isEqualTo(1.0);
    }

    static Stream<Arguments> badBodies() {
        String s = SECRET;
        String m = "'model':'m','messages':[" + USER + "]";
        String tool = "'tools':[{'type':'function','function':{'name':'f'}}]";
        String assistant = "{'model':'m','messages':[" + USER + ",{'role':'assistant','tool_calls':[%s]}]}";
        return Stream.of(
                bad("{'model':'" + s + "'", null, "invalid_json", "could not parse"),
                bad("['" + s + "']", null, "invalid_type", "JSON object"),
                bad("{'messages':[" + USER + "]}", "model", "missing_required_parameter", "Missing required parameter"),
                bad("{'model':5,'messages':[" + USER + "]}", "model", "invalid_type", "expected a string"),
                bad("{'model':' ','messages':[" + USER + "]}", "model", "invalid_value", "blank"),
                bad("{'model':'m'}", "messages", "missing_required_parameter", "messages"),
                bad("{'model':'m','messages':[]}", "messages", "empty_array", "empty array"),
                bad("{'model':'m','messages':'" + s + "'}", "messages", "invalid_type", "an array"),
                bad("{'model':'m','messages':[" + USER + ",'" + s + "']}", "messages[1]", "invalid_type", "an object"),
                bad("{'model':'m','messages':[{'content':'" + s + "'}]}", "messages[0].role", "missing_required_parameter",
                        "role"),
                bad("{'model':'m','messages':[" + USER + "," + USER + ",{'role':'" + s + "','content':'x'}]}",
                        "messages[2].role", "invalid_value", "must be one of"),
                bad("{'model':'m','messages':[{'role':'function','name':'f','content':'" + s + "'}]}",
                        "messages[0].role", "unsupported_value", "use tool messages"),
                bad("{'model':'m','messages':[{'role':'user'}]}", "messages[0].content", "missing_required_parameter",
                        "content"),
                bad("{'model':'m','messages':[{'role':'system','content':5}]}", "messages[0].content", "invalid_type",
                        "a string or an array"),
                bad("{'model':'m','messages':[" + USER + ",{'role':'user','content':[{'type':'text','text':'a'},"
                        + "{'type':'image_url','image_url':{'url':'data:image/png;base64," + s + "'}}]}]}",
                        "messages[1].content[1].type", "unsupported_value", "not supported by this gateway yet"),
                bad("{'model':'m','messages':[{'role':'user','content':[{'type':'input_audio','input_audio':{'data':'"
                        + s + "','format':'wav'}}]}]}", "messages[0].content[0].type", "unsupported_value",
                        "not supported by this gateway yet"),
                bad("{'model':'m','messages':[{'role':'user','content':[{'type':'file','file':{'file_data':'" + s
                        + "'}}]}]}", "messages[0].content[0].type", "unsupported_value", "not supported by this gateway yet"),
                bad("{'model':'m','messages':[{'role':'user','content':[{'type':'" + s + "'}]}]}",
                        "messages[0].content[0].type", "invalid_value", "must be 'text'"),
                bad("{'model':'m','messages':[{'role':'user','content':[{'type':'text'}]}]}",
                        "messages[0].content[0].text", "missing_required_parameter", "text"),
                bad("{'model':'m','messages':[{'role':'user','content':[{'type':'refusal','refusal':'" + s + "'}]}]}",
                        "messages[0].content[0].type", "invalid_value", "assistant"),
                bad(assistant.formatted("{'type':'function','function':{'name':'f','arguments':'" + s + "'}}"),
                        "messages[1].tool_calls[0].id", "missing_required_parameter", "id"),
                bad(assistant.formatted("{'id':'c','type':'function'}"), "messages[1].tool_calls[0].function",
                        "missing_required_parameter", "function"),
                bad(assistant.formatted("{'id':'c','function':{'arguments':'" + s + "'}}"),
                        "messages[1].tool_calls[0].function.name", "missing_required_parameter", "name"),
                bad(assistant.formatted("{'id':'c','type':'custom','custom':{'name':'f','input':'" + s + "'}}"),
                        "messages[1].tool_calls[0].type", "unsupported_value", "not supported by this gateway yet"),
                bad("{'model':'m','messages':[{'role':'assistant','content':'x','reasoning_content':{'t':'" + s + "'}}]}",
                        "messages[0].reasoning_content", "invalid_type", "a string"),
                bad("{'model':'m','messages':[{'role':'assistant','function_call':{'name':'f','arguments':'" + s + "'}}]}",
                        "messages[0].function_call", "unsupported_value", "tool_calls"),
                bad("{'model':'m','messages':[{'role':'assistant','audio':{'id':'" + s + "'}}]}",
                        "messages[0].audio", "unsupported_value", "not supported by this gateway yet"),
                bad("{'model':'m','messages':[" + USER + ",{'role':'tool','content':'" + s + "'}]}",
                        "messages[1].tool_call_id", "missing_required_parameter", "tool_call_id"),
                bad("{" + m + ",'n':2}", "n", "unsupported_value", "not supported by this gateway yet"),
                bad("{" + m + ",'n':0}", "n", "invalid_value", "at least 1"),
                bad("{" + m + ",'tools':[{'type':'web_search','name':'" + s + "'}]}", "tools[0].type",
                        "unsupported_value", "not supported by this gateway yet"),
                bad("{" + m + ",'tools':[{'function':{'name':'f'}}]}", "tools[0].type", "missing_required_parameter", "type"),
                bad("{" + m + ",'tools':[{'type':'function','function':{'description':'" + s + "'}}]}",
                        "tools[0].function.name", "missing_required_parameter", "name"),
                bad("{" + m + ",'tools':[{'type':'function','function':{'name':' '}}]}", "tools[0].function.name",
                        "invalid_value", "blank"),
                bad("{" + m + ",'tools':[{'type':'function','function':{'name':'f','parameters':'" + s + "'}}]}",
                        "tools[0].function.parameters", "invalid_type", "an object"),
                bad("{" + m + "," + tool + ",'tool_choice':'" + s + "'}", "tool_choice", "invalid_value", "auto"),
                bad("{" + m + "," + tool + ",'tool_choice':{'type':'function','function':{'name':'" + s + "'}}}",
                        "tool_choice.function.name", "invalid_value", "one of the tools"),
                bad("{" + m + "," + tool + ",'tool_choice':{'type':'allowed_tools'}}", "tool_choice.type",
                        "unsupported_value", "not supported by this gateway yet"),
                bad("{" + m + ",'tool_choice':'required'}", "tool_choice", "invalid_value", "requires tools"),
                bad("{" + m + ",'tool_choice':5}", "tool_choice", "invalid_type", "a string or an object"),
                bad("{" + m + ",'reasoning_effort':'" + s + "'}", "reasoning_effort", "invalid_value", "xhigh"),
                bad("{" + m + ",'max_tokens':0}", "max_tokens", "invalid_value", "between 1"),
                bad("{" + m + ",'max_completion_tokens':'" + s + "'}", "max_completion_tokens", "invalid_type", "integer"),
                bad("{" + m + ",'max_tokens':1e12}", "max_tokens", "invalid_value", "between 1"),
                bad("{" + m + ",'temperature':'" + s + "'}", "temperature", "invalid_type", "a number"),
                bad("{" + m + ",'top_p':[1]}", "top_p", "invalid_type", "a number"),
                bad("{" + m + ",'seed':1.5}", "seed", "invalid_type", "an integer"),
                bad("{" + m + ",'stop':['a',5]}", "stop[1]", "invalid_type", "a string"),
                bad("{" + m + ",'stop':{'x':'" + s + "'}}", "stop", "invalid_type", "a string or an array"),
                bad("{" + m + ",'metadata':{'a':{'b':'" + s + "'}}}", "metadata.a", "invalid_type", "a string"),
                bad("{" + m + ",'stream':'" + s + "'}", "stream", "invalid_type", "a boolean"),
                bad("{" + m + ",'stream_options':{'include_usage':'" + s + "'}}", "stream_options.include_usage",
                        "invalid_type", "a boolean"),
                bad("{" + m + ",'parallel_tool_calls':'yes'}", "parallel_tool_calls", "invalid_type", "a boolean"),
                bad("{" + m + ",'user':{'id':'" + s + "'}}", "user", "invalid_type", "a string"),
                bad("{" + m + ",'response_format':{'type':'json_schema','json_schema':{'name':'" + s + "'}}}",
                        "response_format.type", "unsupported_value", "not supported by this gateway yet"),
                bad("{" + m + ",'response_format':{'type':'" + s + "'}}", "response_format.type", "invalid_value", "text"),
                bad("{" + m + ",'modalities':['text','audio']}", "modalities[1]", "unsupported_value",
                        "not supported by this gateway yet"),
                bad("{" + m + ",'audio':{'voice':'" + s + "'}}", "audio", "unsupported_value",
                        "not supported by this gateway yet"),
                bad("{" + m + ",'functions':[{'name':'" + s + "'}]}", "functions", "unsupported_parameter", "tools"),
                bad("{" + m + ",'function_call':'auto'}", "function_call", "unsupported_parameter", "tools"));
    }

    private static Arguments bad(String singleQuoted, String param, String code, String says) {
        return Arguments.of(json(singleQuoted), param, code, says);
    }

    @ParameterizedTest(name = "{1} {2}")
    @MethodSource("badBodies")
    void aBadBodyIsAnOpenAiShaped400NamingThePlaceNotTheValue(String body, String param, String code, String says) {
        ClientRequestException e = catchThrowableOfType(ClientRequestException.class,
                () -> ChatCompletionsRequestReader.read(body));

        assertThat(e).as("refused").isNotNull();
        OpenAiError error = e.error();
        assertThat(error.status()).isEqualTo(400);
        assertThat(error.type()).isEqualTo("invalid_request_error");
        assertThat(error.param()).isEqualTo(param);
        assertThat(error.code()).isEqualTo(code);
        assertThat(error.message()).contains(says);
        assertThat(error.toJson()).doesNotContain(SECRET).doesNotContain("SECRETVALUE");
        assertThat(e.getMessage()).doesNotContain(SECRET);
    }

    @Test
    void anOversizedBodyIsRefusedBeforeItIsRead() {
        String body = json("{'model':'m','messages':[{'role':'user','content':'" + "x".repeat(200) + "'}]}");

        ClientRequestException e = catchThrowableOfType(ClientRequestException.class,
                () -> ChatCompletionsRequestReader.read(body, 100));

        assertThat(e.error().status()).isEqualTo(413);
        assertThat(e.error().code()).isEqualTo("request_too_large");
        assertThat(ChatCompletionsRequestReader.read(body, body.length()).messages()).hasSize(1);
        assertThat(ChatCompletionsRequestReader.DEFAULT_MAX_BODY_CHARS).isEqualTo(8 * 1024 * 1024);
    }

    @Test
    void jsonNestedTooDeepIsAClear400() {
        String body = "{\"model\":\"m\",\"messages\":[" + USER.replace('\'', '"') + "],\"metadata\":"
                + "[".repeat(5000) + "]".repeat(5000) + "}";

        ClientRequestException e = catchThrowableOfType(ClientRequestException.class,
                () -> ChatCompletionsRequestReader.read(body));

        assertThat(e.error().status()).isEqualTo(400);
        assertThat(e.error().message()).contains("nests JSON deeper");
    }
}
