package dev.ruminate.providers.serving;

import dev.ruminate.core.error.AuthenticationException;
import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RateLimitException;
import dev.ruminate.core.error.RejectedException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.error.TransportException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.providers.internal.JsonWriting;
import java.io.StringWriter;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * An error as OpenAI's APIs show it to their clients: an HTTP status, and the body
 * {@code {"error":{"message","type","param","code"}}}, or, inside a Responses stream, the
 * {@code {"code","message"}} object of {@code response.failed}.
 *
 * <p>{@link #ofUpstreamFailure} describes a failure of the provider behind a service in words of
 * the service's own: the kind of failure and the provider's HTTP status at most, never the
 * provider's body, message or payload excerpt, which may hold another tenant's data, the provider's
 * internals or echoed secrets. Codes come from the set OpenAI's own types declare for
 * {@code response.failed} ({@code server_error}, {@code rate_limit_exceeded}) where one fits.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param status the HTTP status to answer with
 * @param type the error type ({@code invalid_request_error}, {@code authentication_error},
 *     {@code rate_limit_error}, {@code not_found_error}, {@code server_error})
 * @param code the error code, if any
 * @param message what went wrong, for a person; never holds upstream payload
 * @param param the request parameter at fault, as a path such as {@code input[2].type}, if any
 * @since 0.2
 */
public record OpenAiError(int status, String type, @Nullable String code, String message, @Nullable String param) {

    /**
     * Creates the value, checking its components.
     *
     * @param status see {@link #status()}
     * @param type see {@link #type()}
     * @param code see {@link #code()}
     * @param message see {@link #message()}
     * @param param see {@link #param()}
     */
    public OpenAiError {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("status must be 4xx or 5xx: " + status);
        }
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(message, "message");
    }

    /**
     * An error in what the client sent: status 400, type {@code invalid_request_error}.
     *
     * @param message what is wrong; name the place, not the client's values
     * @param param the parameter at fault, if known
     * @param code a code such as {@code invalid_value} or {@code unknown_parameter}, if any
     * @return the error
     */
    public static OpenAiError invalidRequest(String message, @Nullable String param, @Nullable String code) {
        return new OpenAiError(400, "invalid_request_error", code, message, param);
    }

    /**
     * Describes a failure of the provider behind a service, for the service's client.
     *
     * @param failure what the provider call failed with
     * @return the error: 429 {@code rate_limit_exceeded} for the provider's or the service's own
     *     rate limit, 504 for a silent provider, else 502 {@code server_error}
     */
    public static OpenAiError ofUpstreamFailure(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
        if (failure instanceof RateLimitException) {
            return new OpenAiError(429, "rate_limit_error", "rate_limit_exceeded",
                    "The model provider is rate limiting requests; try again later.", null);
        }
        if (failure instanceof RejectedException r) {
            return r.guard() == RejectedException.Guard.RATE_LIMITER
                    ? new OpenAiError(429, "rate_limit_error", "rate_limit_exceeded",
                            "Too many requests to this model; try again later.", null)
                    : new OpenAiError(503, "server_error", "server_error",
                            "The model provider is unavailable; try again later.", null);
        }
        if (failure instanceof StreamTimeoutException) {
            return new OpenAiError(504, "server_error", "server_error",
                    "The model provider stopped answering before the response was complete.", null);
        }
        if (failure instanceof IncompleteStreamException) {
            return upstream("The model provider's stream ended before the response was complete.");
        }
        if (failure instanceof ProtocolException) {
            return upstream("The model provider sent a response this service could not read.");
        }
        if (failure instanceof ProviderStreamException) {
            return upstream("The model provider reported an error during the response.");
        }
        // before ProviderHttpException, which it extends
        if (failure instanceof AuthenticationException) {
            return upstream("This service could not authenticate to the model provider.");
        }
        if (failure instanceof ProviderHttpException h) {
            return upstream("The model provider answered with HTTP status " + h.status() + ".");
        }
        if (failure instanceof UnsupportedInputException u) {
            // the client's own input, refused by the backend's encoder before anything was sent: a 400 that
            // says what kind of input, in this service's words (the detail names the backend's positions)
            return new OpenAiError(400, "invalid_request_error", "unsupported_value",
                    "The model behind this service does not take part of this input: " + switch (u.reason()) {
                        case KIND -> "a kind of content or structured-output form it does not read";
                        case MEDIA_TYPE -> "a media type it does not read";
                        case SOURCE -> "a media URL it cannot fetch (give the data instead)";
                        case TOO_LARGE -> "media over its size or count limits";
                    } + ".", null);
        }
        if (failure instanceof InvalidRequestException) {
            return upstream("The request could not be sent to the model provider.");
        }
        if (failure instanceof TransportException) {
            return upstream("This service could not reach the model provider.");
        }
        return new OpenAiError(500, "server_error", "server_error", "The service failed to answer.", null);
    }

    private static OpenAiError upstream(String message) {
        return new OpenAiError(502, "server_error", "server_error", message, null);
    }

    /**
     * Writes the HTTP error body: {@code {"error":{"message":…,"type":…,"param":…,"code":…}}}, with
     * {@code null} for an absent param or code, as OpenAI writes them.
     *
     * @return the JSON text
     */
    public String toJson() {
        return write(g -> {
            g.writeStartObject();
            g.writeName("error");
            writeErrorObject(g);
            g.writeEndObject();
        });
    }

    /**
     * Writes this error's fields as one object, {@code {"message","type","param","code"}}, for a
     * writer that embeds it (a Chat Completions stream's error chunk, say).
     *
     * @return the JSON text of the object
     */
    public String toErrorObjectJson() {
        return write(this::writeErrorObject);
    }

    /**
     * Writes the {@code error} object of a Responses {@code response.failed}:
     * {@code {"code":…,"message":…}}, the code {@code server_error} when this error has none.
     *
     * @return the JSON text of the object
     */
    public String toResponsesErrorJson() {
        return write(g -> {
            g.writeStartObject();
            g.writeStringProperty("code", code != null ? code : "server_error");
            g.writeStringProperty("message", message);
            g.writeEndObject();
        });
    }

    private void writeErrorObject(JsonGenerator g) {
        g.writeStartObject();
        g.writeStringProperty("message", message);
        g.writeStringProperty("type", type);
        JsonWriting.nullableString(g, "param", param);
        JsonWriting.nullableString(g, "code", code);
        g.writeEndObject();
    }

    private static String write(java.util.function.Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(160);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            body.accept(g);
        }
        return out.toString();
    }
}
