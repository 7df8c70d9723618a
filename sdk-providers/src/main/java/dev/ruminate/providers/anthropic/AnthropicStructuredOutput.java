package dev.ruminate.providers.anthropic;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.providers.internal.StructuredOutputs;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How the Messages API carries an output schema, the one decision {@link AnthropicCodec} reports and
 * its encoder writes: the native form, {@code output_config.format} {@code {"type":"json_schema",
 * "schema":…}}, on the models that have it (Claude Sonnet 4.5, Haiku 4.5, Opus 4.1, Opus 4.5 and
 * every later Claude model); else the output tool, forced with {@code tool_choice: {"type":"tool"}}
 * while thinking is off, offered with {@code tool_choice: {"type":"auto"}} and an instruction while
 * it is on, since the API refuses a forced tool choice with thinking ("Thinking may not be enabled
 * when tool_choice forces tool use", PROTOCOLS.md §19).
 *
 * <p>UNVERIFIED: the native field is written in its generally available form,
 * {@code output_config.format}; the November 2025 beta took a top-level {@code output_format} with
 * the header {@code anthropic-beta: structured-outputs-2025-11-13}.
 *
 * <p>Stateless and thread-safe.
 */
final class AnthropicStructuredOutput {

    /** {@code claude-<family>-<major>} and, when it is not a date, {@code -<minor>}. */
    private static final Pattern VERSION =
            Pattern.compile("claude-(opus|sonnet|haiku)-(\\d{1,9})(?!\\d)(?:-(\\d{1,2})(?!\\d))?");

    private AnthropicStructuredOutput() {
    }

    /**
     * Decides the method for a request's output schema.
     *
     * @param request the request
     * @param thinking the thinking the encoder writes for it
     * @return the method, or null when the request has no output schema
     * @throws dev.ruminate.providers.spi.UnsupportedInput for the NATIVE strategy on a model without the native form
     */
    static @Nullable StructuredOutputMethod method(ChatRequest request, ClaudeThinking thinking) {
        OutputSchema output = request.output();
        if (output == null) {
            return null;
        }
        return new StructuredOutputs(hasNativeForm(request.model()), true, !thinking.on(), false).method(output);
    }

    /**
     * Tells whether a Claude model takes {@code output_config.format}: Sonnet 4.5, Haiku 4.5,
     * Opus 4.1 and 4.5, and every later Claude (4.6, 4.7, 5 …), dated ids and aliases alike; not
     * Claude 3.x, Sonnet 4 ({@code claude-sonnet-4-0}, {@code claude-sonnet-4-20250514}) or Opus 4.0.
     *
     * @param model the model id
     * @return true for those models
     */
    static boolean hasNativeForm(String model) {
        Matcher m = VERSION.matcher(model.toLowerCase(Locale.ROOT));
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(2));
        int minor = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        if (major != 4) {
            return major > 4;
        }
        return "opus".equals(m.group(1)) ? minor >= 1 : minor >= 5;
    }
}
