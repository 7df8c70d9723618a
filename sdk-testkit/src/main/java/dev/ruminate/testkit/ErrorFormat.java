package dev.ruminate.testkit;

/**
 * How each provider family writes a refused request (PROTOCOLS.md §2, §3, §4, §5, §7, §15 and the
 * brief's error shapes): the status stays the violation's, the body and headers are the family's.
 */
enum ErrorFormat {

    /** OpenAI Chat Completions, Responses and DeepSeek: {@code {"error":{"message","type","param","code"}}}. */
    OPENAI {
        @Override
        EmulatorResponse render(Violation violation) {
            return EmulatorResponse.httpError(violation.status(), Json.object(g -> {
                g.writeName("error");
                g.writeStartObject();
                g.writeStringProperty("message", violation.message());
                g.writeStringProperty("type", "invalid_request_error");
                Json.stringOrNull(g, "param", violation.param());
                Json.stringOrNull(g, "code", violation.code() != null ? violation.code()
                        : violation.status() == 404 ? null : "invalid_request_error");
                g.writeEndObject();
            }));
        }
    },

    /** Anthropic Messages: {@code {"type":"error","error":{"type":"invalid_request_error","message"}}}. */
    ANTHROPIC {
        @Override
        EmulatorResponse render(Violation violation) {
            return EmulatorResponse.httpError(violation.status(), Json.object(g -> {
                g.writeStringProperty("type", "error");
                g.writeName("error");
                g.writeStartObject();
                g.writeStringProperty("type", violation.status() == 404 ? "not_found_error" : "invalid_request_error");
                g.writeStringProperty("message", violation.message());
                g.writeEndObject();
            }));
        }
    },

    /** Gemini: {@code {"error":{"code":400,"message","status":"INVALID_ARGUMENT"}}}. */
    GEMINI {
        @Override
        EmulatorResponse render(Violation violation) {
            return EmulatorResponse.httpError(violation.status(), Json.object(g -> {
                g.writeName("error");
                g.writeStartObject();
                g.writeNumberProperty("code", violation.status());
                g.writeStringProperty("message", violation.message());
                g.writeStringProperty("status", violation.status() == 404 ? "NOT_FOUND" : "INVALID_ARGUMENT");
                g.writeEndObject();
            }));
        }
    },

    /** Ollama's native API: {@code {"error": "…"}}. */
    OLLAMA {
        @Override
        EmulatorResponse render(Violation violation) {
            return EmulatorResponse.httpError(violation.status(),
                    Json.object(g -> g.writeStringProperty("error", violation.message())));
        }
    },

    /** Bedrock runtime: {@code {"message"}} with the error type in {@code x-amzn-ErrorType}. */
    BEDROCK {
        @Override
        EmulatorResponse render(Violation violation) {
            return EmulatorResponse.httpError(violation.status(),
                            Json.object(g -> g.writeStringProperty("message", violation.message())))
                    .header("x-amzn-ErrorType", "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/");
        }
    };

    abstract EmulatorResponse render(Violation violation);
}
