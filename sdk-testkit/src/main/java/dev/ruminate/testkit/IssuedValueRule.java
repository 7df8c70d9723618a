package dev.ruminate.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The opaque values an emulator has issued (signatures, redacted data, encrypted content, thought
 * signatures), learnt from the successful responses it served: a whole JSON body or every
 * {@code data:} line of a stream is walked, and a family's collector picks its values out of each
 * JSON object. The rules built on it check only once something was issued, so a script that
 * issues nothing keeps every request accepted as before. It learns from every response the
 * emulator serves ({@link #served}); a rule adds its name and its check. Thread-safe.
 */
abstract class IssuedValueRule implements AcceptanceRule {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Set<String> issued = ConcurrentHashMap.newKeySet();
    private final BiConsumer<JsonNode, Set<String>> collector;

    /**
     * @param collector given one JSON object of a served response, adds the values it issues
     */
    IssuedValueRule(BiConsumer<JsonNode, Set<String>> collector) {
        this.collector = collector;
    }

    @Override
    public final void served(EmulatorResponse response) {
        if (response.status() != 200) {
            return;
        }
        String text = new String(response.body(), StandardCharsets.UTF_8);
        String trimmed = text.stripLeading();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            walk(parse(trimmed));
            return;
        }
        for (String line : text.split("\n")) {
            if (line.startsWith("data:")) {
                walk(parse(line.substring("data:".length()).trim()));
            }
        }
    }

    private void walk(JsonNode node) {
        if (node.isObject()) {
            collector.accept(node, issued);
        }
        if (node.isContainer()) {
            for (JsonNode child : node) {
                walk(child);
            }
        }
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JacksonException e) {
            return JSON.missingNode();
        }
    }

    /** True once something was issued: before that, nothing is checked. */
    final boolean active() {
        return !issued.isEmpty();
    }

    /** True when the value was issued (byte for byte). */
    final boolean wasIssued(String value) {
        return issued.contains(value);
    }

    /** Adds a value as if a response had issued it. */
    final void remember(String value) {
        issued.add(value);
    }
}
