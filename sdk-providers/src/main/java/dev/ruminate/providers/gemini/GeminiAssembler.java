package dev.ruminate.providers.gemini;

import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.transport.http.ErrorBodyParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns parsed Gemini chunks into events, keeping the state that spans chunks.
 *
 * <p><b>Parts.</b> Gemini sends no part indices: each chunk's parts are deltas. Consecutive text
 * of one kind (thought or answer) extends the open part; a change of kind opens a new one. A
 * {@code thoughtSignature} seals the part it arrives on: it is attached to the open part when that
 * part is of the same kind and has no signature yet (a trailing {@code {"text":"",
 * "thoughtSignature":…}} seals the answer it ends, as Gemini 3 streams it). A sealed part still
 * takes the unsigned text of its kind that follows (Gemini 2.5 signs the first chunk of its answer
 * and streams the rest unsigned; the whole body has that answer as one signed part, and the stream
 * must reduce to the same message), but a second signature opens a new part, so that a signature
 * is never moved to another part's position nor overwritten. An empty answer text
 * that carries a signature and finds no open answer part opens an empty one. Every function call
 * is its own part, with its signature; a call streamed in {@code partialArgs} fragments (Vertex AI)
 * emits its name first and its assembled arguments when the closing {@code {"functionCall":{}}}
 * arrives. {@code executableCode} and {@code codeExecutionResult} parts become
 * {@link ServerToolBlock}s.
 *
 * <p><b>Interactions API.</b> Steps have indices: a {@code thought} step is a reasoning part (its
 * {@code signature} delta a seal, its {@code thought_summary} deltas' text, flat or under
 * {@code content}, summary text; a summary or signature on the step's start is taken too), a
 * {@code model_output} step a text part, a {@code function_call} step a tool call whose
 * {@code arguments} stream as {@code arguments_delta}; {@code interaction.completed} ends the
 * response ({@code requires_action} means tool calls).
 *
 * <p>Not thread-safe; one per response.
 */
final class GeminiAssembler {

    private enum Kind { NONE, THOUGHT, TEXT }

    private final String provider;
    private boolean started;
    private int nextPart;
    private int openPart = -1;
    private Kind openKind = Kind.NONE;
    private boolean openSigned;
    private int toolCalls;
    /** A call being streamed in fragments: its part, or -1. */
    private int streamingCall = -1;
    private @Nullable PartialArguments streamingArgs;
    private @Nullable String finishReason;
    private @Nullable String blockReason;
    private boolean interactionCompleted;
    private @Nullable String interactionStatus;
    private @Nullable Usage usage;
    private boolean usageReported;
    /** Interactions: step index to part, and whether the step is a function call with deltas seen. */
    private final Map<Integer, Integer> stepParts = new HashMap<>();
    private final Map<Integer, String> stepTypes = new HashMap<>();
    private final Map<Integer, Boolean> stepArgsSeen = new HashMap<>();
    private final Map<Integer, String> stepStartArgs = new HashMap<>();
    private final List<Boolean> ended = new ArrayList<>();

    GeminiAssembler(String provider) {
        this.provider = provider;
    }

    boolean finishSeen() {
        return finishReason != null || blockReason != null || interactionCompleted;
    }

    boolean started() {
        return started;
    }

    /** Applies one chunk. */
    void apply(GeminiChunk c, List<ChatEvent> out) {
        if (c.error != null) {
            throw new ProviderStreamException(provider,
                    ErrorBodyParser.standard().parse(("{\"error\":" + c.error + "}").getBytes(StandardCharsets.UTF_8)));
        }
        String eventType = c.eventType;
        if (eventType != null) {
            interaction(eventType, c, out);
            return;
        }
        start(c.modelVersion, c.responseId, out);
        for (GeminiPart part : c.parts) {
            part(part, out);
        }
        if (c.hasUsage) {
            usage = usageOf(c);
            if (c.finishReason != null) {
                // the final count: reported now, so that a connection lost before the end keeps it
                out.add(new UsageUpdate(usage));
                usageReported = true;
            }
        }
        if (c.blockReason != null) {
            blockReason = c.blockReason;
        }
        if (c.finishReason != null) {
            finishReason = c.finishReason;
        }
    }

    /** Ends the response: closes open parts, reports usage, completes. */
    void complete(List<ChatEvent> out) {
        if (streamingCall >= 0) {
            finishStreamingCall(out);
        }
        closeOpen(out);
        for (int i = 0; i < ended.size(); i++) {
            if (!ended.get(i)) {
                end(i, out);
            }
        }
        if (usage != null && !usageReported) {
            out.add(new UsageUpdate(usage));
        }
        String raw = finishReason != null ? finishReason : blockReason != null ? blockReason : interactionStatus;
        out.add(new ResponseCompleted(finish(), raw));
    }

    private FinishReason finish() {
        if (interactionCompleted) {
            return "requires_action".equals(interactionStatus) ? FinishReason.TOOL_CALLS
                    : "completed".equals(interactionStatus) ? FinishReason.STOP
                    : "incomplete".equals(interactionStatus) ? FinishReason.LENGTH : FinishReason.OTHER;
        }
        if (finishReason == null) {
            return blockReason != null ? FinishReason.CONTENT_FILTER : FinishReason.OTHER;
        }
        return switch (finishReason) {
            case "STOP" -> toolCalls > 0 ? FinishReason.TOOL_CALLS : FinishReason.STOP;
            case "MAX_TOKENS" -> FinishReason.LENGTH;
            case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT",
                 "IMAGE_RECITATION", "LANGUAGE" -> FinishReason.CONTENT_FILTER;
            case "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS" -> FinishReason.ERROR;
            default -> FinishReason.OTHER;
        };
    }

    private void start(@Nullable String model, @Nullable String responseId, List<ChatEvent> out) {
        if (!started) {
            started = true;
            out.add(new ResponseStarted(provider, model, responseId));
        }
    }

    private void part(GeminiPart p, List<ChatEvent> out) {
        if (p.functionCall) {
            call(p, out);
            return;
        }
        if (p.serverType != null) {
            closeOpen(out);
            int part = newPart();
            out.add(new ServerToolBlock(part, p.serverType, null, null, p.serverJson != null ? p.serverJson : "{}"));
            if (p.signature != null) {
                out.add(new Seal(part, Seal.Kind.SIGNATURE, p.signature));
            }
            end(part, out);
            return;
        }
        if (p.text == null) {
            if (p.signature != null && openPart >= 0 && !openSigned) {
                out.add(new Seal(openPart, Seal.Kind.SIGNATURE, p.signature));
                openSigned = true;
            }
            return;
        }
        Kind kind = p.thought ? Kind.THOUGHT : Kind.TEXT;
        // a signed part takes more text, but never a second signature
        boolean extend = openPart >= 0 && openKind == kind && (!openSigned || p.signature == null);
        if (!extend && p.text.isEmpty() && p.signature == null) {
            return;
        }
        if (!extend) {
            closeOpen(out);
            openPart = newPart();
            openKind = kind;
            openSigned = false;
            if (p.text.isEmpty()) {
                // an empty part that exists only to carry a signature: give it its kind
                out.add(kind == Kind.THOUGHT ? new ReasoningDelta(openPart, "", true, "thought") : new ContentDelta(openPart, ""));
            }
        }
        if (!p.text.isEmpty()) {
            out.add(kind == Kind.THOUGHT ? new ReasoningDelta(openPart, p.text, true, "thought")
                    : new ContentDelta(openPart, p.text));
        }
        if (p.signature != null) {
            out.add(new Seal(openPart, Seal.Kind.SIGNATURE, p.signature));
            openSigned = true;
        }
    }

    private void call(GeminiPart p, List<ChatEvent> out) {
        if (streamingCall >= 0) {
            int part = streamingCall;
            for (GeminiPart.PartialArg arg : p.partialArgs) {
                streamingArgs().add(arg);
            }
            if (p.signature != null) {
                out.add(new Seal(part, Seal.Kind.SIGNATURE, p.signature));
            }
            if (p.isEmptyFunctionCall() || !p.callWillContinue) {
                finishStreamingCall(out);
            }
            return;
        }
        if (p.isEmptyFunctionCall()) {
            return;
        }
        closeOpen(out);
        int part = newPart();
        int index = toolCalls++;
        if (p.callWillContinue && p.callArgs == null) {
            streamingCall = part;
            streamingArgs = new PartialArguments();
            out.add(new ToolCallDelta(part, index, p.callId, p.callName, ""));
            for (GeminiPart.PartialArg arg : p.partialArgs) {
                streamingArgs.add(arg);
            }
            if (p.signature != null) {
                out.add(new Seal(part, Seal.Kind.SIGNATURE, p.signature));
            }
            return;
        }
        out.add(new ToolCallDelta(part, index, p.callId, p.callName, p.callArgs != null ? p.callArgs : "{}"));
        if (p.signature != null) {
            out.add(new Seal(part, Seal.Kind.SIGNATURE, p.signature));
        }
        end(part, out);
    }

    private PartialArguments streamingArgs() {
        if (streamingArgs == null) {
            streamingArgs = new PartialArguments();
        }
        return streamingArgs;
    }

    private void finishStreamingCall(List<ChatEvent> out) {
        int part = streamingCall;
        out.add(new ToolCallDelta(part, toolCalls - 1, null, null, streamingArgs().json()));
        streamingCall = -1;
        streamingArgs = null;
        end(part, out);
    }

    private void interaction(String eventType, GeminiChunk c, List<ChatEvent> out) {
        switch (eventType) {
            case "interaction.created", "interaction.start" ->
                    start(c.interaction.get("model"), c.interaction.get("id"), out);
            case "step.start" -> stepStart(c, out);
            case "step.delta" -> stepDelta(c, out);
            case "step.stop" -> {
                Integer part = stepParts.get(c.index);
                if (part != null) {
                    stepStop(c.index, part, out);
                }
            }
            case "interaction.completed", "interaction.complete" -> {
                start(c.interaction.get("model"), c.interaction.get("id"), out);
                interactionCompleted = true;
                interactionStatus = c.interaction.get("status");
                if (c.hasUsage) {
                    usage = usageOf(c);
                }
            }
            default -> {
                // status updates and event types added later carry nothing to reduce
            }
        }
    }

    private void stepStart(GeminiChunk c, List<ChatEvent> out) {
        start(null, null, out);
        String type = c.step.getOrDefault("type", "");
        int part = newPart();
        stepParts.put(c.index, part);
        stepTypes.put(c.index, type);
        switch (type) {
            case "function_call" -> {
                int index = toolCalls++;
                out.add(new ToolCallDelta(part, index, c.step.get("id"), c.step.get("name"), ""));
                String args = c.step.get("arguments");
                if (args != null && !args.replaceAll("\\s", "").equals("{}")) {
                    stepStartArgs.put(c.index, args);
                }
                String signature = c.step.get("signature");
                if (signature != null && !signature.isEmpty()) {
                    out.add(new Seal(part, Seal.Kind.SIGNATURE, signature));
                }
            }
            case "thought" -> {
                // a step that arrives whole (summary and signature at its start) loses neither
                String summary = c.step.get("summary");
                out.add(new ReasoningDelta(part, summary != null ? summary : "", true, "thought"));
                String signature = c.step.get("signature");
                if (signature != null && !signature.isEmpty()) {
                    out.add(new Seal(part, Seal.Kind.SIGNATURE, signature));
                }
            }
            default -> out.add(new ContentDelta(part, ""));
        }
    }

    private void stepDelta(GeminiChunk c, List<ChatEvent> out) {
        Integer part = stepParts.get(c.index);
        if (part == null) {
            return;
        }
        String type = stepTypes.getOrDefault(c.index, "");
        String signature = c.delta.get("signature");
        if (signature != null) {
            out.add(new Seal(part, Seal.Kind.SIGNATURE, signature));
        }
        String arguments = c.delta.get("arguments");
        if (arguments != null && type.equals("function_call")) {
            stepArgsSeen.put(c.index, true);
            out.add(new ToolCallDelta(part, toolIndexOf(part), null, null, arguments));
        }
        String text = c.delta.get("text");
        if (text == null) {
            text = c.delta.get("summary");
        }
        if (text != null && !text.isEmpty()) {
            out.add(type.equals("thought") ? new ReasoningDelta(part, text, true, "thought") : new ContentDelta(part, text));
        }
    }

    private void stepStop(int step, int part, List<ChatEvent> out) {
        if ("function_call".equals(stepTypes.get(step)) && !stepArgsSeen.getOrDefault(step, false)) {
            String args = stepStartArgs.getOrDefault(step, "{}");
            out.add(new ToolCallDelta(part, toolIndexOf(part), null, null, args));
        }
        if (!ended.get(part)) {
            end(part, out);
        }
    }

    private int toolIndexOf(int part) {
        int index = 0;
        for (Map.Entry<Integer, Integer> e : stepParts.entrySet()) {
            if (e.getValue() < part && "function_call".equals(stepTypes.get(e.getKey()))) {
                index++;
            }
        }
        return index;
    }

    private static Usage usageOf(GeminiChunk c) {
        Long output = c.candidatesTokens == null && c.thoughtsTokens == null ? null
                : (c.candidatesTokens != null ? c.candidatesTokens : 0L) + (c.thoughtsTokens != null ? c.thoughtsTokens : 0L);
        return new Usage(c.promptTokens, output, c.thoughtsTokens, c.cachedTokens);
    }

    private int newPart() {
        ended.add(false);
        return nextPart++;
    }

    private void closeOpen(List<ChatEvent> out) {
        if (openPart >= 0) {
            end(openPart, out);
            openPart = -1;
            openKind = Kind.NONE;
            openSigned = false;
        }
    }

    private void end(int part, List<ChatEvent> out) {
        if (!ended.get(part)) {
            ended.set(part, true);
            out.add(new PartEnded(part));
        }
    }
}
