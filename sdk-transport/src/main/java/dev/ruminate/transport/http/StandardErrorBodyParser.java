package dev.ruminate.transport.http;

import dev.ruminate.core.error.ProviderError;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/** The parser behind {@link ErrorBodyParser#standard()}. Stateless. */
final class StandardErrorBodyParser implements ErrorBodyParser {

    static final StandardErrorBodyParser INSTANCE = new StandardErrorBodyParser();

    private static final JsonFactory JSON = new JsonFactory();
    private static final int SUMMARY_CHARS = 200;

    private StandardErrorBodyParser() {
    }

    @Override
    public ProviderError parse(byte[] body) {
        if (isBlank(body)) {
            return ProviderError.UNKNOWN;
        }
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), body)) {
            JsonToken token = p.nextToken();
            if (token == JsonToken.START_ARRAY) {
                token = p.nextToken();
            }
            if (token != JsonToken.START_OBJECT) {
                return notJson(body);
            }
            return readTopLevel(p);
        } catch (JacksonException e) {
            return notJson(body);
        }
    }

    private static ProviderError readTopLevel(JsonParser p) {
        Fields top = new Fields();
        @Nullable ProviderError nested = null;
        String name;
        while ((name = p.nextName()) != null) {
            JsonToken value = p.nextToken();
            if ("error".equals(name)) {
                if (value == JsonToken.START_OBJECT) {
                    Fields inner = new Fields();
                    readFields(p, inner);
                    nested = inner.toError();
                } else {
                    String text = scalar(p, value);
                    if (text != null) {
                        nested = new ProviderError(null, null, text, null);
                    }
                }
            } else if ("detail".equals(name)) {
                top.detail = scalar(p, value);
            } else {
                top.accept(name, p, value);
            }
        }
        if (nested != null && nested != ProviderError.UNKNOWN) {
            return nested;
        }
        if (top.message == null) {
            top.message = top.detail;
        }
        return top.toError();
    }

    private static void readFields(JsonParser p, Fields fields) {
        String name;
        while ((name = p.nextName()) != null) {
            fields.accept(name, p, p.nextToken());
        }
    }

    /** Returns the text of a scalar value; skips objects and arrays (returning null). */
    private static @Nullable String scalar(JsonParser p, JsonToken value) {
        if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        return p.getString();
    }

    private static ProviderError notJson(byte[] body) {
        String summary = Excerpts.summary(body, SUMMARY_CHARS);
        return summary.isEmpty() ? ProviderError.UNKNOWN : new ProviderError(null, null, summary, null);
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    /** The four fields of the common shape, collected at one level of the body. */
    private static final class Fields {
        @Nullable String type;
        @Nullable String code;
        @Nullable String message;
        @Nullable String param;
        @Nullable String detail;
        /** Google's {@code status} ({@code INVALID_ARGUMENT}, {@code RESOURCE_EXHAUSTED}): the type when none is given. */
        @Nullable String status;

        void accept(String name, JsonParser p, JsonToken value) {
            switch (name) {
                case "type" -> type = scalar(p, value);
                case "code" -> code = scalar(p, value);
                case "message" -> message = scalar(p, value);
                case "param" -> param = scalar(p, value);
                case "status" -> status = scalar(p, value);
                default -> p.skipChildren();
            }
        }

        ProviderError toError() {
            String kind = type != null ? type : status;
            if (kind == null && code == null && message == null && param == null) {
                return ProviderError.UNKNOWN;
            }
            return new ProviderError(kind, code, message, param);
        }
    }
}
