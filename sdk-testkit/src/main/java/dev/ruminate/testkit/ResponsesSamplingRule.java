package dev.ruminate.testkit;

import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * OpenAI reasoning models refuse the sampling parameters: {@code temperature} or {@code top_p} on an
 * o-series model ({@code o1}, {@code o3}, {@code o4-mini}, …) or a GPT-5 model is answered 400
 * {@code "Unsupported parameter: 'temperature' is not supported with this model."}, code
 * {@code unsupported_parameter}, {@code param} the field (OpenAI's reasoning guide and the error
 * clients report; gpt-5 chat variants do not reason and take them). GPT-5.1 and later take them with
 * {@code reasoning.effort} {@code none} (OpenAI's GPT-5.x guide). Model ids are matched after a
 * vendor prefix ({@code openai/o3}).
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.3
 */
public final class ResponsesSamplingRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "responses.sampling-on-reasoning-models";

    private static final Pattern REASONING = Pattern.compile("(o[1-9]|gpt-5)([-.].*)?");
    private static final Pattern LATER = Pattern.compile("gpt-5\\.[1-9][0-9]*(-.*)?");

    /** Creates the rule. */
    public ResponsesSamplingRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        String model = Nodes.text(body, "model").toLowerCase(Locale.ROOT);
        model = model.substring(model.lastIndexOf('/') + 1);
        if (!REASONING.matcher(model).matches() || model.contains("-chat")) {
            return null;
        }
        if (LATER.matcher(model).matches() && Nodes.text(body.path("reasoning"), "effort").equals("none")) {
            return null;
        }
        for (String field : new String[] {"temperature", "top_p"}) {
            JsonNode value = body.get(field);
            if (value != null && !value.isNull()) {
                return new Violation(NAME, 400, "Unsupported parameter: '" + field + "' is not supported with this model.",
                        field, "unsupported_parameter");
            }
        }
        return null;
    }
}
