package dev.ruminate.cli;

import dev.ruminate.core.request.OutputSchema;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads {@code --json-schema FILE} into an {@link OutputSchema}: the file must hold one JSON object;
 * the schema's name is the file's base name made into 1 to 64 of {@code [A-Za-z0-9_-]}, unless
 * {@code --schema-name} gives one. Errors name the file and where the JSON breaks (line and
 * column), never its content. Stateless.
 */
final class SchemaFile {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Pattern NOT_NAME = Pattern.compile("[^A-Za-z0-9_-]");

    /** The name used when a file's base name holds nothing usable (such as {@code .json}). */
    static final String FALLBACK_NAME = "output";

    private SchemaFile() {
    }

    /**
     * Reads a schema file.
     *
     * @param file the file as given
     * @param name the {@code --schema-name}, or null to take the file's base name
     * @param strategy how the schema may be carried
     * @return the output schema, strict
     * @throws InputException when the file cannot be read or is not one JSON object
     * @throws UsageException when {@code --schema-name} is not a valid name
     */
    static OutputSchema read(String file, @Nullable String name, OutputSchema.Strategy strategy) {
        if (name != null && !NAME.matcher(name).matches()) {
            throw new UsageException("--schema-name must be 1 to 64 letters, digits, '_' or '-', was " + name);
        }
        byte[] data = InputFiles.read("json-schema", file);
        JsonNode schema;
        try {
            schema = JSON.readTree(data);
        } catch (JacksonException e) {
            throw InputFiles.problem("json-schema", file, "not JSON" + where(e.getLocation()));
        }
        if (schema == null || schema.isMissingNode()) {
            throw InputFiles.problem("json-schema", file, "holds no JSON value");
        }
        if (!schema.isObject()) {
            throw InputFiles.problem("json-schema", file, "a JSON " + kind(schema)
                    + ", not an object (a schema is one JSON object)");
        }
        // written back compact: the request carries the schema, not the file's layout
        return new OutputSchema(name != null ? name : nameOf(file), JSON.writeValueAsString(schema), null, true, strategy);
    }

    /**
     * Makes a schema name of a file's base name (its extension dropped): every character outside
     * {@code [A-Za-z0-9_-]} becomes {@code _}, cut to 64; {@value #FALLBACK_NAME} when nothing is left.
     *
     * @param file the file as given
     * @return the name
     */
    static String nameOf(String file) {
        Path fileName = Path.of(file).getFileName();
        String base = fileName == null ? "" : fileName.toString();
        int dot = base.lastIndexOf('.');
        if (dot > 0) {
            base = base.substring(0, dot);
        }
        String name = NOT_NAME.matcher(base).replaceAll("_");
        if (name.length() > 64) {
            name = name.substring(0, 64);
        }
        return name.isEmpty() || name.chars().allMatch(c -> c == '_') ? FALLBACK_NAME : name;
    }

    private static String where(@Nullable TokenStreamLocation at) {
        return at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    private static String kind(JsonNode node) {
        if (node.isArray()) {
            return "array";
        }
        if (node.isString()) {
            return "string";
        }
        if (node.isNumber()) {
            return "number";
        }
        if (node.isBoolean()) {
            return "boolean";
        }
        return "null";
    }
}
