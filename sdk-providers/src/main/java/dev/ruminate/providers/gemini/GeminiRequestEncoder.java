package dev.ruminate.providers.gemini;

import dev.ruminate.core.history.History;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.FunctionTools;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import dev.ruminate.providers.internal.SystemTexts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

/**
 * Writes a {@code generateContent} request: {@code contents}, {@code systemInstruction},
 * {@code tools}, {@code generationConfig} (with {@code thinkingConfig}), then the request's extras
 * (an extra replaces the field of its name, whole).
 *
 * <p>Earlier model turns go back part by part, in order, each {@code thoughtSignature} on the part
 * it came with: an answer text, a function call, a code-execution part, or a thought. Thought
 * summaries without a signature are not sent (Google ignores them; they cost input tokens); a
 * signed thought goes back whole. Turns from other providers and the retention of reasoning have
 * been handled before, by {@link History#plan} in the provider skeleton (retention
 * {@link dev.ruminate.core.history.Retention#ALL} unless the policy says otherwise: Google asks for
 * every signature back and validates those of the current turn). Another provider's function calls
 * therefore carry no signature, and neither does a call of this provider's whose signature a
 * boundary, an integrity check or a recovery removed (or that the application built): Gemini 3
 * rejects such a call inside the current tool loop when it is the first of its step, unless
 * {@code skipSignatureValidation} writes Google's placeholder {@code skip_thought_signature_validator}
 * on it (rule G4; see {@link #placeholder}).
 *
 * <p>Tool results become {@code functionResponse} parts of a {@code user} turn, merged when
 * consecutive; a result whose text is a JSON object is sent as that object, any other text as
 * {@code {"result": text}}.
 */
final class GeminiRequestEncoder {

    static final String SKIP_SIGNATURE = "skip_thought_signature_validator";

    /** The sampling fields of {@code generationConfig}, before {@code thinkingConfig}. */
    private static final SamplingFields SAMPLING =
            new SamplingFields("temperature", "topP", "maxOutputTokens", "stopSequences", "seed");

    private GeminiRequestEncoder() {
    }

    /** Encodes a request whose history {@link History#prepare} has prepared for {@code provider}. */
    static byte[] encode(String provider, ChatRequest request, boolean skipSignatureValidation) {
        Set<String> taken = request.extras().keySet();
        List<Message> messages = request.messages();
        return RequestBody.write(request, 512, g -> {
            if (!taken.contains("contents")) {
                writeContents(g, messages, provider, skipSignatureValidation);
            }
            if (!taken.contains("systemInstruction")) {
                writeSystem(g, messages);
            }
            if (!request.tools().isEmpty() && !taken.contains("tools")) {
                writeTools(g, request.tools());
            }
            if (!taken.contains("generationConfig")) {
                writeGenerationConfig(g, request.sampling(), request.reasoning());
            }
        });
    }

