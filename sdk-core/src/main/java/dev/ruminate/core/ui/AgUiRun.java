package dev.ruminate.core.ui;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The state of one AG-UI run being encoded: which messages, reasoning spans and tool calls are open, and the
 * ids issued for the current response. Each method returns the AG-UI events (JSON text, one line each) that one
 * input causes. Not thread-safe: one instance per subscription, fed one signal at a time.
 */
final class AgUiRun {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private final String threadId;
    private final String runId;
    private final ServerTurns turns;

    /** The current response (model call): its turn id, which is also its assistant message id. */
    private @Nullable String turnId;
    private boolean textOpen;
    /** Whether the current response has shown a text message (open or closed). */
    private boolean textShown;
    /** Reasoning message ids by event part, in part order; the open ones are in {@link #reasoningOpen}. */
    private final TreeMap<Integer, String> reasoning = new TreeMap<>();
    private final Map<Integer, String> reasoningOpen = new LinkedHashMap<>();
    /** Tool call ids by event part, in part order; names and pending arguments until the name is known. */
    private final TreeMap<Integer, String> calls = new TreeMap<>();
    private final Map<Integer, String> callsOpen = new LinkedHashMap<>();
    private final Map<Integer, StringBuilder> callsWaiting = new LinkedHashMap<>();
    private final Map<Integer, @Nullable String> callIdsWaiting = new LinkedHashMap<>();
    private final List<Usage> usage = new ArrayList<>();
    private @Nullable String provider;
    private @Nullable String model;

    AgUiRun(String threadId, String runId, ServerTurns turns) {
        this.threadId = threadId;
        this.runId = runId;
        this.turns = turns;
    }

    List<String> started() {
        return List.of(write(g -> {
            type(g, "RUN_STARTED");
            g.writeStringProperty("threadId", threadId);
            g.writeStringProperty("runId", runId);
        }));
    }

