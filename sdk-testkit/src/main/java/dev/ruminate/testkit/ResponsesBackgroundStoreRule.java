package dev.ruminate.testkit;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * OpenAI's background mode keeps the response on the server, so it needs storage: a request with
 * {@code "background": true} and {@code "store": false} is refused with a 400
 * {@code invalid_request_error} naming {@code store} (PROTOCOLS.md, "OpenAI Responses": background
 * requires {@code store: true}; an absent {@code store} is OpenAI's default, true). The exact error
 * message is not documented; this one says the same.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.4
 */
public final class ResponsesBackgroundStoreRule implements AcceptanceRule {

    /** The rule's name. */
    public static final String NAME = "responses.background-needs-store";

    /** Creates the rule. */
    public ResponsesBackgroundStoreRule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public @Nullable Violation check(RecordedRequest request, JsonNode body) {
        JsonNode background = body.get("background");
        JsonNode store = body.get("store");
        if (background != null && background.isBoolean() && background.booleanValue()
                && store != null && store.isBoolean() && !store.booleanValue()) {
            return new Violation(NAME, 400, "Background mode requires store to be true.", "store", null);
        }
        return null;
    }
}
