package dev.ruminate.providers.bedrock;

import dev.ruminate.core.history.History;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.StructuredOutputMethod;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.CacheBreakpoints;
import dev.ruminate.providers.internal.ClaudeSampling;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import dev.ruminate.providers.internal.StructuredOutputs;
import dev.ruminate.providers.internal.SystemTexts;
import dev.ruminate.providers.spi.RequestWarnings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a Converse request body: {@code messages}, {@code system}, {@code inferenceConfig},
 * {@code toolConfig}, {@code additionalModelRequestFields}, {@code outputConfig}, then the request's extras (an extra
 * replaces the field of its name, whole). The model is in the URL, not the body.
 *
 * <p>Earlier assistant turns go back as Bedrock requires, checked against requests Bedrock
 * accepted: reasoning with a signature as {@code reasoningContent.reasoningText} {text, signature},
 * redacted reasoning as {@code reasoningContent.redactedContent}, both unmodified and in place.
 * Reasoning that Bedrock itself returned without a signature (DeepSeek-R1, Qwen) goes back as a
 * text block {@code "<think>\n" + text + "\n</think>"} in its original position, as Bedrock's own
 * clients send it. Turns from other providers and the retention of reasoning have been handled
 * before, by {@link History#plan} in the provider skeleton (retention
 * {@link dev.ruminate.core.history.Retention#ALL} unless the policy says otherwise: every turn keeps
 * its reasoning, as the accepted requests show; Claude filters old turns itself): another provider's
 * signatures never reach Bedrock. Consecutive user-side messages
 * (tool results, then a user text) are merged into one {@code user} message, since Converse wants
 * the roles to alternate.
 */
final class BedrockRequestEncoder {

    /** The fields of {@code inferenceConfig} after {@code maxTokens}. */
    private static final SamplingFields INFERENCE =
            new SamplingFields("temperature", "topP", null, "stopSequences", null);

    /** The most cache points per request (UNVERIFIED for Converse: Claude's limit of four underneath). */
    static final int MAX_CACHE_POINTS = 4;

    private BedrockRequestEncoder() {
    }

    /** Encodes a request whose history {@link History#prepare} has prepared for the provider, reporting nothing. */
    static byte[] encode(ChatRequest request) {
        return encode(request, new RequestWarnings());
    }

    /**
     * Encodes a request whose history {@link History#prepare} has prepared for the provider.
     *
     * @param request the request
     * @param warnings where ignored and coerced options are reported
     * @return the body
     * @throws dev.ruminate.providers.spi.UnsupportedInput for media or a structured-output form Converse does not take
     */
    static byte[] encode(ChatRequest request, RequestWarnings warnings) {
        BedrockMedia.Plan media = BedrockMedia.plan(request.messages());
        Set<String> taken = request.extras().keySet();
        BedrockReasoning reasoning = BedrockReasoning.of(request, warnings);
        OutputSchema output = request.output();
        StructuredOutputMethod method = BedrockStructuredOutput.method(request, reasoning);
        boolean toolMethod = StructuredOutputs.isTool(method);
        List<ToolDefinition> tools = StructuredOutputs.tools(request, method);
        List<String> system = new ArrayList<>(SystemTexts.of(request.messages()));
        String instruction = StructuredOutputs.instruction(request, method);
        if (instruction != null) {
            system.add(instruction);
        }
        boolean writesTools = !tools.isEmpty() && !taken.contains("toolConfig");
        boolean writesSystem = !system.isEmpty() && !taken.contains("system");
        CacheBreakpoints cache = caching(request, writesTools, writesSystem, taken, warnings);
        SamplingOptions sampling = reasoning.on() ? ClaudeSampling.underThinking(request.sampling(), warnings)
                : request.sampling();
        if (sampling.seed() != null) {
            warnings.ignored("seed not sent: Converse has no seed");
        }
        if (method != null && taken.contains(toolMethod ? "toolConfig" : method == StructuredOutputMethod.NATIVE
                ? "outputConfig" : "system")) {
            warnings.ignored("output schema not sent as asked: an extra replaces the field it goes in");
        }
        OutputSchema outputTool = toolMethod ? output : null;
        boolean forced = method == StructuredOutputMethod.TOOL_FORCED;
        OutputSchema nativeFormat = method == StructuredOutputMethod.NATIVE && !taken.contains("outputConfig") ? output : null;
        return RequestBody.write(request, 512, g -> {
            if (!taken.contains("messages")) {
                writeMessages(g, request.messages(), media, cache.messages());
            }
            if (writesSystem) {
                writeSystem(g, system, cache.system());
            }
            if (!taken.contains("inferenceConfig")) {
                writeInferenceConfig(g, sampling);
            }
            if (writesTools) {
                writeTools(g, tools, cache.tools(), outputTool, forced);
            }
            if (!taken.contains("additionalModelRequestFields")) {
                writeReasoning(g, reasoning);
            }
            if (nativeFormat != null) {
                writeOutputConfig(g, nativeFormat);
            }
        });
    }

    /**
     * The cache points: after the system blocks, after the tools, after the content of each marked
     * message ({@link CacheBreakpoints}, at most four, UNVERIFIED for Converse: Claude's limit
     * underneath); a time to live and a routing key are reported as ignored (UNVERIFIED whether
     * {@code cachePoint} takes a ttl).
     */
    private static CacheBreakpoints caching(ChatRequest request, boolean writesTools, boolean writesSystem,
                                            Set<String> taken, RequestWarnings warnings) {
        PromptCaching caching = request.caching();
        if (caching.key() != null) {
            warnings.ignored("prompt cache key not sent: Converse has no cache routing key");
        }
        if (caching.hasBreakpoints() && caching.ttl() != PromptCaching.Ttl.DEFAULT) {
            warnings.ignored("cache ttl " + caching.ttl() + " not sent: Converse's cachePoint is written without a ttl");
        }
        Map<Integer, Boolean> writable = new HashMap<>();
        List<Message> messages = request.messages();
        if (!taken.contains("messages")) {
            for (int i = 0; i < messages.size(); i++) {
                Message m = messages.get(i);
                if (m instanceof UserMessage || m instanceof ToolResultMessage
                        || (m instanceof AssistantMessage a && !sendable(a).isEmpty())) {
                    writable.put(i, true);
                }
            }
        }
        return CacheBreakpoints.decide("Bedrock", "cache points", MAX_CACHE_POINTS, caching, messages, writesTools,
                writesSystem, writable, warnings);
    }

    private static void writeCachePoint(JsonGenerator g) {
        g.writeStartObject();
        g.writeObjectPropertyStart("cachePoint");
        g.writeStringProperty("type", "default");
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void writeMessages(JsonGenerator g, List<Message> messages, BedrockMedia.Plan media, Set<Integer> cached) {
        g.writeArrayPropertyStart("messages");
        boolean userOpen = false;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (m instanceof UserMessage u) {
                userOpen = openUser(g, userOpen);
                // media go before the text; a message of media alone has no text block (Converse refuses empty text)
                for (Media medium : u.media()) {
                    BedrockMedia.write(g, medium, media);
                }
                if (u.media().isEmpty() || !u.text().isEmpty()) {
                    g.writeStartObject();
                    g.writeStringProperty("text", u.text());
                    g.writeEndObject();
                }
            } else if (m instanceof ToolResultMessage r) {
                userOpen = openUser(g, userOpen);
                writeToolResult(g, r, media);
            } else if (m instanceof AssistantMessage a) {
                List<Part> parts = sendable(a);
                if (parts.isEmpty()) {
                    continue;
                }
                userOpen = closeUser(g, userOpen);
                g.writeStartObject();
                g.writeStringProperty("role", "assistant");
                g.writeArrayPropertyStart("content");
                for (Part part : parts) {
                    writePart(g, part);
                }
                if (cached.contains(i)) {
                    writeCachePoint(g);
                }
                g.writeEndArray();
                g.writeEndObject();
                continue;
            } else {
                continue;
            }
            if (cached.contains(i)) {
                writeCachePoint(g);
            }
        }
        closeUser(g, userOpen);
        g.writeEndArray();
    }

    private static boolean openUser(JsonGenerator g, boolean userOpen) {
        if (!userOpen) {
            g.writeStartObject();
            g.writeStringProperty("role", "user");
            g.writeArrayPropertyStart("content");
        }
        return true;
    }

    private static boolean closeUser(JsonGenerator g, boolean userOpen) {
        if (userOpen) {
            g.writeEndArray();
            g.writeEndObject();
        }
        return false;
    }

    private static void writeToolResult(JsonGenerator g, ToolResultMessage r, BedrockMedia.Plan media) {
        g.writeStartObject();
        g.writeObjectPropertyStart("toolResult");
        g.writeStringProperty("toolUseId", r.toolCallId());
        g.writeArrayPropertyStart("content");
        for (Media medium : r.media()) {
            BedrockMedia.write(g, medium, media);
        }
        if (r.media().isEmpty() || !r.content().isEmpty()) {
            g.writeStartObject();
            g.writeStringProperty("text", r.content());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringProperty("status", r.error() ? "error" : "success");
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * The parts of an earlier turn that can go back to Bedrock, after {@link History#prepare} removed
     * other providers' state: empty texts are refused by the API, and reasoning needs text or a seal.
     */
    private static List<Part> sendable(AssistantMessage a) {
        List<Part> out = new ArrayList<>(a.parts().size());
        for (Part part : a.parts()) {
            if (sends(part)) {
                out.add(part);
            }
        }
        return out;
    }

    /** The block a reasoning part goes back as. */
    enum ReasoningBlock {
        /** {@code reasoningContent.redactedContent}. */
        REDACTED,
        /** {@code reasoningContent.reasoningText} with text and signature. */
        SIGNED,
        /** A text block {@code <think>\n…\n</think>} (unsigned reasoning Bedrock itself returned). */
        THINK_TEXT,
        /** None: no text and no seal. */
        NONE
    }

    /** Decides a reasoning part's block: redacted data first, then a signature, then its text as tagged text. */
    static ReasoningBlock reasoningBlock(ReasoningPart r) {
        return r.seals().redacted() != null ? ReasoningBlock.REDACTED
                : r.seals().signature() != null ? ReasoningBlock.SIGNED
                : !r.text().isEmpty() ? ReasoningBlock.THINK_TEXT : ReasoningBlock.NONE;
    }

    /**
     * Tells whether a part of an earlier turn goes back: reasoning that has a block, a non-empty text
     * (the API refuses empty ones), a tool call; nothing else (server-tool parts have no Converse form).
     */
    static boolean sends(Part part) {
        if (part instanceof ReasoningPart r) {
            return reasoningBlock(r) != ReasoningBlock.NONE;
        }
        if (part instanceof TextPart t) {
            return !t.text().isEmpty();
        }
        return part instanceof ToolCallPart;
    }

    private static void writePart(JsonGenerator g, Part part) {
        g.writeStartObject();
        if (part instanceof ReasoningPart r) {
            ReasoningBlock block = reasoningBlock(r);
            String redacted = r.seals().redacted();
            String signature = r.seals().signature();
            if (block == ReasoningBlock.REDACTED && redacted != null) {
                g.writeObjectPropertyStart("reasoningContent");
                g.writeStringProperty("redactedContent", redacted);
                g.writeEndObject();
            } else if (block == ReasoningBlock.SIGNED && signature != null) {
                g.writeObjectPropertyStart("reasoningContent");
                g.writeObjectPropertyStart("reasoningText");
                g.writeStringProperty("text", r.text());
                g.writeStringProperty("signature", signature);
                g.writeEndObject();
                g.writeEndObject();
            } else {
                g.writeStringProperty("text", "<think>\n" + r.text() + "\n</think>");
            }
        } else if (part instanceof TextPart t) {
            g.writeStringProperty("text", t.text());
        } else if (part instanceof ToolCallPart c) {
            g.writeObjectPropertyStart("toolUse");
            g.writeStringProperty("toolUseId", Objects.requireNonNullElse(c.id(), ""));
            g.writeStringProperty("name", c.name());
            g.writeName("input");
            JsonWriting.writeArguments(g, c);
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void writeSystem(JsonGenerator g, List<String> system, boolean cachePoint) {
        g.writeArrayPropertyStart("system");
        SystemTexts.writeTextObjects(g, system);
        if (cachePoint) {
            writeCachePoint(g);
        }
        g.writeEndArray();
    }

    /** Converse puts {@code maxTokens} first, and takes no seed. */
    private static void writeInferenceConfig(JsonGenerator g, SamplingOptions s) {
        if (s.maxOutputTokens() == null && !INFERENCE.anySet(s)) {
            return;
        }
        g.writeObjectPropertyStart("inferenceConfig");
        if (s.maxOutputTokens() != null) {
            g.writeNumberProperty("maxTokens", s.maxOutputTokens());
        }
        INFERENCE.write(g, s, Set.of());
        g.writeEndObject();
    }

    /**
     * Writes {@code toolConfig}: the tools (the output tool last), a cache point after them, and for
     * the output tool {@code toolChoice}, forced to it ({@code {"tool":{"name":…}}}) while thinking is
     * off, {@code {"auto":{}}} while it is on (Claude refuses a forced tool with thinking, 400).
     */
    private static void writeTools(JsonGenerator g, List<ToolDefinition> tools, boolean cachePoint,
                                   @Nullable OutputSchema output, boolean forced) {
        g.writeObjectPropertyStart("toolConfig");
        g.writeArrayPropertyStart("tools");
        for (ToolDefinition tool : tools) {
            g.writeStartObject();
            g.writeObjectPropertyStart("toolSpec");
            g.writeStringProperty("name", tool.name());
            if (!tool.description().isEmpty()) {
                g.writeStringProperty("description", tool.description());
            }
            g.writeObjectPropertyStart("inputSchema");
            g.writeName("json");
            JsonWriting.writeSchema(g, tool);
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        }
        if (cachePoint) {
            writeCachePoint(g);
        }
        g.writeEndArray();
        if (output != null) {
            g.writeObjectPropertyStart("toolChoice");
            if (forced) {
                g.writeObjectPropertyStart("tool");
                g.writeStringProperty("name", output.name());
                g.writeEndObject();
            } else {
                g.writeObjectPropertyStart("auto");
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /**
     * Writes the native structured-output form, {@code outputConfig.textFormat} with the schema as a
     * JSON string (UNVERIFIED: the form is taken from Bedrock's structured-output announcement, not
     * from a recorded request; written only for the NATIVE strategy).
     */
    private static void writeOutputConfig(JsonGenerator g, OutputSchema output) {
        g.writeObjectPropertyStart("outputConfig");
        g.writeObjectPropertyStart("textFormat");
        g.writeStringProperty("type", "json_schema");
        g.writeObjectPropertyStart("structure");
        g.writeObjectPropertyStart("jsonSchema");
        g.writeStringProperty("schema", output.schema());
        g.writeStringProperty("name", output.name());
        if (output.description() != null) {
            g.writeStringProperty("description", output.description());
        }
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Writes {@code additionalModelRequestFields} as {@link BedrockReasoning} decided. */
    private static void writeReasoning(JsonGenerator g, BedrockReasoning r) {
        if (r.reasoningConfig() != null) {
            g.writeObjectPropertyStart("additionalModelRequestFields");
            g.writeStringProperty("reasoning_config", r.reasoningConfig());
            g.writeEndObject();
            return;
        }
        if (r.thinkingType() == null) {
            return;
        }
        g.writeObjectPropertyStart("additionalModelRequestFields");
        g.writeObjectPropertyStart("thinking");
        g.writeStringProperty("type", r.thinkingType());
        if (r.budget() != null) {
            g.writeNumberProperty("budget_tokens", r.budget());
        }
        g.writeEndObject();
        if (r.effort() != null) {
            g.writeObjectPropertyStart("output_config");
            g.writeStringProperty("effort", r.effort());
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
