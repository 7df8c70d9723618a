package dev.ruminate.core.json;

import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.Usage;
import java.io.StringWriter;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/** Writing helpers shared by the event and message writers, and the fields both use (usage, seals). Thread-safe. */
final class JsonOut {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private JsonOut() {
    }

    /** Runs a writer against a fresh generator and returns the compact, one-line JSON it wrote. */
    static String write(Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(128);
        try (JsonGenerator g = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
            body.accept(g);
        }
        return out.toString();
    }

    static void optString(JsonGenerator g, String name, @Nullable String value) {
        if (value != null) {
            g.writeStringProperty(name, value);
        }
    }

    static void optLong(JsonGenerator g, String name, @Nullable Long value) {
        if (value != null) {
            g.writeNumberProperty(name, value.longValue());
        }
    }

    /**
     * Writes an embedded provider JSON block as a JSON value. Its bytes are kept when it is on one
     * line; a block with line breaks (a pretty-printed body) is re-written compactly, token by
     * token, since an SSE data line must not break.
     */
    static void embedded(JsonGenerator g, String name, String json) {
        g.writeName(name);
        if (json.indexOf('\n') < 0 && json.indexOf('\r') < 0) {
            g.writeRawValue(json);
            return;
        }
        try (JsonParser p = FACTORY.createParser(ObjectReadContext.empty(), json)) {
            p.nextToken();
            g.copyCurrentStructure(p);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("an embedded provider block is not valid JSON", e);
        }
    }

    /** Writes the usage counts that are known; unknown counts are left out, never written as 0. */
    static void usageFields(JsonGenerator g, Usage u) {
        optLong(g, "input_tokens", u.inputTokens());
        optLong(g, "output_tokens", u.outputTokens());
        optLong(g, "reasoning_tokens", u.reasoningTokens());
        optLong(g, "cached_tokens", u.cachedTokens());
    }

    static Usage readUsage(JsonTree.Obj o) {
        return new Usage(o.longValue("input_tokens"), o.longValue("output_tokens"), o.longValue("reasoning_tokens"),
                o.longValue("cached_tokens"));
    }

    /** Writes {@code provider_state} when there is any and the form includes it. */
    static void providerState(JsonGenerator g, Seals s, ProviderState form) {
        if (form == ProviderState.OMIT || s.isEmpty()) {
            return;
        }
        g.writeObjectPropertyStart("provider_state");
        optString(g, "signature", s.signature());
        optString(g, "redacted", s.redacted());
        optString(g, "encrypted", s.encrypted());
        optString(g, "item_id", s.itemId());
        optString(g, "format", s.format());
        g.writeEndObject();
    }

    static Seals readProviderState(JsonTree.Obj part) {
        JsonTree.Obj s = part.object("provider_state");
        if (s == null) {
            return Seals.NONE;
        }
        return new Seals(s.string("signature"), s.string("redacted"), s.string("encrypted"), s.string("item_id"),
                s.string("format"));
    }

    /**
     * Returns the exact text of an embedded block, which must be an object; {@code {}} when absent,
     * as in the client form, which leaves provider blocks out.
     */
    static String readEmbedded(JsonTree.Obj o, String name) {
        Object v = o.get(name);
        if (v == null) {
            return "{}";
        }
        if (v instanceof JsonTree.Obj block) {
            return block.raw();
        }
        throw JsonTree.shape(o.where(name) + " must be an object, was " + JsonTree.kind(v));
    }
}
