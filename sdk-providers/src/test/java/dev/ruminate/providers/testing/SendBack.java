package dev.ruminate.providers.testing;

import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.spi.WireCodec;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The send-back goldens' two sides: a later-turn request encoded the way {@code ProviderPipeline}
 * encodes it (the default history policy, then the family's codec), and the accepted request
 * recorded in {@code fixtures/sendback/}.
 */
public final class SendBack {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private SendBack() {
    }

    /**
     * Encodes a request as the provider skeleton does: {@code History.prepare} with the default
     * policy and {@link Retention#ALL}, then {@link WireCodec#encode}.
     *
     * @param codec the family's codec
     * @param provider the provider's name (the owner of the opaque state its history keeps)
     * @param request the conversation to send
     * @param stream true for a streamed call
     * @return the body as text
     */
    public static String encode(WireCodec<?> codec, String provider, ChatRequest request, boolean stream) {
        byte[] body = codec.encode(History.prepare(request, provider, HistoryPolicy.DEFAULT, Retention.ALL), stream);
        return new String(body, StandardCharsets.UTF_8);
    }

    /** Parses JSON text. */
    public static JsonNode tree(String json) {
        return JSON.readTree(json);
    }

    /** Returns an accepted request, by its path under {@code fixtures/sendback/}. */
    public static JsonNode accepted(String path) {
        return JSON.readTree(Recorded.bytes("sendback/" + path));
    }

    /** Returns a JSON value as a plain Java value (maps, lists, strings, numbers), for a request's extras. */
    public static Object plain(JsonNode node) {
        return JSON.convertValue(node, Object.class);
    }
}
