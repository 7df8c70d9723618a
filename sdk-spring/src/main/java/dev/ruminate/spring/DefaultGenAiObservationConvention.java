package dev.ruminate.spring;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.request.SamplingOptions;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The OpenTelemetry GenAI semantic conventions for a client call: observation
 * {@value GenAiAttributes#OBSERVATION}, contextual (span) name {@code "{gen_ai.operation.name} {gen_ai.request.model}"}
 * (e.g. {@code chat gpt-4o}).
 *
 * <p>Low-cardinality key values (also the tags of Ruminate's meters): {@code gen_ai.operation.name},
 * {@code gen_ai.provider.name}, {@code gen_ai.request.model}, {@code gen_ai.response.model} (once known),
 * {@code error.type} (on failure only), and Ruminate's {@code ruminate.provider} (the configured name) and
 * {@code ruminate.outcome}.
 *
 * <p>High-cardinality key values: {@code gen_ai.response.id}, {@code gen_ai.response.finish_reasons},
 * {@code gen_ai.request.max_tokens}/{@code temperature}/{@code top_p} when the request sets them, the
 * {@code gen_ai.usage.*} token counts the provider reported; and, only when the application opted in
 * ({@link GenAiObservationContext#captureContent()}), {@code gen_ai.system_instructions},
 * {@code gen_ai.input.messages} and {@code gen_ai.output.messages} as JSON.
 *
 * <p>Stateless and thread-safe; extend it to add or change key values.
 *
 * @since 0.4
 */
public class DefaultGenAiObservationConvention implements GenAiObservationConvention {

    /** Creates the convention. */
    public DefaultGenAiObservationConvention() {
    }

    @Override
    public String getName() {
        return GenAiAttributes.OBSERVATION;
    }

    @Override
    public String getContextualName(GenAiObservationContext context) {
        return context.operationName() + " " + context.request().model();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(GenAiObservationContext context) {
        List<KeyValue> values = new ArrayList<>();
        values.add(KeyValue.of(GenAiAttributes.OPERATION_NAME, context.operationName()));
        values.add(KeyValue.of(GenAiAttributes.PROVIDER_NAME, context.providerName()));
        values.add(KeyValue.of(GenAiAttributes.REQUEST_MODEL, context.request().model()));
        String responseModel = context.responseModel();
        if (responseModel != null) {
            values.add(KeyValue.of(GenAiAttributes.RESPONSE_MODEL, responseModel));
        }
        Throwable error = context.getError();
        if (error != null) {
            values.add(KeyValue.of(GenAiAttributes.ERROR_TYPE, errorType(error)));
        }
        values.add(KeyValue.of(GenAiAttributes.RUMINATE_PROVIDER, context.configuredName()));
        values.add(KeyValue.of(GenAiAttributes.RUMINATE_OUTCOME,
                context.outcome().name().toLowerCase(java.util.Locale.ROOT)));
        return KeyValues.of(values);
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(GenAiObservationContext context) {
        List<KeyValue> values = new ArrayList<>();
        add(values, GenAiAttributes.RESPONSE_ID, context.responseId());
        add(values, GenAiAttributes.FINISH_REASONS, context.finishReason());
        SamplingOptions sampling = context.request().sampling();
        add(values, GenAiAttributes.REQUEST_MAX_TOKENS, sampling.maxOutputTokens());
        add(values, GenAiAttributes.REQUEST_TEMPERATURE, sampling.temperature());
        add(values, GenAiAttributes.REQUEST_TOP_P, sampling.topP());
        Usage usage = context.usage();
        add(values, GenAiAttributes.USAGE_INPUT_TOKENS, usage.inputTokens());
        add(values, GenAiAttributes.USAGE_OUTPUT_TOKENS, usage.outputTokens());
        add(values, GenAiAttributes.USAGE_REASONING_TOKENS, usage.reasoningTokens());
        add(values, GenAiAttributes.USAGE_CACHE_READ_TOKENS, usage.cachedTokens());
        add(values, GenAiAttributes.USAGE_CACHE_CREATION_TOKENS, usage.cacheWriteTokens());
        if (context.captureContent()) {
            add(values, GenAiAttributes.SYSTEM_INSTRUCTIONS, GenAiContent.systemInstructions(context.request()));
            values.add(KeyValue.of(GenAiAttributes.INPUT_MESSAGES, GenAiContent.inputMessages(context.request())));
            if (context.outcome() != GenAiObservationContext.Outcome.PENDING) {
                values.add(KeyValue.of(GenAiAttributes.OUTPUT_MESSAGES, GenAiContent.outputMessages(
                        context.outputReasoning(), context.outputText(), context.finishReason())));
            }
        }
        return KeyValues.of(values);
    }

    /**
     * The {@code error.type} of a failure: Ruminate's error type (a short stable code such as
     * {@code rate_limited} or {@code timeout}), else the exception's fully qualified class name, as the
     * conventions recommend.
     *
     * @param error the failure
     * @return the type
     */
    protected String errorType(Throwable error) {
        return error instanceof RuminateException r ? r.type() : error.getClass().getName();
    }

    private static void add(List<KeyValue> values, String key, @Nullable Object value) {
        if (value != null) {
            values.add(KeyValue.of(key, String.valueOf(value)));
        }
    }
}
