package dev.ruminate.providers.chatcompletions;

import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.message.FinishReason;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Focused cases for whole-body decoding (the recordings are in {@link ChatCompletionsFixturesTest}). */
class ChatCompletionsResponseDecoderTest {

    private static Outcome decode(CompatProfile profile, String body) {
        return Fixtures.run(ChatCompletionsCodec.decodeCompletion(profile, body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void indexlessToolCallsOfAMessageAreToldApartByPosition() {
        Folded f = decode(Profiles.OLLAMA, "{\"id\":\"x\",\"model\":\"gpt-oss:20b\",\"choices\":[{\"message\":{\"role\":\"assistant\","
                + "\"content\":\"\",\"reasoning\":\"pick both\",\"tool_calls\":[{\"type\":\"function\",\"function\":{\"name\":\"a\","
                + "\"arguments\":\"{}\"}},{\"type\":\"function\",\"function\":{\"name\":\"b\",\"arguments\":\"{\\\"k\\\":2}\"}}]},"
                + "\"finish_reason\":\"tool_calls\"}]}").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,tool,tool");
        assertThat(f.parts.get(0).finalText).isEqualTo("pick both");
        assertThat(f.parts).extracting(p -> p.toolName).containsExactly(null, "a", "b");
        assertThat(f.parts).extracting(p -> p.toolIndex).containsExactly(-1, 0, 1);
        assertThat(f.parts.get(2).text()).isEqualTo("{\"k\":2}");
    }

    @Test
    void mistralStyleMessageContent() {
        Folded f = decode(Profiles.OPENAI_COMPATIBLE, "{\"choices\":[{\"index\":0,\"message\":{\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"Simple.\"}]},{\"type\":\"text\",\"text\":\"4\"}]},"
                + "\"finish_reason\":\"stop\"}]}").folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.parts.get(0).finalText).isEqualTo("Simple.");
        assertThat(f.text()).isEqualTo("4");
    }

    @Test
    void aBodyWithoutChoicesStillStartsAndCompletes() {
        Folded f = decode(Profiles.OPENAI, "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[]}").folded();

        assertThat(f.events).containsExactly(new ResponseStarted("openai", null, "x"),
                new ResponseCompleted(FinishReason.OTHER, null));
    }

    @Test
    void anErrorObjectInA200BodyIsAProviderError() {
        Outcome outcome = decode(Profiles.OPENROUTER,
                "{\"error\":{\"message\":\"No endpoints found\",\"code\":404},\"user_id\":\"u\"}");

        assertThat(outcome.error()).isInstanceOf(ProviderStreamException.class).hasMessageContaining("No endpoints found");
        assertThat(outcome.events()).isEmpty();
    }

    @Test
    void malformedBodyNamesLineAndOffset() {
        Outcome outcome = decode(Profiles.OPENAI, "{\n  \"id\": \"x\",\n  \"choices\": [ oops ]\n}");

        ProtocolException e = (ProtocolException) outcome.error();
        assertThat(e.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.byteOffset()).isGreaterThan(20);
    }

    @ParameterizedTest
    @ValueSource(strings = {" {\"choices\":[]}", " 1", " xyz", "}"})
    void aBodyWithMoreThanOneValueIsMalformed(String trailing) {
        Outcome outcome = decode(Profiles.OPENAI, "{\"id\":\"x\",\n\"choices\":[]}" + trailing);

        ProtocolException e = (ProtocolException) outcome.error();
        assertThat(e.reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
        assertThat(e.line()).isEqualTo(2);
        assertThat(outcome.events()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aMessageBesideADeltaIsReadAlone(boolean messageFirst) {
        String message = "\"message\":{\"content\":\"whole\",\"reasoning_content\":\"why\"}";
        String delta = "\"delta\":{\"content\":\"le\",\"reasoning_content\":\"y\"}";
        // the finish reason between the two must survive dropping what the delta added
        String finish = ",\"finish_reason\":\"stop\",";
        Folded f = decode(Profiles.DEEPSEEK, "{\"choices\":[{\"index\":0," + (messageFirst ? message + finish + delta : delta + finish + message)
                + "}]}").folded();

        assertThat(f.text()).isEqualTo("whole");
        assertThat(f.reasoning()).isEqualTo("why");
        assertThat(f.completed.rawFinishReason()).isEqualTo("stop");
    }

    @Test
    void wrongShapeBody() {
        Outcome outcome = decode(Profiles.OPENAI, "{\"choices\":[{\"message\":{\"content\":{\"text\":\"x\"}}}]}");

        assertThat(((ProtocolException) outcome.error()).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE);
        assertThat(outcome.error()).hasMessageContaining("`content`");
    }
}
