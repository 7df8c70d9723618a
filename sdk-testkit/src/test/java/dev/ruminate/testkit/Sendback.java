package dev.ruminate.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The accepted requests under {@code src/test/resources/sendback} (see PROVENANCE.md there), and mutations of them. */
final class Sendback {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private Sendback() {
    }

    static String text(String path) {
        try (InputStream in = Sendback.class.getResourceAsStream("/sendback/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no sendback file " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A mutable copy of a recorded request body. */
    static ObjectNode body(String path) {
        return (ObjectNode) JSON.readTree(text(path));
    }

    static RecordedRequest post(String path, JsonNode body) {
        return new RecordedRequest("POST", path, Map.of("content-type", List.of("application/json")), body.toString());
    }

    static ArrayNode array(JsonNode node, String field) {
        return (ArrayNode) node.get(field);
    }

    static ObjectNode object(JsonNode node) {
        return (ObjectNode) node;
    }

    /** The error body the emulator answers a violation with, parsed. */
    static JsonNode errorBody(AcceptanceRules rules, Violation violation) {
        return JSON.readTree(new String(rules.reject(violation).body(), StandardCharsets.UTF_8));
    }
}
