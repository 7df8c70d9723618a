package dev.ruminate.providers.gemini;

import dev.ruminate.core.history.History;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.FunctionTools;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.internal.SystemTexts;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.ArrayList;
import java.util.List;
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
 * <p>A user message's images and documents go before its text ({@link GeminiMedia}). The output
 * schema goes the way {@link #method} decides: {@code responseJsonSchema} with
 * {@code responseMimeType: application/json}, or a function declaration of that name whose call
 * {@code toolConfig} forces. Options Gemini does not take, or takes in another form, are reported to
 * the {@link RequestWarnings} ({@link GeminiThinking}, prompt-cache breakpoints, extras that replace
 * written fields).
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

    /**
     * What Gemini can do for structured output with this request: {@code responseJsonSchema}, except
     * on models before Gemini 3 when the request has tools (they refuse function calling with
     * {@code responseMimeType: application/json}; Gemini 3 takes both); a forced function call
     * ({@code mode: ANY}, which Gemini takes with thinking on); JSON mode without a schema.
     */
    static StructuredOutputs structuredOutputs(ChatRequest request) {
        String id = GeminiThinking.id(request.model());
        boolean before3 = id.startsWith("gemini-1") || id.startsWith("gemini-2");
        return new StructuredOutputs(request.tools().isEmpty() || !before3, true, true, true);
    }

    /** The structured-output method of a request, or null without an output schema; the one decision. */
    static @Nullable StructuredOutputMethod method(ChatRequest request) {
        OutputSchema output = request.output();
        return output == null ? null : structuredOutputs(request).method(output);
    }

    /** Encodes a request whose history {@link History#prepare} has prepared for {@code provider}. */
    static byte[] encode(String provider, ChatRequest request, boolean skipSignatureValidation, RequestWarnings warnings) {
        Set<String> taken = request.extras().keySet();
        List<Message> messages = request.messages();
        GeminiMedia.check(messages);
        OutputSchema output = request.output();
        StructuredOutputMethod method = method(request);
        List<ToolDefinition> tools = StructuredOutputs.tools(request, method);
        String instruction = StructuredOutputs.instruction(request, method);
        warnAboutExtras(request, method, taken, warnings);
        warnAboutCaching(request.caching(), warnings);
        return RequestBody.write(request, 512, g -> {
            if (!taken.contains("contents")) {
                writeContents(g, messages, provider, skipSignatureValidation);
            }
            if (!taken.contains("systemInstruction")) {
                writeSystem(g, messages, instruction);
            }
            if (!tools.isEmpty() && !taken.contains("tools")) {
                writeTools(g, tools);
            }
            if (output != null && method == StructuredOutputMethod.TOOL_FORCED && !taken.contains("toolConfig")) {
                writeForcedCall(g, output.name());
            }
            if (!taken.contains("generationConfig")) {
                writeGenerationConfig(g, request, method, warnings);
            }
        });
    }

    /** An extra replaces a field whole: say what of the request it took the place of. */
    private static void warnAboutExtras(ChatRequest request, @Nullable StructuredOutputMethod method, Set<String> taken,
                                        RequestWarnings warnings) {
        if (taken.contains("generationConfig") && (method == StructuredOutputMethod.NATIVE
                || method == StructuredOutputMethod.JSON_MODE || !request.reasoning().isDefault()
                || SAMPLING.anySet(request.sampling()))) {
            warnings.ignored("Gemini: the generationConfig extra replaces the one written from the request: its "
                    + "sampling, reasoning and structured-output settings were not sent");
        }
        if (method == StructuredOutputMethod.TOOL_FORCED && (taken.contains("toolConfig") || taken.contains("tools"))) {
            warnings.ignored("Gemini: the tools or toolConfig extra replaces the forced call of the output schema's tool");
        }
    }

    /**
     * Gemini caches prompt prefixes implicitly (and explicitly only through its separate
     * {@code cachedContents} API): breakpoints and a cache key have no field here.
     */
    static void warnAboutCaching(PromptCaching caching, RequestWarnings warnings) {
        if (caching.hasBreakpoints()) {
            warnings.ignored("Gemini: prompt-cache breakpoints are ignored (Gemini caches prompt prefixes implicitly; "
                    + "explicit caching is its separate cachedContents API); cached tokens are still reported in usage");
        }
        if (caching.key() != null) {
            warnings.ignored("Gemini: the prompt cache key is ignored (Gemini has no cache routing key)");
        }
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
                for (Media media : u.media()) {
                    GeminiMedia.write(g, media);
                }
                // media alone need no empty text part after them
                if (!u.text().isEmpty() || u.media().isEmpty()) {
                    g.writeStartObject();
                    g.writeStringProperty("text", u.text());
                    g.writeEndObject();
                }
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

    /** Writes the system texts, then the structured-output instruction when the method needs one. */
    private static void writeSystem(JsonGenerator g, List<Message> messages, @Nullable String instruction) {
        List<String> system = new ArrayList<>(SystemTexts.of(messages));
        if (instruction != null) {
            system.add(instruction);
        }
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

    /** Forces a call of the output schema's tool: {@code mode: ANY} with only that function allowed. */
    private static void writeForcedCall(JsonGenerator g, String name) {
        g.writeObjectPropertyStart("toolConfig");
        g.writeObjectPropertyStart("functionCallingConfig");
        g.writeStringProperty("mode", "ANY");
        JsonWriting.writeStrings(g, "allowedFunctionNames", List.of(name));
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * Writes sampling, the native structured output ({@code responseMimeType: application/json} with
     * the schema as {@code responseJsonSchema}, full JSON Schema, not the OpenAPI subset of
     * {@code responseSchema}) and {@code thinkingConfig} (see {@link GeminiThinking}).
     */
    private static void writeGenerationConfig(JsonGenerator g, ChatRequest request,
                                              @Nullable StructuredOutputMethod method, RequestWarnings warnings) {
        SamplingOptions s = request.sampling();
        ReasoningOptions r = request.reasoning();
        boolean json = method == StructuredOutputMethod.NATIVE || method == StructuredOutputMethod.JSON_MODE;
        if (!SAMPLING.anySet(s) && r.isDefault() && !json) {
            return;
        }
        g.writeObjectPropertyStart("generationConfig");
        SAMPLING.write(g, s, Set.of());
        OutputSchema output = request.output();
        if (json && output != null) {
            g.writeStringProperty("responseMimeType", "application/json");
            if (method == StructuredOutputMethod.NATIVE) {
                g.writeName("responseJsonSchema");
                writeSchema(g, output);
            }
        }
        GeminiThinking.write(g, request.model(), r, warnings);
        g.writeEndObject();
    }

    /**
     * Writes the output schema, with its description (which Gemini has no separate field for) as the
     * root's {@code description} when the schema has none of its own.
     */
    static void writeSchema(JsonGenerator g, OutputSchema output) {
        String description = output.description();
        if (description == null) {
            JsonWriting.copyJson(g, output.schema(), "the output schema " + output.name());
            return;
        }
        try (JsonParser p = JsonWriting.JSON.createParser(ObjectReadContext.empty(), output.schema())) {
            p.nextToken();
            g.writeStartObject();
            boolean described = false;
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = p.currentName();
                described |= "description".equals(name);
                g.writeName(name);
                p.nextToken();
                g.copyCurrentStructure(p);
            }
            if (!described) {
                g.writeStringProperty("description", description);
            }
            g.writeEndObject();
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the output schema " + output.name() + " is not valid JSON: "
                    + e.getOriginalMessage(), e);
        }
    }
}
