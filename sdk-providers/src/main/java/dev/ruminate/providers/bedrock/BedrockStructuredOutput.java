package dev.ruminate.providers.bedrock;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.internal.StructuredOutputs;
import org.jspecify.annotations.Nullable;

/**
 * How Converse carries an output schema, the one decision {@link BedrockCodec} reports and its
 * encoder writes. The AUTO and TOOL strategies use the output tool: forced
 * ({@code toolChoice: {"tool": {"name": …}}}) while thinking is off, offered with
 * {@code toolChoice: {"auto": {}}} and an instruction while Claude's thinking is on (a forced tool
 * with thinking is a 400, PROTOCOLS.md §19). The NATIVE strategy writes
 * {@code outputConfig.textFormat} (UNVERIFIED: not seen in a recorded request, so AUTO does not pick
 * it; only a caller who asks for it gets it).
 *
 * <p>Stateless and thread-safe.
 */
final class BedrockStructuredOutput {

    private BedrockStructuredOutput() {
    }

    /**
     * Decides the method for a request's output schema.
     *
     * @param request the request
     * @param reasoning the reasoning fields the encoder writes for it
     * @return the method, or null when the request has no output schema
     */
    static @Nullable StructuredOutputMethod method(ChatRequest request, BedrockReasoning reasoning) {
        OutputSchema output = request.output();
        if (output == null) {
            return null;
        }
        boolean nativeAsked = output.strategy() == OutputSchema.Strategy.NATIVE;
        return new StructuredOutputs(nativeAsked, true, !reasoning.on(), false).method(output);
    }
}
