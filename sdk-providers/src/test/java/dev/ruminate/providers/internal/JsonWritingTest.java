package dev.ruminate.providers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The writers the request encoders share: what they write, and how they refuse what is not JSON. */
class JsonWritingTest {

    private static final ToolDefinition WEATHER =
            new ToolDefinition("weather", "", "{\"type\":\"object\",\"properties\":{}}");

    @Test
    void quotedGivesAJsonStringLiteral() {
        assertThat(JsonWriting.quoted("a \"b\"\n\u00e9\u0001")).isEqualTo("\"a \\\"b\\\"\\n\u00e9\\u0001\"");
        assertThat(JsonWriting.quoted("")).isEqualTo("\"\"");
    }

    @Test
    void writesBlankArgumentsAsAnEmptyObjectAndOthersAsTheirJson() {
        ToolCallPart blank = new ToolCallPart("c1", "now", " ", true, Seals.NONE);
        ToolCallPart args = new ToolCallPart("c2", "weather", "{\"city\": \"Oslo\"}", true, Seals.NONE);
        assertThat(Json.inObject(g -> {
            g.writeName("a");
            JsonWriting.writeArguments(g, blank);
            g.writeName("b");
            JsonWriting.writeArguments(g, args);
        })).isEqualTo("{\"a\":{},\"b\":{\"city\":\"Oslo\"}}");
    }

    @Test
    void refusesArgumentsThatAreNotOneJsonValueNamingTheCall() {
        ToolCallPart broken = new ToolCallPart("c1", "weather", "{\"city\":", false, Seals.NONE);
        assertThatThrownBy(() -> Json.inObject(g -> {
            g.writeName("input");
            JsonWriting.writeArguments(g, broken);
        })).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the arguments of tool call weather is not valid JSON");
    }

    @Test
    void refusesASchemaThatIsNotOneJsonValueNamingTheTool() {
        ToolDefinition twoValues = new ToolDefinition("weather", "", "{} {}");
        assertThatThrownBy(() -> Json.inObject(g -> {
            g.writeName("parameters");
            JsonWriting.writeSchema(g, twoValues);
        })).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tool weather has a parameters schema that has text after its JSON value");
    }

    @Test
    void writesSystemAndUserMessagesAsRoleAndContentAndRefusesTheOthers() {
        assertThat(Json.written(g -> {
            g.writeStartArray();
            JsonWriting.writePlainMessage(g, new SystemMessage("Be brief."));
            JsonWriting.writePlainMessage(g, new UserMessage("Hi"));
            g.writeEndArray();
        })).isEqualTo("[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi\"}]");
        AssistantMessage assistant = AssistantMessage.ofText("no");
        assertThatThrownBy(() -> Json.written(g -> JsonWriting.writePlainMessage(g, assistant)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("AssistantMessage");
    }

    @Test
    void writesTheThreeFormsOfAFunctionTool() {
        List<ToolDefinition> tools = List.of(WEATHER, new ToolDefinition("now", "The time", "{}"));
        assertThat(Json.inObject(g -> FunctionTools.writeNested(g, tools))).isEqualTo("{\"tools\":["
                + "{\"type\":\"function\",\"function\":{\"name\":\"weather\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{}}}},"
                + "{\"type\":\"function\",\"function\":"
                + "{\"name\":\"now\",\"description\":\"The time\",\"parameters\":{}}}]}");
        assertThat(Json.inObject(g -> FunctionTools.writeFlat(g, tools))).isEqualTo("{\"tools\":["
                + "{\"type\":\"function\",\"name\":\"weather\",\"parameters\":{\"type\":\"object\",\"properties\":{}}},"
                + "{\"type\":\"function\",\"name\":\"now\",\"description\":\"The time\",\"parameters\":{}}]}");
        assertThat(Json.inObject(g -> FunctionTools.writeDeclaration(g, WEATHER, "parametersJsonSchema")))
                .isEqualTo("{\"name\":\"weather\",\"parametersJsonSchema\":{\"type\":\"object\",\"properties\":{}}}");
    }

    @Test
    void writesTheSystemTextsInOrderAsTextObjects() {
        List<String> texts = SystemTexts.of(List.of(new SystemMessage("one"), new UserMessage("hi"),
                new SystemMessage("two")));
        assertThat(texts).containsExactly("one", "two");
        assertThat(Json.written(g -> {
            g.writeStartArray();
            SystemTexts.writeTextObjects(g, texts);
            g.writeEndArray();
        })).isEqualTo("[{\"text\":\"one\"},{\"text\":\"two\"}]");
    }

    @Test
    void endsTheBodyWithTheExtrasAndLeavesTheModelToAnExtraOfThatName() {
        ChatRequest request = ChatRequest.builder("m1").user("hi").extra("model", "m2").extra("store", false).build();
        byte[] body = RequestBody.write(request, 16, g -> {
            RequestBody.writeModel(g, request);
            g.writeStringProperty("own", "field");
        });
        assertThat(new String(body, StandardCharsets.UTF_8))
                .isEqualTo("{\"own\":\"field\",\"model\":\"m2\",\"store\":false}");
    }
}
