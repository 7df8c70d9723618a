package dev.ruminate.providers.bedrock;

import dev.ruminate.core.history.History;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.SamplingOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.internal.RequestBody;
import dev.ruminate.providers.internal.SamplingFields;
import dev.ruminate.providers.internal.SystemTexts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a Converse request body: {@code messages}, {@code system}, {@code inferenceConfig},
 * {@code toolConfig}, {@code additionalModelRequestFields}, then the request's extras (an extra
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

    private BedrockRequestEncoder() {
    }

    /** Encodes a request whose history {@link History#prepare} has prepared for the provider. */
    static byte[] encode(ChatRequest request) {
        Set<String> taken = request.extras().keySet();
        return RequestBody.write(request, 512, g -> {
            if (!taken.contains("messages")) {
                writeMessages(g, request.messages());
            }
            if (!taken.contains("system")) {
                writeSystem(g, request.messages());
            }
            if (!taken.contains("inferenceConfig")) {
                writeInferenceConfig(g, request.sampling());
            }
            if (!request.tools().isEmpty() && !taken.contains("toolConfig")) {
                writeTools(g, request.tools());
            }
            if (!taken.contains("additionalModelRequestFields")) {
                writeReasoning(g, request.model(), request.reasoning());
            }
        });
    }

    private static void writeMessages(JsonGenerator g, List<Message> messages) {
        g.writeArrayPropertyStart("messages");
        boolean userOpen = false;
        for (Message m : messages) {
            if (m instanceof UserMessage u) {
                userOpen = openUser(g, userOpen);
                g.writeStartObject();
                g.writeStringProperty("text", u.text());
                g.writeEndObject();
            } else if (m instanceof ToolResultMessage r) {
                userOpen = openUser(g, userOpen);
                writeToolResult(g, r);
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
                g.writeEndArray();
                g.writeEndObject();
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

    private static void writeToolResult(JsonGenerator g, ToolResultMessage r) {
        g.writeStartObject();
        g.writeObjectPropertyStart("toolResult");
        g.writeStringProperty("toolUseId", r.toolCallId());
        g.writeArrayPropertyStart("content");
        g.writeStartObject();
        g.writeStringProperty("text", r.content());
        g.writeEndObject();
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

    private static void writeSystem(JsonGenerator g, List<Message> messages) {
        List<String> system = SystemTexts.of(messages);
        if (system.isEmpty()) {
            return;
        }
        g.writeArrayPropertyStart("system");
        SystemTexts.writeTextObjects(g, system);
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

    private static void writeTools(JsonGenerator g, List<ToolDefinition> tools) {
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
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * Claude takes Anthropic's {@code thinking} object; other families take {@code reasoning_config}
     * with an effort level, as recorded for Qwen. An effort for Claude (without a budget) becomes
     * adaptive thinking with {@code output_config.effort} on the models that have it (Claude 4.6 and
     * later: a fixed budget is deprecated there and refused from Opus 4.7 on; Bedrock accepted
     * {@code {"thinking":{"type":"adaptive"},"output_config":{"effort":"high"}}} for Sonnet 4.6,
     * {@code sendback/bedrock/pydantic-bedrock-claude-adaptive-effort}), and a budget on the older
     * ones: minimal and low 1024 tokens (the API's minimum), medium 4096, high 16384, xhigh 24576,
     * max 32768. Other models' {@code reasoning_config} has no level above high: xhigh and max ask
     * for high.
     */
    private static void writeReasoning(JsonGenerator g, String model, ReasoningOptions r) {
        boolean claude = model.toLowerCase(Locale.ROOT).contains("anthropic.");
        boolean off = Boolean.FALSE.equals(r.enabled()) || r.effort() == ReasoningEffort.NONE;
        if (claude) {
            ReasoningEffort effort = r.effort();
            if (!off && r.budgetTokens() == null && effort != null && AdaptiveClaude.takesAdaptiveThinking(model)) {
                g.writeObjectPropertyStart("additionalModelRequestFields");
                g.writeObjectPropertyStart("thinking");
                g.writeStringProperty("type", "adaptive");
                g.writeEndObject();
                g.writeObjectPropertyStart("output_config");
                g.writeStringProperty("effort", AdaptiveClaude.effortLevel(effort, model));
                g.writeEndObject();
                g.writeEndObject();
                return;
            }
            Integer budget = r.budgetTokens() != null ? r.budgetTokens() : budgetFor(effort);
            if (!off && budget == null && !Boolean.TRUE.equals(r.enabled())) {
                return;
            }
            g.writeObjectPropertyStart("additionalModelRequestFields");
            g.writeObjectPropertyStart("thinking");
            if (off) {
                g.writeStringProperty("type", "disabled");
            } else {
                g.writeStringProperty("type", "enabled");
                g.writeNumberProperty("budget_tokens", budget != null ? budget : 1024);
            }
            g.writeEndObject();
            g.writeEndObject();
        } else if (r.effort() != null && !off) {
            g.writeObjectPropertyStart("additionalModelRequestFields");
            ReasoningEffort effort = r.effort();
            g.writeStringProperty("reasoning_config", effort == ReasoningEffort.XHIGH || effort == ReasoningEffort.MAX
                    ? "high" : effort.name().toLowerCase(Locale.ROOT));
            g.writeEndObject();
        }
    }

    private static @Nullable Integer budgetFor(@Nullable ReasoningEffort effort) {
        if (effort == null) {
            return null;
        }
        return switch (effort) {
            case NONE -> null;
            case MINIMAL, LOW -> 1024;
            case MEDIUM -> 4096;
            case HIGH -> 16384;
            case XHIGH -> 24576;
            case MAX -> 32768;
        };
    }
}
