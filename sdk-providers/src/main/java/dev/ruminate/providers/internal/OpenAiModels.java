package dev.ruminate.providers.internal;

import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the Responses and Chat Completions encoders know of OpenAI's model lines, by model id: which reasoning efforts each
 * takes and which refuse the sampling parameters ({@code temperature}, {@code top_p}). PROTOCOLS.md
 * §1 and §19: o-series models take {@code low|medium|high}; models before gpt-5.1 do not take
 * {@code none}; {@code gpt-5-pro} takes only {@code high}; {@code xhigh} came after
 * {@code gpt-5.1-codex-max}; gpt-oss takes {@code low|medium|high}. Reasoning models answer
 * {@code temperature}/{@code top_p} with 400 "Unsupported parameter"; gpt-5.1 and later take them with
 * reasoning effort {@code none} (OpenAI's GPT-5.x guide; UNVERIFIED against a recording).
 *
 * <p>An id is matched after removing a vendor prefix ({@code openai/o3} on OpenRouter,
 * {@code openai.gpt-oss-120b-1:0} on Bedrock). Unknown ids are {@link Line#OTHER}: sent as asked.
 *
 * <p>One set of rules for both families, so a model refused sampling on one is refused it on the
 * other. Stateless and thread-safe; no method takes or returns null but where marked.
 */
public final class OpenAiModels {

    /** A model line, as far as efforts and sampling go. */
    public enum Line {
        /** o1, o3, o4-mini and their variants, codex-mini: {@code low|medium|high}; reasoning cannot be turned off. */
        O_SERIES,
        /** gpt-5, gpt-5-mini, gpt-5-nano, gpt-5-codex (before 5.1): {@code minimal|low|medium|high}. */
        GPT5,
        /** gpt-5-pro: {@code high} only. */
        GPT5_PRO,
        /** gpt-5.1 and later: efforts per model (as asked); sampling only with effort {@code none}. */
        GPT5_LATER,
        /** gpt-oss: {@code low|medium|high}, sampling taken. */
        GPT_OSS,
        /** Anything else (including gpt-5 chat variants, which do not reason): sent as asked. */
        OTHER
    }

    private static final Pattern O_SERIES = Pattern.compile("o[1-9](-.*)?|codex-mini.*");
    private static final Pattern GPT5_PRO = Pattern.compile("gpt-5-pro(-.*)?");
    private static final Pattern GPT5 = Pattern.compile("gpt-5(-.*)?");
    private static final Pattern GPT5_LATER = Pattern.compile("gpt-5\\.[0-9]+(-.*)?");

    private OpenAiModels() {
    }

    /**
     * Returns the line of a model id.
     *
     * @param model the model id as sent
     * @return the line
     */
    public static Line line(String model) {
        String id = model.toLowerCase(Locale.ROOT);
        int slash = id.lastIndexOf('/');
        if (slash >= 0) {
            id = id.substring(slash + 1);
        }
        if (id.startsWith("openai.")) {
            id = id.substring("openai.".length());
        }
        if (id.contains("-chat")) {
            return Line.OTHER;
        }
        if (O_SERIES.matcher(id).matches()) {
            return Line.O_SERIES;
        }
        if (GPT5_PRO.matcher(id).matches()) {
            return Line.GPT5_PRO;
        }
        if (GPT5.matcher(id).matches()) {
            return Line.GPT5;
        }
        if (GPT5_LATER.matcher(id).matches()) {
            return Line.GPT5_LATER;
        }
        return id.startsWith("gpt-oss") ? Line.GPT_OSS : Line.OTHER;
    }

    /**
     * Tells whether the model refuses {@code temperature} and {@code top_p} with the effort sent.
     *
     * @param line the model's line
     * @param wireEffort the {@code reasoning.effort} sent, or null
     * @return true when sending them would be answered with 400
     */
    public static boolean refusesSampling(Line line, @Nullable String wireEffort) {
        return switch (line) {
            case O_SERIES, GPT5, GPT5_PRO -> true;
            case GPT5_LATER -> !"none".equals(wireEffort);
            default -> false;
        };
    }
}
