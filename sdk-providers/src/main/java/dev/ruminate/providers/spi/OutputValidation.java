package dev.ruminate.providers.spi;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.request.OutputSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Checks an answer against an output schema with com.networknt:json-schema-validator: each schema
 * text is compiled once (a bounded cache of the most recently used), read as draft 2020-12 unless
 * it names its {@code $schema}, and its violations are said in English as {@code "path: message"},
 * the path in JSONPath ({@code $} the answer itself, {@code $.items[0].name} within it), at most
 * {@value #MAX_LISTED} listed.
 *
 * <p>Thread-safe: the cache is synchronized, compiled schemas are immutable once their validators
 * are initialised.
 */
final class OutputValidation {

    /** The most violations listed: enough for the model to fix its answer, short enough for a turn. */
    static final int MAX_LISTED = 10;

    /** How many compiled schemas are kept: an application uses a handful; a bound keeps a generator of schemas from growing the heap. */
    private static final int CACHED = 64;

    private static final SchemaRegistryConfig CONFIG = SchemaRegistryConfig.builder()
            .pathType(PathType.JSON_PATH)
            // the violations go to the model and to logs: one language whatever the JVM's default locale
            .locale(Locale.ENGLISH)
            .build();

    private static final Map<String, Schema> COMPILED = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Schema> eldest) {
                    return size() > CACHED;
                }
            });

    private OutputValidation() {
    }

    /** The verdict on one answer. */
    record Verdict(boolean valid, List<String> violations) {
    }

    /**
     * Returns the compiled schema, compiling it on first use.
     *
     * @param output the output schema
     * @return the compiled schema
     * @throws IllegalArgumentException if the schema cannot be compiled (an unresolvable
     *     {@code $ref}, say)
     */
    static Schema compile(OutputSchema output) {
        Schema cached = COMPILED.get(output.schema());
        if (cached != null) {
            return cached;
        }
        Schema schema;
        try {
            // a registry per schema: its own cache of loaded schemas then goes with the compiled schema, bounded above
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    b -> b.schemaRegistryConfig(CONFIG));
            schema = registry.getSchema(output.schema());
            // resolving references now makes a broken schema fail before the request, not after the answer
            schema.initializeValidators();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the output schema " + output.name() + " cannot be compiled: "
                    + e.getMessage(), e);
        }
        COMPILED.put(output.schema(), schema);
        return schema;
    }

    /**
     * Checks an answer.
     *
     * @param schema the compiled schema
     * @param answer the answer, or null when there was none
     * @param missing what to say when there is no answer
     * @return the verdict
     */
    static Verdict check(Schema schema, @Nullable String answer, String missing) {
        if (answer == null || answer.isBlank()) {
            return new Verdict(false, List.of("$: " + missing));
        }
        String problem = JsonValidity.problem(answer);
        if (problem != null) {
            return new Verdict(false, List.of("$: the answer is not JSON (" + problem + ")"));
        }
        List<Error> errors;
        try {
            errors = schema.validate(answer, InputFormat.JSON);
        } catch (RuntimeException e) {
            // JsonValidity accepted it, so this is a value the validator's reader refuses (a huge number, say)
            return new Verdict(false, List.of("$: the answer cannot be read as JSON (" + e.getClass().getSimpleName() + ")"));
        }
        if (errors.isEmpty()) {
            return new Verdict(true, List.of());
        }
        List<String> listed = new ArrayList<>(Math.min(errors.size(), MAX_LISTED) + 1);
        for (int i = 0; i < errors.size() && i < MAX_LISTED; i++) {
            Error error = errors.get(i);
            String where = String.valueOf(error.getInstanceLocation());
            listed.add((where.isEmpty() ? "$" : where) + ": " + error.getMessage());
        }
        if (errors.size() > MAX_LISTED) {
            listed.add("(and " + (errors.size() - MAX_LISTED) + " more)");
        }
        return new Verdict(false, List.copyOf(listed));
    }

    /**
     * Returns the JSON an answer text holds: the text trimmed and, when the whole of it is one
     * Markdown code fence (a first line of three backticks, optionally {@code json}, and a last line
     * of three backticks), what is inside it. Models asked for JSON in words often fence it; one
     * fence is all that is taken away.
     *
     * @param text the answer text
     * @return the candidate JSON text
     */
    static String unfenced(String text) {
        String t = text.strip();
        if (!t.startsWith("```") || !t.endsWith("```") || t.length() < 6) {
            return t;
        }
        int firstLine = t.indexOf('\n');
        if (firstLine < 0) {
            return t;
        }
        String info = t.substring(3, firstLine).strip();
        if (!info.isEmpty() && !info.equalsIgnoreCase("json")) {
            return t;
        }
        String inner = t.substring(firstLine + 1, t.length() - 3);
        // a second fence inside means the text is more than one fenced block
        return inner.contains("```") ? t : inner.strip();
    }
}
