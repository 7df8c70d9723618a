package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import dev.ruminate.testkit.ResponsesScript;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The non-streaming decoder on bodies that end otherwise than completed, and on bodies that are not responses. */
class ResponsesResponseDecoderTest {

    private static Outcome decode(String body) {
        return Recorded.run(ResponsesCodec.decodeResponse(ResponsesProfiles.OPENAI, body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anIncompleteBodyCompletesWithItsReason() {
        Folded f = decode(ResponsesScript.create().reasoning("rs_1", "E", "Thinking").text("Partial answ")
                .incomplete("max_output_tokens").toResponseJson()).folded();

        assertThat(f.kinds()).isEqualTo("reasoning,text");
        assertThat(f.text()).isEqualTo("Partial answ");
        assertThat(f.completed).isEqualTo(new ResponseCompleted(FinishReason.LENGTH, "max_output_tokens"));
        assertThat(decode(ResponsesScript.create().text("x").incomplete("content_filter").toResponseJson()).folded().completed)
                .isEqualTo(new ResponseCompleted(FinishReason.CONTENT_FILTER, "content_filter"));
    }

    @Test
    void aFailedBodyOrAnErrorBodyIsAProviderStreamException() {
        Outcome failed = decode(ResponsesScript.create().failed("server_error", "Boom").toResponseJson());
        assertThat(failed.error()).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) failed.error()).error()).isEqualTo(new ProviderError(null, "server_error", "Boom", null));

        Outcome error = decode("{\"error\":{\"message\":\"No such model\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}");
        assertThat(error.error()).isInstanceOf(ProviderStreamException.class);
        assertThat(((ProviderStreamException) error.error()).error().code()).isEqualTo("model_not_found");
    }

    @Test
    void malformedAndMisshapenBodiesAreProtocolErrors() {
        Outcome malformed = decode("{\"id\":\"r\",\"output\":[{\"type\":\"message\"");
        assertThat(malformed.error()).isInstanceOf(ProtocolException.class);
        assertThat(((ProtocolException) malformed.error()).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);

        Outcome array = decode("[]");
        assertThat(((ProtocolException) array.error()).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE);
        Outcome item = decode("{\"output\":[\"text\"]}");
        assertThat(((ProtocolException) item.error()).reason()).isEqualTo(ProtocolException.Reason.UNEXPECTED_SHAPE);
        Outcome trailing = decode("{\"output\":[]} {}");
        assertThat(((ProtocolException) trailing.error()).reason()).isEqualTo(ProtocolException.Reason.MALFORMED_JSON);
    }

    @Test
    void aBodyWithoutStatusOrOutputStillCompletes() {
        Folded f = decode("{\"id\":\"r\",\"model\":\"m\"}").folded();

        assertThat(f.parts).isEmpty();
        assertThat(f.completed).isEqualTo(new ResponseCompleted(FinishReason.STOP, "completed"));
    }
}
