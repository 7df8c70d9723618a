package dev.ruminate.core.internal;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Checks that a text is exactly one complete JSON value, with Jackson's streaming parser (no tree).
 * Thread-safe.
 */
public final class JsonValidity {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private JsonValidity() {
    }

    /**
     * Returns why {@code text} is not one complete JSON value.
     *
     * @param text the text to check
     * @return null when it is valid, else the parser's reason
     */
    public static @Nullable String problem(String text) {
        try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return "empty input";
            }
            parser.skipChildren();
            if (parser.nextToken() != null) {
                return "trailing content after the JSON value at offset " + parser.currentTokenLocation().getCharOffset();
            }
            return null;
        } catch (JacksonException e) {
            return e.getOriginalMessage();
        }
    }
}
