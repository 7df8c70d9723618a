package dev.ruminate.core.loop;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The registered tools' JSON schemas, compiled once per loop, that check a call's arguments and say
 * in words the model can act on which property breaks which rule. Schemas without a
 * {@code $schema} are read as draft 2020-12, the dialect the providers' tool APIs document.
 *
 * <p>It needs the optional com.networknt:json-schema-validator: this class is loaded only after
 * {@link #available()} said yes, so that a loop without the library never touches its classes.
 *
 * <p>Immutable and thread-safe (compiled schemas are safe to share).
 */
final class ArgumentSchemas {

    /** The most violations listed in one reason: enough to fix a call, short enough for a tool result. */
    private static final int MAX_LISTED = 10;

    private final Map<String, Schema> schemas;

    private ArgumentSchemas(Map<String, Schema> schemas) {
        this.schemas = schemas;
    }

    /**
     * Compiles the schemas of the tools.
     *
     * @throws IllegalArgumentException if a tool's schema is not a schema
     */
    static ArgumentSchemas of(Map<String, Tool> tools) {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        Map<String, Schema> schemas = new HashMap<>();
        for (Tool tool : tools.values()) {
            try {
                Schema schema = registry.getSchema(tool.definition().parametersSchema());
                // resolving refs now makes a broken schema fail the build, not the first call
                schema.initializeValidators();
                schemas.put(tool.name(), schema);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("the JSON schema of the tool " + tool.name() + " cannot be compiled: "
                        + e.getMessage(), e);
            }
        }
        return new ArgumentSchemas(Map.copyOf(schemas));
    }

    /**
     * Checks a call's arguments against its tool's schema.
     *
     * @param tool the tool name
     * @param arguments the arguments, one complete JSON value
     * @return what is wrong, one violation per line ("where: why"), or null if they satisfy it
     */
    @Nullable String problems(String tool, String arguments) {
        Schema schema = schemas.get(tool);
        if (schema == null) {
            return null;
        }
        // the reasons go to the model, not to a person: one language whatever the JVM's default locale
        List<Error> errors = schema.validate(arguments, InputFormat.JSON, context -> context.executionConfig(config -> config.locale(Locale.ENGLISH)));
        if (errors.isEmpty()) {
            return null;
        }
        String listed = errors.stream().limit(MAX_LISTED).map(ArgumentSchemas::describe).collect(Collectors.joining("\n"));
        return errors.size() > MAX_LISTED ? listed + "\n(and " + (errors.size() - MAX_LISTED) + " more)" : listed;
    }

    private static String describe(Error error) {
        String message = error.getMessage();
        // a JSON pointer to the offending value; empty for the arguments object, whose messages name the property
        String where = String.valueOf(error.getInstanceLocation());
        return where.isEmpty() || message.startsWith(where) ? message : where + ": " + message;
    }
}
