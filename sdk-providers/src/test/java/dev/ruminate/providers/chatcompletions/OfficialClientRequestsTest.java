package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bodies openai-node, {@code @ai-sdk/openai} and {@code @ai-sdk/openai-compatible} send (captured
 * from the clients themselves, see {@code client-requests/README.md}) are read whole: no client is
 * turned away for what its SDK writes, and the conversation comes out as it went in.
 */
class OfficialClientRequestsTest {

    private static String body(String client) {
        try (InputStream in = OfficialClientRequestsTest.class.getResourceAsStream("/client-requests/" + client + ".request.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai-node", "ai-sdk-openai", "ai-sdk-openai-compatible"})
    void eachClientsBodyIsReadWhole(String client) {
        ChatCompletionsCall call = ChatCompletionsRequestReader.read(body(client));

        assertThat(call.model()).isEqualTo("m");
        assertThat(call.stream()).isTrue();
        assertThat(call.messages()).hasSize(4);
        assertThat(call.messages().get(0)).isEqualTo(new SystemMessage("Be brief."));
        assertThat(call.messages().get(1).toString()).contains("Weather in Paris?");
        AssistantMessage turn = (AssistantMessage) call.messages().get(2);
        assertThat(turn.provider()).isNull();
        assertThat(turn.toolCalls()).containsExactly(
                new ToolCallPart("call_1", "weather", "{\"city\":\"Paris\"}", true, Seals.NONE));
        assertThat(call.messages().get(3)).isEqualTo(new ToolResultMessage("call_1", "weather", "{\"sky\":\"sunny\"}", false));
        assertThat(call.tools()).singleElement().satisfies(t -> assertThat(t.name()).isEqualTo("weather"));
        assertThat(call.maxOutputTokens()).isEqualTo(500);
        assertThat(call.temperature()).isEqualTo(0.3);
        assertThat(call.stop()).containsExactly("END");
        assertThat(call.seed()).isEqualTo(3L);

        ChatRequest request = call.toChatRequest("upstream");
        assertThat(request.messages()).isEqualTo(call.messages());
        assertThat(request.tools()).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai-node", "ai-sdk-openai-compatible"})
    void theReasoningAClientSendsBackIsKept(String client) {
        AssistantMessage turn = (AssistantMessage) ChatCompletionsRequestReader.read(body(client)).messages().get(2);

        assertThat(turn.reasoning()).isEqualTo("They want the weather.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai-node", "ai-sdk-openai"})
    void theOpenAiClientsOptionsAreRead(String client) {
        ChatCompletionsCall call = ChatCompletionsRequestReader.read(body(client));

        assertThat(call.reasoningEffort()).isEqualTo(ReasoningEffort.HIGH);
        assertThat(call.parallelToolCalls()).isFalse();
        assertThat(call.user()).isEqualTo("u1");
        assertThat(call.includeUsage()).isTrue();
    }
}
