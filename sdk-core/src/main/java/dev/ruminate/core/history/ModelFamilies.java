package dev.ruminate.core.history;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Normalizes model ids so that the ids one model goes by compare equal: the id a request names
 * ({@code claude-sonnet-4-5}), the dated snapshot a provider reports back
 * ({@code claude-sonnet-4-5-20250929}), and the same model behind a route or region prefix
 * ({@code us.anthropic.claude-sonnet-4-5-20250929-v1:0}, {@code anthropic/claude-sonnet-4.5}).
 * Providers that bind opaque state to a model are compared on this family, not on the raw id.
 *
 * <p>{@link #normalize(String)} applies, in order:
 * <ol>
 *   <li>trim and lower case;</li>
 *   <li>keep what follows the last {@code /} ({@code models/gemini-2.5-pro},
 *       {@code anthropic/claude-sonnet-4.5}, {@code accounts/x/models/y});</li>
 *   <li>drop leading dot-separated segments made only of letters and hyphens: region and vendor
 *       prefixes ({@code us.}, {@code eu.}, {@code global.}, {@code us-gov.},
 *       {@code anthropic.}, {@code amazon.}); a segment with a digit is part of the name
 *       ({@code gemini-2.5-pro} keeps its dot);</li>
 *   <li>drop, repeatedly, version and date suffixes: {@code -v1:0} and {@code -v2} (Bedrock),
 *       {@code -latest} and {@code :latest}, {@code -20250929} and {@code @20250929} (eight-digit
 *       dates, Anthropic and Vertex), {@code -2025-09-29} (OpenAI snapshots), and OpenRouter's
 *       routing variants ({@code :nitro}, {@code :floor}, {@code :free}, {@code :online},
 *       {@code :exacto}, {@code :beta}, {@code :extended}, {@code :thinking}), which choose a host or
 *       a price for the same model (an Ollama size tag such as {@code :20b} is kept: another model);</li>
 *   <li>write a dot between digits as a hyphen ({@code 4.5} and {@code 4-5} are one version).</li>
 * </ol>
 * Preview and month suffixes ({@code -preview-05-20}, {@code -0528}) are kept: they name different
 * models. The result is a comparison key, not a model id to send.
 *
 * <p>An alias ({@code …-latest}) names no fixed model: {@link #isAlias(String)} tells so, and
 * {@link History} treats such an id as an unknown model (opaque state is kept, as for a target
 * whose model is not known).
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class ModelFamilies {

    private static final Pattern PREFIX = Pattern.compile("^[a-z][a-z-]*\\.(.+)$");
    private static final Pattern SUFFIX = Pattern.compile(
            "^(.+?)(-v\\d+(:\\d+)?|[-:]latest|[-@]\\d{8}|-\\d{4}-\\d{2}-\\d{2}"
            // OpenRouter's routing variants pick a provider or a price for the same model
            + "|:(?:nitro|floor|free|online|exacto|beta|extended|thinking))$");
    private static final Pattern DIGIT_DOT = Pattern.compile("(?<=\\d)\\.(?=\\d)");

    private ModelFamilies() {
    }

    /**
     * Returns a model id's family key (see the class description for the steps).
     *
     * @param model the model id as a request names it or a provider reports it
     * @return the key, lower case; empty for an empty id
     */
    public static String normalize(String model) {
        String s = model.strip().toLowerCase(Locale.ROOT);
        int slash = s.lastIndexOf('/');
        if (slash >= 0) {
            s = s.substring(slash + 1);
        }
        for (Matcher m = PREFIX.matcher(s); m.matches(); m = PREFIX.matcher(s)) {
            s = m.group(1);
        }
        for (Matcher m = SUFFIX.matcher(s); m.matches(); m = SUFFIX.matcher(s)) {
            s = m.group(1);
        }
        return DIGIT_DOT.matcher(s).replaceAll("-");
    }

    /**
     * Tells whether a model id is an alias that names no fixed model ({@code -latest},
     * {@code :latest}), after trimming and lower-casing.
     *
     * @param model the model id
     * @return true for an alias
     */
    public static boolean isAlias(String model) {
        String s = model.strip().toLowerCase(Locale.ROOT);
        return s.endsWith("-latest") || s.endsWith(":latest");
    }
}