    private static void writeContents(JsonGenerator g, List<Message> messages, String provider,
                                      boolean skipSignatureValidation) {
        int loopStart = History.currentToolLoopStart(messages);
        g.writeArrayPropertyStart("contents");
        String openRole = null;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m instanceof UserMessage u) {
                openRole = open(g, openRole, "user");
                g.writeStartObject();
                g.writeStringProperty("text", u.text());
                g.writeEndObject();
            } else if (m instanceof ToolResultMessage r) {
                openRole = open(g, openRole, "user");
                writeFunctionResponse(g, r, messages);
            } else if (m instanceof AssistantMessage a) {
                if (sendable(a).isEmpty()) {
                    continue;
                }
                openRole = open(g, openRole, "model");
                for (int p = 0; p < a.parts().size(); p++) {
                    Part part = a.parts().get(p);
                    if (sends(part)) {
                        writeModelPart(g, part, placeholder(a, p, provider, skipSignatureValidation, i >= loopStart));
                    }
                }
            }
        }
        if (openRole != null) {
            close(g);
        }
        g.writeEndArray();
    }

    /** Opens a content of a role, or continues the open one when it has that role. */
    private static String open(JsonGenerator g, @Nullable String openRole, String role) {
        if (role.equals(openRole)) {
            return role;
        }
        if (openRole != null) {
            close(g);
        }
        g.writeStartObject();
        g.writeStringProperty("role", role);
        g.writeArrayPropertyStart("parts");
        return role;
    }

    private static void close(JsonGenerator g) {
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * Tells whether a part of a message gets Google's placeholder signature (rule G4): only with
     * {@code skipSignatureValidation}, only an unsigned function call inside the current tool loop,
     * and then every such call of another provider's turn, and the first call of a turn of this
     * provider's (or the application's): Gemini 3 signs only the first call of a step, so later
     * parallel calls are unsigned as issued and stay so, while an unsigned first call lost its
     * signature here (a boundary, an integrity check or a recovery removed it) and would be refused.
     */
    static boolean placeholder(AssistantMessage a, int part, String provider, boolean skipSignatureValidation,
                               boolean inLoop) {
        if (!skipSignatureValidation || !inLoop || !(a.parts().get(part) instanceof ToolCallPart c)
                || c.seals().signature() != null) {
            return false;
        }
        return History.isForeign(a, provider) || firstCall(a) == part;
    }

    /** The index of a message's first function call, or -1. */
    private static int firstCall(AssistantMessage a) {
        for (int p = 0; p < a.parts().size(); p++) {
            if (a.parts().get(p) instanceof ToolCallPart) {
                return p;
            }
        }
        return -1;
    }

    private static List<Part> sendable(AssistantMessage a) {
        List<Part> out = new ArrayList<>(a.parts().size());
        for (Part p : a.parts()) {
            if (sends(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Tells whether a part of an earlier model turn is sent: a thought only when signed (unsigned
     * thought summaries stay home), a text when it has text or a signature, anything else always.
     */
    static boolean sends(Part p) {
        if (p instanceof ReasoningPart r) {
            return r.seals().signature() != null;
        }
        if (p instanceof TextPart t) {
            return !t.text().isEmpty() || t.seals().signature() != null;
        }
        return true;
    }

    /**
     * Returns the {@code thoughtSignature} written on a sent part (not a server-tool part, which goes
     * as its JSON): its own, else the placeholder on a function call when asked, else none.
     */
    static @Nullable String signatureOut(Part part, boolean placeholder) {
        String signature = part.seals().signature();
        if (signature == null && placeholder && part instanceof ToolCallPart) {
            return SKIP_SIGNATURE;
        }
        return signature;
    }

    private static void writeModelPart(JsonGenerator g, Part part, boolean placeholder) {
        if (part instanceof ServerToolPart s) {
            // the part as Gemini sent it, signature included
            JsonWriting.copyJson(g, s.json(), "server tool part " + s.type());
            return;
        }
        g.writeStartObject();
        String signature = signatureOut(part, placeholder);
        if (part instanceof ReasoningPart r) {
            g.writeStringProperty("text", r.text());
            g.writeBooleanProperty("thought", true);
        } else if (part instanceof TextPart t) {
            g.writeStringProperty("text", t.text());
        } else if (part instanceof ToolCallPart c) {
            g.writeObjectPropertyStart("functionCall");
            if (c.id() != null) {
                g.writeStringProperty("id", c.id());
            }
            g.writeStringProperty("name", c.name());
            g.writeName("args");
            JsonWriting.writeArguments(g, c);
            g.writeEndObject();
        }
        if (signature != null) {
            g.writeStringProperty("thoughtSignature", signature);
        }
        g.writeEndObject();
    }

    private static void writeFunctionResponse(JsonGenerator g, ToolResultMessage r, List<Message> history) {
        ToolCallPart call = findCall(history, r.toolCallId());
        String name = r.name() != null ? r.name() : call != null ? call.name() : r.toolCallId();
        g.writeStartObject();
        g.writeObjectPropertyStart("functionResponse");
        if (call != null && call.id() != null) {
            g.writeStringProperty("id", call.id());
        }
        g.writeStringProperty("name", name);
        g.writeName("response");
        if (isJsonObject(r.content())) {
            JsonWriting.copyJson(g, r.content(), "the result of tool call " + name);
        } else {
            g.writeStartObject();
            g.writeStringProperty(r.error() ? "error" : "result", r.content());
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static @Nullable ToolCallPart findCall(List<Message> history, String toolCallId) {
        for (Message m : history) {
            if (m instanceof AssistantMessage a) {
                for (ToolCallPart c : a.toolCalls()) {
                    if (toolCallId.equals(c.id()) || (c.id() == null && toolCallId.equals(c.name()))) {
                        return c;
                    }
                }
            }
        }
        return null;
    }

    private static boolean isJsonObject(String text) {
        String t = text.strip();
        if (!t.startsWith("{")) {
            return false;
        }
        try (JsonParser p = JsonWriting.JSON.createParser(ObjectReadContext.empty(), t)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            p.skipChildren();
            return p.nextToken() == null;
        } catch (JacksonException e) {
            return false;
        }
    }

    private static void writeSystem(JsonGenerator g, List<Message> messages) {
        List<String> system = SystemTexts.of(messages);
        if (system.isEmpty()) {
            return;
        }
        g.writeObjectPropertyStart("systemInstruction");
        g.writeArrayPropertyStart("parts");
        SystemTexts.writeTextObjects(g, system);
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void writeTools(JsonGenerator g, List<ToolDefinition> tools) {
        g.writeArrayPropertyStart("tools");
        g.writeStartObject();
        g.writeArrayPropertyStart("functionDeclarations");
        for (ToolDefinition tool : tools) {
            g.writeStartObject();
            // parametersJsonSchema takes full JSON Schema; the older "parameters" only an OpenAPI subset
            FunctionTools.writeDeclaration(g, tool, "parametersJsonSchema");
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
    }

    /**
     * Writes sampling and {@code thinkingConfig}: a budget as {@code thinkingBudget} (Gemini 2.5), an
     * effort as {@code thinkingLevel} (Gemini 3, see {@link #level}), reasoning off as
     * {@code thinkingBudget: 0}; {@code includeThoughts} asks for thought summaries, on whenever
     * reasoning is requested unless the options say not to include it.
     */
    private static void writeGenerationConfig(JsonGenerator g, SamplingOptions s, ReasoningOptions r) {
        boolean thinking = !r.isDefault();
        if (!SAMPLING.anySet(s) && !thinking) {
            return;
        }
        g.writeObjectPropertyStart("generationConfig");
        SAMPLING.write(g, s, Set.of());
        if (thinking) {
            boolean off = Boolean.FALSE.equals(r.enabled()) || r.effort() == ReasoningEffort.NONE;
            g.writeObjectPropertyStart("thinkingConfig");
            if (off) {
                g.writeNumberProperty("thinkingBudget", 0);
            } else {
                g.writeBooleanProperty("includeThoughts", !Boolean.FALSE.equals(r.includeReasoning()));
                if (r.budgetTokens() != null) {
                    g.writeNumberProperty("thinkingBudget", r.budgetTokens());
                } else if (r.effort() != null) {
                    g.writeStringProperty("thinkingLevel", level(r.effort()));
                }
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** Gemini 3's levels: {@code minimal}, {@code low}, {@code medium}, {@code high}; xhigh and max are high. */
    static String level(ReasoningEffort effort) {
        return effort == ReasoningEffort.MAX || effort == ReasoningEffort.XHIGH ? "high"
                : effort.name().toLowerCase(Locale.ROOT);
    }
}
