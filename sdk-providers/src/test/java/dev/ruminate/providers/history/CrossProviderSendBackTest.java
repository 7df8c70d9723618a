package dev.ruminate.providers.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.history.ForeignReasoning;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.responses.ResponsesCodec;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.testing.Recorded;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Switching provider mid-conversation against an accepted request: turn 1 answered by OpenAI
 * Responses (o3-mini, summaries and encrypted reasoning), turn 2 sent to OpenAI Chat Completions,
 * which takes no reasoning back. With reasoning rendered as tagged text, the request is the one
 * OpenAI accepted, byte for byte in its messages; the encrypted content and item id never go.
 */
class CrossProviderSendBackTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void responsesReasoningGoesToChatCompletionsAsTaggedTextAsAccepted() {
        byte[] turn1Body = Recorded.bytes("openai-responses/pydantic-o3-mini-responses-encrypted-reasoning.json");
        AssistantMessage turn1 = ChatReducer.defaults()
                .reduce(ResponsesCodec.decodeResponse(ResponsesProfiles.OPENAI, turn1Body)).block().message();
        JsonNode accepted = JSON.readTree(Recorded.bytes("sendback/openai-chat/pydantic-o3-mini-chat-reasoning-tokens.turn2.request.json"));
        JsonNode acceptedMessages = accepted.get("messages");
        ChatRequest request = ChatRequest.builder("o3-mini")
                .user(acceptedMessages.get(0).get("content").asString())
                .message(turn1)
                .user(acceptedMessages.get(2).get("content").asString())
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .build();

        ChatRequest prepared = History.prepare(request, Profiles.OPENAI.name(),
                HistoryPolicy.DEFAULT.withForeignReasoning(ForeignReasoning.AS_TAGGED_TEXT), Retention.ALL);
        String body = new String(ChatCompletionsCodec.encodeRequest(Profiles.OPENAI, prepared, true), StandardCharsets.UTF_8);

        assertThat(JSON.readTree(body).get("messages")).isEqualTo(acceptedMessages);
        assertThat(turn1.parts().stream().map(p -> p.seals().encrypted()).filter(e -> e != null).findFirst()).isPresent();
        for (var part : turn1.parts()) {
            if (part.seals().encrypted() != null) {
                assertThat(body).doesNotContain(part.seals().encrypted()).doesNotContain(part.seals().itemId());
            }
        }
        String dropped = new String(ChatCompletionsCodec.encodeRequest(Profiles.OPENAI,
                History.prepare(request, Profiles.OPENAI.name(), HistoryPolicy.DEFAULT, Retention.ALL), true), StandardCharsets.UTF_8);
        assertThat(dropped).doesNotContain("<think>");
    }
}
