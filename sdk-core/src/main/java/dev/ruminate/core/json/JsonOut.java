package dev.ruminate.core.json;

import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Provenance;
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
        optLong(g, "cache_write_tokens", u.cacheWriteTokens());
    }

    static Usage readUsage(JsonTree.Obj o) {
        return new Usage(o.longValue("input_tokens"), o.longValue("output_tokens"), o.longValue("reasoning_tokens"),
                o.longValue("cached_tokens"), o.longValue("cache_write_tokens"));
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
        Provenance p = s.provenance();
        if (p != null) {
            g.writeObjectPropertyStart("provenance");
            originFields(g, p.origin());
            optString(g, "model", p.model());
            optString(g, "requested_model", p.requestedModel());
            g.writeNumberProperty("block", p.block());
            g.writeBooleanProperty("finished", p.finished());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** Writes an origin's fields into the open object; a null account is left out. */
    static void originFields(JsonGenerator g, Origin o) {
        g.writeStringProperty("provider", o.provider());
        g.writeStringProperty("api", o.api());
        g.writeStringProperty("endpoint", o.endpoint());
        optString(g, "account", o.account());
    }

    /** Reads an origin written by {@link #originFields}. */
    static Origin readOrigin(JsonTree.Obj o) {
        return new Origin(o.requireString("provider"), o.requireString("api"), o.requireString("endpoint"),
                o.string("account"));
    }

    static Seals readProviderState(JsonTree.Obj part) {
        JsonTree.Obj s = part.object("provider_state");
        if (s == null) {
            return Seals.NONE;
        }
        JsonTree.Obj p = s.object("provenance");
        return new Seals(s.string("signature"), s.string("redacted"), s.string("encrypted"), s.string("item_id"),
                s.string("format"), p == null ? null : readProvenance(p));
    }

    /**
     * Reads {@code provenance}: the origin's fields, {@code block} (required) and {@code finished}
     * (absent reads as false: state not known to be whole is never trusted as whole).
     */
    private static Provenance readProvenance(JsonTree.Obj p) {
        return new Provenance(readOrigin(p), p.string("model"), p.requireIndex("block"), p.bool("finished", false),
                p.string("requested_model"));
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
