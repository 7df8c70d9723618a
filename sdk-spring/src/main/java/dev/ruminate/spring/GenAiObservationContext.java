package dev.ruminate.spring;

import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.ChatRequest;
import io.micrometer.observation.Observation;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The facts of one generative AI call that a {@link GenAiObservationConvention} names and tags: what
 * was asked (the request, the provider) and, as the response streams, what came back (model, id,
 * finish reason, usage, time to the first chunk, how it ended).
 *
 * <p>A {@link SenderContext} of kind {@link Kind#CLIENT}, so tracing bridges make client spans, as the
 * conventions ask. It has no carrier: the trace context travels in the HTTP request, which the
 * client's own instrumentation (Reactor Netty's) propagates; this context's setter writes nothing.
 *
 * <p>Ruminate fills it as the events pass; a convention reads it. The response facts are written by
 * the stream's signals and may be read from another thread (a cancellation), so they are volatile.
 * The request's content is here for conventions that record it, but {@link DefaultGenAiObservationConvention}
 * records it only when {@link #captureContent()} is true ({@code ruminate.observations.capture-content}).
 *
 * @since 0.4
 */
public class GenAiObservationContext extends SenderContext<Object> {

    /** How a call ended. */
    public enum Outcome {
        /** Still streaming. */
        PENDING,
        /** Completed normally. */
        SUCCESS,
        /** Failed; {@link Observation.Context#getError()} holds the failure. */
        ERROR,
        /** The subscriber cancelled before the end. */
        CANCELLED
    }

    private final String operationName;
    private final String providerName;
    private final String configuredName;
    private final ChatRequest request;
    private final boolean captureContent;
    private volatile @Nullable String responseModel;
    private volatile @Nullable String responseId;
    private volatile @Nullable String finishReason;
    private volatile Usage usage = Usage.UNKNOWN;
    private volatile @Nullable Duration timeToFirstChunk;
    private volatile Outcome outcome = Outcome.PENDING;
    private final StringBuilder outputText = new StringBuilder();
    private final StringBuilder outputReasoning = new StringBuilder();

    /**
     * Creates the context of a call.
     *
     * @param operationName the {@code gen_ai.operation.name}, e.g. {@code chat}
     * @param providerName the {@code gen_ai.provider.name}
     * @param configuredName the provider's name under {@code ruminate.providers}
     * @param request the request
     * @param captureContent whether the prompts and completions may be recorded
     */
    public GenAiObservationContext(String operationName, String providerName, String configuredName,
                                   ChatRequest request, boolean captureContent) {
        super((carrier, key, value) -> {
        }, Kind.CLIENT);
        this.operationName = Objects.requireNonNull(operationName, "operationName");
        this.providerName = Objects.requireNonNull(providerName, "providerName");
        this.configuredName = Objects.requireNonNull(configuredName, "configuredName");
        this.request = Objects.requireNonNull(request, "request");
        this.captureContent = captureContent;
    }

    /**
     * Returns the {@code gen_ai.operation.name}, e.g. {@code chat}.
     *
     * @return the {@code gen_ai.operation.name}, e.g. {@code chat}
     */
    public String operationName() {
        return operationName;
    }

    /**
     * Returns the {@code gen_ai.provider.name}: a well-known value of the conventions, else Ruminate's provider name.
     *
     * @return the {@code gen_ai.provider.name}: a well-known value of the conventions, else Ruminate's provider name
     */
    public String providerName() {
        return providerName;
    }

    /**
     * Returns the provider's name under {@code ruminate.providers} (the bean name).
     *
     * @return the provider's name under {@code ruminate.providers} (the bean name)
     */
    public String configuredName() {
        return configuredName;
    }

    /**
     * Returns the request; its messages are the user's content, to be recorded only when {@link #captureContent()}.
     *
     * @return the request; its messages are the user's content, to be recorded only when {@link #captureContent()}
     */
    public ChatRequest request() {
        return request;
    }

    /**
     * Returns whether prompts and completions may be recorded (off unless the application opts in).
     *
     * @return whether prompts and completions may be recorded (off unless the application opts in)
     */
    public boolean captureContent() {
        return captureContent;
    }

    /**
     * Returns the model the server said answered, or null before it said so (or if it never does).
     *
     * @return the model the server said answered, or null before it said so (or if it never does)
     */
    public @Nullable String responseModel() {
        return responseModel;
    }

    /**
     * Returns the server's id of the response, or null if unknown.
     *
     * @return the server's id of the response, or null if unknown
     */
    public @Nullable String responseId() {
        return responseId;
    }

    /**
     * Returns the finish reason ({@code stop}, {@code length}, {@code tool_calls}, …), or null before the end.
     *
     * @return the finish reason ({@code stop}, {@code length}, {@code tool_calls}, …), or null before the end
     */
    public @Nullable String finishReason() {
        return finishReason;
    }

    /**
     * Returns the tokens used so far, over every attempt of the call; {@link Usage#UNKNOWN} if none reported.
     *
     * @return the tokens used so far, over every attempt of the call; {@link Usage#UNKNOWN} if none reported
     */
    public Usage usage() {
        return usage;
    }

    /**
     * Returns the time from subscription to the first chunk of the response, or null if none arrived.
     *
     * @return the time from subscription to the first chunk of the response, or null if none arrived
     */
    public @Nullable Duration timeToFirstChunk() {
        return timeToFirstChunk;
    }

    /**
     * Returns how the call ended, {@link Outcome#PENDING} while it streams.
     *
     * @return how the call ended, {@link Outcome#PENDING} while it streams
     */
    public Outcome outcome() {
        return outcome;
    }

    /**
     * Returns the answer's text so far; kept only when {@link #captureContent()}.
     *
     * @return the text, empty when not captured
     */
    public String outputText() {
        synchronized (outputText) {
            return outputText.toString();
        }
    }

    /**
     * Returns the reasoning text so far; kept only when {@link #captureContent()}.
     *
     * @return the text, empty when not captured
     */
    public String outputReasoning() {
        synchronized (outputReasoning) {
            return outputReasoning.toString();
        }
    }

    void responseModel(@Nullable String value) {
        responseModel = value;
    }

    void responseId(@Nullable String value) {
        responseId = value;
    }

    void finishReason(String value) {
        finishReason = value;
    }

    void usage(Usage value) {
        usage = value;
    }

    void timeToFirstChunk(Duration value) {
        timeToFirstChunk = value;
    }

    void outcome(Outcome value) {
        outcome = value;
    }

    void appendText(String text) {
        if (captureContent) {
            synchronized (outputText) {
                outputText.append(text);
            }
        }
    }

    void appendReasoning(String text) {
        if (captureContent) {
            synchronized (outputReasoning) {
                outputReasoning.append(text);
            }
        }
    }

    @Override
    public String toString() {
        // never the content: it may be personal data
        return "GenAiObservationContext[" + operationName + " " + providerName + " " + request.model() + ", " + outcome + "]";
    }
}
