package dev.ruminate.providers.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RejectedException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.error.TransportException;
import dev.ruminate.core.error.UnsupportedInputException;
import java.io.IOException;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How a service describes its provider's failure to its own clients: each kind of failure gets the
 * status, type and code OpenAI's clients expect, and nothing the provider said (body, message,
 * request id, error fields) reaches the client.
 */
class OpenAiErrorTest {

    /** Looks like a credential a provider might echo back in an error body. */
    private static final String SECRET = "sk-live-7f3a9c0e1b2d4e6f8a0b1c2d3e4f5a6b";

    private static ProviderError providerError() {
        return new ProviderError("invalid_request_error " + SECRET, "code-" + SECRET, "Incorrect API key " + SECRET,
                "param-" + SECRET);
    }

    static Stream<Arguments> failures() {
        ProviderError e = providerError();
        String body = "{\"error\":{\"message\":\"Incorrect API key provided: " + SECRET + "\"}}";
        return Stream.of(
                Arguments.of(new RateLimitException("p", e, "req-" + SECRET, Duration.ofSeconds(3), body),
                        429, "rate_limit_error", "rate_limit_exceeded", "rate limiting"),
                Arguments.of(new RejectedException("p", RejectedException.Guard.RATE_LIMITER, "limiter-" + SECRET),
                        429, "rate_limit_error", "rate_limit_exceeded", "Too many requests"),
                Arguments.of(new RejectedException("p", RejectedException.Guard.CIRCUIT_BREAKER, "cb-" + SECRET),
                        503, "server_error", "server_error", "unavailable"),
                Arguments.of(new RejectedException("p", RejectedException.Guard.BULKHEAD, "bh-" + SECRET),
                        503, "server_error", "server_error", "unavailable"),
                Arguments.of(new StreamTimeoutException(StreamTimeoutException.Phase.IDLE, Duration.ofSeconds(30)),
                        504, "server_error", "server_error", "stopped answering"),
                Arguments.of(new IncompleteStreamException("cut after " + SECRET, null),
                        502, "server_error", "server_error", "ended before"),
                Arguments.of(new ProtocolException(ProtocolException.Reason.MALFORMED_JSON, "near " + SECRET, 3, 40, null),
                        502, "server_error", "server_error", "could not read"),
                Arguments.of(new ProviderStreamException("p", e),
                        502, "server_error", "server_error", "reported an error"),
                Arguments.of(new ProviderHttpException("p", 500, e, "req-" + SECRET, null, body),
                        502, "server_error", "server_error", "HTTP status 500"),
                Arguments.of(new AuthenticationException("p", 401, e, "req-" + SECRET, body),
                        502, "server_error", "server_error", "could not authenticate"),
                Arguments.of(new InvalidRequestException("p", "schema " + SECRET, new IllegalArgumentException(SECRET)),
                        502, "server_error", "server_error", "could not be sent"),
                Arguments.of(new UnsupportedInputException("p", UnsupportedInputException.Reason.MEDIA_TYPE,
                        "message 0, media 0: image/heic " + SECRET, new IllegalArgumentException(SECRET)),
                        400, "invalid_request_error", "unsupported_value", "does not take part of this input: a media type"),
                Arguments.of(new TransportException("connect to " + SECRET, new IOException(SECRET)),
                        502, "server_error", "server_error", "could not reach"),
                Arguments.of(new IllegalStateException("bug holding " + SECRET),
                        500, "server_error", "server_error", "failed to answer"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void eachUpstreamFailureHasItsStatusTypeAndCode(Throwable failure, int status, String type, String code,
                                                    String says) {
        OpenAiError error = OpenAiError.ofUpstreamFailure(failure);

        assertThat(error.status()).isEqualTo(status);
        assertThat(error.type()).isEqualTo(type);
        assertThat(error.code()).isEqualTo(code);
        assertThat(error.param()).isNull();
        assertThat(error.message()).contains(says);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void nothingTheProviderSaidReachesTheClient(Throwable failure, int status, String type, String code, String says) {
        OpenAiError error = OpenAiError.ofUpstreamFailure(failure);

        if (!(failure instanceof StreamTimeoutException)) {
            String inside = failure + " " + failure.getCause() + (failure instanceof ProviderHttpException h ? h.bodyExcerpt() : "");
            assertThat(inside).as("the planted secret is in the failure").contains(SECRET);
        }
        for (String written : new String[] {error.message(), error.toJson(), error.toErrorObjectJson(),
                error.toResponsesErrorJson(), String.valueOf(error)}) {
            assertThat(written).doesNotContain(SECRET).doesNotContain("sk-live").doesNotContain("Incorrect API key");
        }
    }

    @Test
    void theHttpStatusOfTheProviderIsAllThatIsSaidOfItsAnswer() {
        OpenAiError error = OpenAiError.ofUpstreamFailure(
                new ProviderHttpException("p", 418, providerError(), null, null, SECRET));

        assertThat(error.message()).isEqualTo("The model provider answered with HTTP status 418.");
    }

    @Test
    void writesTheBodyAndTheEmbeddedShapes() {
        OpenAiError error = OpenAiError.invalidRequest("Missing required parameter: 'model'.", "model",
                "missing_required_parameter");

        assertThat(error.status()).isEqualTo(400);
        assertThat(error.toJson()).isEqualTo("{\"error\":{\"message\":\"Missing required parameter: 'model'.\","
                + "\"type\":\"invalid_request_error\",\"param\":\"model\",\"code\":\"missing_required_parameter\"}}");
        assertThat(error.toResponsesErrorJson())
                .isEqualTo("{\"code\":\"missing_required_parameter\",\"message\":\"Missing required parameter: 'model'.\"}");
        OpenAiError bare = new OpenAiError(500, "server_error", null, "m", null);
        assertThat(bare.toErrorObjectJson())
                .isEqualTo("{\"message\":\"m\",\"type\":\"server_error\",\"param\":null,\"code\":null}");
        assertThat(bare.toResponsesErrorJson()).isEqualTo("{\"code\":\"server_error\",\"message\":\"m\"}");
    }

    @Test
    void onlyErrorStatusesAreTaken() {
        assertThatThrownBy(() -> new OpenAiError(200, "t", null, "m", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OpenAiError(600, "t", null, "m", null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClientRequestExceptionCarriesItsErrorAndSaysOnlyItsMessage() {
        ClientRequestException e = ClientRequestException.invalid("Invalid type for 'messages[0].content'.",
                "messages[0].content", "invalid_type");

        assertThat(e.error()).isEqualTo(OpenAiError.invalidRequest("Invalid type for 'messages[0].content'.",
                "messages[0].content", "invalid_type"));
        assertThat(e.getMessage()).isEqualTo("Invalid type for 'messages[0].content'.");
        assertThat(e.getStackTrace()).isEmpty();
    }
}