    List<String> finished() {
        List<String> out = new ArrayList<>();
        closeAll(out);
        out.add(write(g -> {
            type(g, "RUN_FINISHED");
            g.writeStringProperty("threadId", threadId);
            g.writeStringProperty("runId", runId);
            if (!usage.isEmpty()) {
                g.writeArrayPropertyStart("usage");
                for (Usage u : usage) {
                    g.writeStartObject();
                    optString(g, "provider", provider);
                    optString(g, "model", model);
                    optLong(g, "inputTokens", u.inputTokens());
                    optLong(g, "outputTokens", u.outputTokens());
                    optLong(g, "reasoningTokens", u.reasoningTokens());
                    optLong(g, "cachedInputTokens", u.cachedTokens());
                    optLong(g, "cacheWriteInputTokens", u.cacheWriteTokens());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
        }));
        return out;
    }

    /**
     * A failure: RUN_ERROR with a message safe for a browser. A {@link RuminateException} gives its type as code and
     * its message (API keys are redacted from it at the source), unwrapped from the reducer's wrapper; one caused by a
     * foreign throwable, whose text may quote anything, gives only its type; any other throwable is {@code internal}.
     */
    List<String> failed(Throwable error) {
        Throwable e = error;
        while (e instanceof RuminateException && e.getCause() instanceof RuminateException inner) {
            e = inner;
        }
        String code = e instanceof RuminateException r ? r.type() : "internal";
        String message = e instanceof RuminateException && e.getCause() == null ? String.valueOf(e.getMessage())
                : "the run failed";
        return List.of(write(g -> {
            type(g, "RUN_ERROR");
            g.writeStringProperty("message", message);
            g.writeStringProperty("code", code);
        }));
    }

    /** One provider event of the current response; a response starts at the first event after the last ended. */
    List<String> chat(ChatEvent e) {
        List<String> out = new ArrayList<>();
        if (turnId == null) {
            turnId = UUID.randomUUID().toString();
        }
        if (e instanceof ResponseStarted s) {
            provider = s.provider();
            model = s.model();
        } else if (e instanceof ReasoningDelta r) {
            reasoningText(r.part(), r.text(), out);
        } else if (e instanceof ReasoningFinal f) {
            // the final text only matters when none was streamed for the part (a provider giving it whole)
            if (!reasoning.containsKey(f.part())) {
                reasoningText(f.part(), f.text(), out);
                closeReasoning(f.part(), out);
            }
        } else if (e instanceof ContentDelta c) {
            if (!c.text().isEmpty()) {
                openText(out);
                String id = turnId;
                out.add(write(g -> {
                    type(g, "TEXT_MESSAGE_CONTENT");
                    g.writeStringProperty("messageId", id);
                    g.writeStringProperty("delta", c.text());
                }));
            }
        } else if (e instanceof ToolCallDelta t) {
            toolCall(t, out);
        } else if (e instanceof PartEnded p) {
            closeReasoning(p.part(), out);
            closeCall(p.part(), out);
        } else if (e instanceof UsageUpdate) {
            // the reduced message's usage, taken when the response is done, holds the totals
        } else if (e instanceof Warning w) {
            out.add(custom("ruminate.warning", g -> {
                g.writeStringProperty("code", w.code());
                g.writeStringProperty("message", w.message());
            }));
        } else if (e instanceof OutputChecked c) {
            out.add(custom("ruminate.output_checked", g -> {
                g.writeStringProperty("schema", c.schemaName());
                g.writeBooleanProperty("valid", c.valid());
                g.writeBooleanProperty("retrying", c.retrying());
            }));
        } else if (e instanceof Seal || e instanceof ServerToolBlock || e instanceof ResponseCompleted) {
            // opaque state stays here (the stored turn holds it, a handle stands for it); a provider's server
            // tool block may itself hold encrypted content; the response's end is handled by responseDone
        } else {
            throw new IllegalStateException("AgUiRun does not handle the event type " + e.getClass().getName());
        }
        return out;
    }

    /**
     * The current response is reduced: closes what is open, stores the turn under its id (tool calls that had
     * no provider id get the one the front end was given), and gives the front end a handle for each part that
     * holds opaque state.
     */
    List<String> responseDone(AssistantMessage message) {
        List<String> out = new ArrayList<>();
        String id = turnId == null ? UUID.randomUUID().toString() : turnId;
        if (turnId == null) {
            turnId = id;
        }
        closeAll(out);
        List<Part> parts = new ArrayList<>(message.parts());
        List<String> callIds = new ArrayList<>(calls.values());
        List<String> reasoningIds = new ArrayList<>(reasoning.values());
        int call = 0;
        int shownReasoning = 0;
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            if (p instanceof ToolCallPart c) {
                String shown = call < callIds.size() ? callIds.get(call) : null;
                call++;
                if (c.id() == null && shown != null) {
                    parts.set(i, new ToolCallPart(shown, c.name(), c.arguments(), c.argumentsValid(), c.seals()));
                }
                if (!c.seals().isEmpty() && shown != null) {
                    out.add(encrypted("tool-call", shown, AgUiHandles.of(id, i)));
                }
            } else if (p instanceof ReasoningPart r) {
                String shown = null;
                if (!r.text().isEmpty() && shownReasoning < reasoningIds.size()) {
                    shown = reasoningIds.get(shownReasoning++);
                }
                if (!r.seals().isEmpty()) {
                    if (shown == null) {
                        // reasoning with no readable text (redacted, or encrypted only): an empty reasoning message
                        // gives the front end something to hold the handle
                        shown = id + "-e" + i;
                        String empty = shown;
                        out.add(write(g -> {
                            type(g, "REASONING_MESSAGE_START");
                            g.writeStringProperty("messageId", empty);
                            g.writeStringProperty("role", "reasoning");
                        }));
                        out.add(write(g -> {
                            type(g, "REASONING_MESSAGE_END");
                            g.writeStringProperty("messageId", empty);
                        }));
                    }
                    out.add(encrypted("message", shown, AgUiHandles.of(id, i)));
                }
            }
        }
        if (!textShown && calls.isEmpty() && !parts.isEmpty()) {
            // no text and no call: an empty text message makes the turn an assistant message the front end sends back
            openText(out);
            closeText(out);
        }
        AssistantMessage stored = new AssistantMessage(parts, message.provider(), message.model(), message.finishReason(),
                message.rawFinishReason(), message.usage());
        turns.put(threadId, id, List.of(stored));
        if (!message.usage().equals(Usage.UNKNOWN)) {
            usage.add(message.usage());
        }
        turnId = null;
        textShown = false;
        reasoning.clear();
        calls.clear();
        return out;
    }

    /** Closes the current response's open messages and calls (a loop's tools are about to answer them). */
    List<String> closeOpen() {
        List<String> out = new ArrayList<>();
        closeAll(out);
        return out;
    }

    /** The ids of the current response's tool calls, in part order. */
    List<String> callIds() {
        return new ArrayList<>(calls.values());
    }

    List<String> stepStarted(int number) {
        return List.of(write(g -> {
            type(g, "STEP_STARTED");
            g.writeStringProperty("stepName", "step " + number);
        }));
    }

    List<String> stepFinished(int number) {
        return List.of(write(g -> {
            type(g, "STEP_FINISHED");
            g.writeStringProperty("stepName", "step " + number);
        }));
    }

    /** A tool the server ran: its result as a tool message. */
    List<String> toolResult(String toolCallId, LoopEvent.ToolFinished done) {
        return List.of(write(g -> {
            type(g, "TOOL_CALL_RESULT");
            g.writeStringProperty("messageId", UUID.randomUUID().toString());
            g.writeStringProperty("toolCallId", toolCallId);
            g.writeStringProperty("content", done.result().content());
            g.writeStringProperty("role", "tool");
        }));
    }

    private void reasoningText(int part, String text, List<String> out) {
        if (text.isEmpty()) {
            return;
        }
        String id = reasoning.get(part);
        if (id == null) {
            String opened = turnId + "-r" + part;
            reasoning.put(part, opened);
            reasoningOpen.put(part, opened);
            out.add(write(g -> {
                type(g, "REASONING_START");
                g.writeStringProperty("messageId", opened);
            }));
            out.add(write(g -> {
                type(g, "REASONING_MESSAGE_START");
                g.writeStringProperty("messageId", opened);
                g.writeStringProperty("role", "reasoning");
            }));
            id = opened;
        } else if (!reasoningOpen.containsKey(part)) {
            // more text after the part ended: AG-UI cannot reopen it; dropped rather than sent out of sequence
            return;
        }
        String messageId = id;
        out.add(write(g -> {
            type(g, "REASONING_MESSAGE_CONTENT");
            g.writeStringProperty("messageId", messageId);
            g.writeStringProperty("delta", text);
        }));
    }

    private void closeReasoning(int part, List<String> out) {
        String id = reasoningOpen.remove(part);
        if (id != null) {
            out.add(write(g -> {
                type(g, "REASONING_MESSAGE_END");
                g.writeStringProperty("messageId", id);
            }));
            out.add(write(g -> {
                type(g, "REASONING_END");
                g.writeStringProperty("messageId", id);
            }));
        }
    }

    private void openText(List<String> out) {
        if (!textOpen) {
            textOpen = true;
            textShown = true;
            String id = turnId;
            out.add(write(g -> {
                type(g, "TEXT_MESSAGE_START");
                g.writeStringProperty("messageId", id);
                g.writeStringProperty("role", "assistant");
            }));
        }
    }

    private void closeText(List<String> out) {
        if (textOpen) {
            textOpen = false;
            String id = turnId;
            out.add(write(g -> {
                type(g, "TEXT_MESSAGE_END");
                g.writeStringProperty("messageId", id);
            }));
        }
    }

    private void toolCall(ToolCallDelta t, List<String> out) {
        int part = t.part();
        String open = callsOpen.get(part);
        if (open == null) {
            if (calls.containsKey(part)) {
                return; // arguments after the call ended: AG-UI cannot reopen it
            }
            if (t.id() != null) {
                callIdsWaiting.put(part, t.id());
            } else {
                callIdsWaiting.putIfAbsent(part, null);
            }
            StringBuilder waiting = callsWaiting.computeIfAbsent(part, k -> new StringBuilder());
            waiting.append(t.argumentsDelta());
            if (t.name() == null) {
                return; // the name comes first with every provider seen; until then the fragments wait
            }
            startCall(part, t.name(), out);
            return;
        }
        if (!t.argumentsDelta().isEmpty()) {
            args(open, t.argumentsDelta(), out);
        }
    }

    private void startCall(int part, String name, List<String> out) {
        String given = callIdsWaiting.remove(part);
        String id = given != null ? given : "call_" + UUID.randomUUID().toString().replace("-", "");
        calls.put(part, id);
        callsOpen.put(part, id);
        String parent = turnId;
        out.add(write(g -> {
            type(g, "TOOL_CALL_START");
            g.writeStringProperty("toolCallId", id);
            g.writeStringProperty("toolCallName", name);
            optString(g, "parentMessageId", parent);
        }));
        StringBuilder waiting = callsWaiting.remove(part);
        if (waiting != null && waiting.length() > 0) {
            args(id, waiting.toString(), out);
        }
    }

    private void args(String id, String delta, List<String> out) {
        out.add(write(g -> {
            type(g, "TOOL_CALL_ARGS");
            g.writeStringProperty("toolCallId", id);
            g.writeStringProperty("delta", delta);
        }));
    }

    private void closeCall(int part, List<String> out) {
        if (callsWaiting.containsKey(part)) {
            startCall(part, "", out); // a call whose name never came: shown nameless rather than lost
        }
        String id = callsOpen.remove(part);
        if (id != null) {
            out.add(write(g -> {
                type(g, "TOOL_CALL_END");
                g.writeStringProperty("toolCallId", id);
            }));
        }
    }

    private void closeAll(List<String> out) {
        for (Integer part : new ArrayList<>(reasoningOpen.keySet())) {
            closeReasoning(part, out);
        }
        closeText(out);
        for (Integer part : new ArrayList<>(callsWaiting.keySet())) {
            closeCall(part, out);
        }
        for (Integer part : new ArrayList<>(callsOpen.keySet())) {
            closeCall(part, out);
        }
    }

    private static String encrypted(String subtype, String entityId, String handle) {
        return write(g -> {
            type(g, "REASONING_ENCRYPTED_VALUE");
            g.writeStringProperty("subtype", subtype);
            g.writeStringProperty("entityId", entityId);
            g.writeStringProperty("encryptedValue", handle);
        });
    }

    private static String custom(String name, Consumer<JsonGenerator> value) {
        return write(g -> {
            type(g, "CUSTOM");
            g.writeStringProperty("name", name);
            g.writeObjectPropertyStart("value");
            value.accept(g);
            g.writeEndObject();
        });
    }

    private static void type(JsonGenerator g, String type) {
        g.writeStringProperty("type", type);
    }

    private static void optString(JsonGenerator g, String name, @Nullable String value) {
        if (value != null) {
            g.writeStringProperty(name, value);
        }
    }

    private static void optLong(JsonGenerator g, String name, @Nullable Long value) {
        if (value != null) {
            g.writeNumberProperty(name, value.longValue());
        }
    }

    /** One event as compact JSON: an object whose fields the body writes. */
    private static String write(Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(96);
        try (JsonGenerator g = FACTORY.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            body.accept(g);
            g.writeEndObject();
        }
        return out.toString();
    }
}
