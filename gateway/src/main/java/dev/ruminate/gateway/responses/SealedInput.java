package dev.ruminate.gateway.responses;

import dev.ruminate.gateway.state.SealedState;
import dev.ruminate.gateway.state.StateSealer;
import dev.ruminate.providers.serving.ClientRequestException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Opens the gateway-sealed state in a request's items: each reasoning item's
 * {@code encrypted_content} that is in the sealer's format is opened and authenticated, so that
 * {@link dev.ruminate.gateway.provenance.Provenance} can tell the backend's own turns from foreign
 * ones. A value in the sealer's format that does not open (altered, truncated, expired, sealed under
 * another key) fails the request with a 400 naming the item; nothing is forwarded. Values in no
 * format of the gateway's are left alone, to be stripped as foreign.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class SealedInput {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StateSealer sealer;

    /**
     * Creates the opener.
     *
     * @param sealer the gateway's sealer
     */
    public SealedInput(StateSealer sealer) {
        this.sealer = Objects.requireNonNull(sealer, "sealer");
    }

    /**
     * Opens the sealed state in a resolved context.
     *
     * @param context the context
     * @return the opened states by their sealed text
     * @throws ClientRequestException a 400 for a sealed value that does not open: {@code param} is
     *     {@code input[i].encrypted_content} for the request's own items, {@code previous_response_id}
     *     for stored ones
     */
    public Map<String, SealedState> open(ResolvedContext context) {
        Map<String, SealedState> opened = new HashMap<>();
        open(context.previous(), i -> "previous_response_id", opened);
        open(context.input(), i -> "input[" + context.inputIndex().get(i) + "].encrypted_content", opened);
        return opened;
    }

    private void open(List<String> items, IntFunction<String> where, Map<String, SealedState> opened) {
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = JSON.readTree(items.get(i));
            JsonNode encrypted = item.path("encrypted_content");
            if (!"reasoning".equals(item.path("type").asString("")) || !encrypted.isString()) {
                continue;
            }
            String value = encrypted.stringValue();
            if (opened.containsKey(value) || !sealer.looksSealed(value)) {
                continue;
            }
            opened.put(value, sealer.open(value, where.apply(i)));
        }
    }
}
