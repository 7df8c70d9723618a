package dev.ruminate.providers.responses;

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
import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.serving.OpenAiError;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * The state of one encoded response: which output items are open, their text and seals so far,
 * the usage, the sequence number. See {@link ResponsesStreamEncoder} for the events written.
 *
 * <p>An item's parts end at their {@code PartEnded}, which writes the part-level {@code .done}
 * events; the item itself ({@code response.output_item.done}) closes only when the next item opens
 * or the response ends. Two reasons: the upstream's seals for a part (item ids, encrypted content,
 * signatures) come after its end, and the {@link EncryptedContentWriter} must see them; and the
 * summary parts of one upstream reasoning item arrive as consecutive parts, which join the still
 * open item as {@code summary_index} 1, 2, … (a seal in between means the upstream item closed, so
 * the next summary part starts a new item).
 *
 * <p>One instance per subscription; not thread-safe (Reactor delivers signals serially).
 */
final class ResponsesEventWriter {

    private final ResponsesStreamOptions options;
    private final boolean mirror;
    private @Nullable String responseId;
    private long createdAt;
    private @Nullable String model;
    private int sequence;
    private boolean started;
    private boolean terminal;
    private String status = "in_progress";
    private @Nullable String incompleteReason;
    private @Nullable OpenAiError error;
    private Usage usage = Usage.UNKNOWN;
    private final List<Item> items = new ArrayList<>();
    private final Map<Integer, Item> byPart = new HashMap<>();
    /** Seals of parts that have no item (yet): state-only reasoning. */
    private final Map<Integer, Seals> orphanSeals = new LinkedHashMap<>();
    private final Set<Integer> serverToolParts = new HashSet<>();
    private @Nullable RuntimeException hookFailure;

    ResponsesEventWriter(ResponsesStreamOptions options) {
        this.options = options;
        this.mirror = options.reasoningSummaries() == ReasoningSummaries.MIRROR;
        this.model = options.model();
    }

    /** Returns the frames of one upstream event. */
    List<SseFrame> onEvent(ChatEvent e) {
        List<SseFrame> out = new ArrayList<>(4);
        if (terminal) {
            return out;
        }
        if (e instanceof ResponseStarted s) {
            if (model == null) {
                model = s.model();
            }
            start(out);
        } else if (e instanceof ReasoningDelta r) {
            start(out);
            reasoningDelta(r.part(), r.text(), r.summary(), r.source(), out);
        } else if (e instanceof ReasoningFinal f) {
            start(out);
            Item item = byPart.get(f.part());
            if (item == null) {
                // a final view with no deltas before it: its text is the whole stream of the part
                reasoningDelta(f.part(), f.text(), false, ResponsesAssembler.RAW_SOURCE, out);
                item = byPart.get(f.part());
            }
            if (item != null && item.kind == Kind.REASONING) {
                Sub sub = item.sub(f.part());
                if (sub != null && !sub.ended) {
                    sub.finalText = f.text();
                }
            }
        } else if (e instanceof ContentDelta c) {
            start(out);
            contentDelta(c, out);
        } else if (e instanceof ToolCallDelta t) {
            start(out);
            toolCallDelta(t, out);
        } else if (e instanceof PartEnded p) {
            partEnded(p.part(), out);
        } else if (e instanceof Seal s) {
            seal(s);
        } else if (e instanceof UsageUpdate u) {
            usage = usage.merge(u.usage());
        } else if (e instanceof ResponseCompleted c) {
            start(out);
            closeAll("completed", out);
            if (hookFailure == null) {
                finish(c.finishReason(), out);
            }
        } else if (e instanceof ServerToolBlock b) {
            // the upstream provider's own tools mean nothing to this endpoint's clients (see ResponsesStreamEncoder)
            serverToolParts.add(b.part());
        } else if (e instanceof Warning || e instanceof OutputChecked) {
            // the SDK's note to its own caller (what it changed upstream): the Responses stream has no event for it
            return out;
        } else {
            // a type added to ChatEvent later must fail here, not vanish from the stream unnoticed
            throw new IllegalStateException("the Responses encoder does not handle the event type " + e.getClass().getName());
        }
        RuntimeException hookFailed = hookFailure;
        if (hookFailed != null && !terminal) {
            closeAll("incomplete", out);
            failed(OpenAiError.ofUpstreamFailure(hookFailed), out);
        }
        return out;
    }

    /** Returns the frames when the upstream completes: a failure when it ended before ResponseCompleted. */
    List<SseFrame> onComplete() {
        List<SseFrame> out = new ArrayList<>(4);
        if (!terminal) {
            start(out);
            closeAll("incomplete", out);
            failed(new OpenAiError(502, "server_error", "server_error",
                    "The model provider's stream ended before the response was complete.", null), out);
        }
        return out;
    }

    /** Returns the frames when the upstream fails: open items close, then {@code response.failed}. */
    List<SseFrame> onError(Throwable failure) {
        List<SseFrame> out = new ArrayList<>(4);
        if (!terminal) {
            start(out);
            closeAll("incomplete", out);
            failed(OpenAiError.ofUpstreamFailure(failure), out);
        }
        return out;
    }

    /** Returns the response object as it stands: the whole non-streaming body once terminal. */
    String responseBody() {
        StringWriter w = new StringWriter(512);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), w)) {
            responseObject(g);
        }
        return w.toString();
    }

    boolean isTerminal() {
        return terminal;
    }

    // ---- items

    /**
     * Writes a reasoning fragment. An item opens at its part's first text, not at an empty
     * fragment: a Responses decoder orders parts by their first text, so an item opened earlier
     * with nothing in it could be read after a later one.
     */
    private void reasoningDelta(int part, String text, boolean summary, String source, List<SseFrame> out) {
        if (text.isEmpty()) {
            return;
        }
        Item item = byPart.get(part);
        if (item == null) {
            item = joinableSummaryItem(summary);
            if (item != null) {
                joinSummary(item, part, source, out);
            } else {
                closePending(out);
                item = new Item(Kind.REASONING, items.size(), summary);
                item.subs.add(new Sub(part, source, summary, 0));
                open(item, out);
            }
        }
        Sub sub = item.sub(part);
        if (item.kind != Kind.REASONING || item.closed || sub == null || sub.ended) {
            return;
        }
        sub.text.append(text);
        Item it = item;
        if (sub.asSummary) {
            out.add(frame("response.reasoning_summary_text.delta", g -> {
                it.address(g);
                g.writeNumberProperty("summary_index", sub.index);
                g.writeStringProperty("delta", text);
            }));
        }
        if (!sub.asSummary) {
            out.add(frame("response.reasoning_text.delta", g -> {
                it.address(g);
                g.writeNumberProperty("content_index", 0);
                g.writeStringProperty("delta", text);
            }));
        }
    }

    /** The open reasoning item a new summary part joins, if any: see the class comment. */
    private @Nullable Item joinableSummaryItem(boolean summary) {
        if (!summary || items.isEmpty()) {
            return null;
        }
        Item last = items.get(items.size() - 1);
        boolean allEnded = last.subs.stream().allMatch(s -> s.ended);
        return last.kind == Kind.REASONING && last.summary && !last.closed && allEnded && !last.sealedSinceEnd
                ? last : null;
    }

    private void joinSummary(Item item, int part, String source, List<SseFrame> out) {
        Sub sub = new Sub(part, source, true, item.subs.size());
        item.subs.add(sub);
        byPart.put(part, item);
        out.add(frame("response.reasoning_summary_part.added", g -> {
            item.address(g);
            g.writeNumberProperty("summary_index", sub.index);
            g.writeName("part");
            summaryPart(g, "");
        }));
    }

    private void contentDelta(ContentDelta c, List<SseFrame> out) {
        if (c.text().isEmpty()) {
            return;
        }
        Item item = byPart.get(c.part());
        if (item == null) {
            closePending(out);
            item = new Item(Kind.MESSAGE, items.size(), false);
            item.subs.add(new Sub(c.part(), "", false, 0));
            open(item, out);
        }
        Sub sub = item.sub(c.part());
        if (item.kind != Kind.MESSAGE || item.closed || sub == null || sub.ended) {
            return;
        }
        sub.text.append(c.text());
        Item it = item;
        out.add(frame("response.output_text.delta", g -> {
            it.address(g);
            g.writeNumberProperty("content_index", 0);
            g.writeStringProperty("delta", c.text());
            g.writeArrayPropertyStart("logprobs");
            g.writeEndArray();
        }));
    }

    private void toolCallDelta(ToolCallDelta t, List<SseFrame> out) {
        Item found = byPart.get(t.part());
        Item call = found;
        if (call == null) {
            closePending(out);
            call = new Item(Kind.FUNCTION_CALL, items.size(), false);
            call.subs.add(new Sub(t.part(), "", false, 0));
        }
        // id and name usually come with the first fragment only; a later one may still bring them
        if (call.callId == null) {
            call.callId = t.id();
        }
        if (call.name == null) {
            call.name = t.name();
        }
        if (found == null) {
            open(call, out);
        }
        Sub sub = call.subs.get(0);
        if (call.kind == Kind.FUNCTION_CALL && !call.closed && !sub.ended && !t.argumentsDelta().isEmpty()) {
            sub.text.append(t.argumentsDelta());
            Item it = call;
            out.add(frame("response.function_call_arguments.delta", g -> {
                it.address(g);
                g.writeStringProperty("delta", t.argumentsDelta());
            }));
        }
    }

    private void seal(Seal s) {
        if (serverToolParts.contains(s.part())) {
            return;
        }
        Item item = byPart.get(s.part());
        if (item == null) {
            orphanSeals.merge(s.part(), Seals.NONE.with(s.kind(), s.value()), (a, b) -> a.with(s.kind(), s.value()));
            return;
        }
        Sub sub = item.sub(s.part());
        if (sub != null) {
            sub.seals = sub.seals.with(s.kind(), s.value());
        }
        if (item.subs.stream().allMatch(x -> x.ended)) {
            item.sealedSinceEnd = true;
        }
    }

    private void partEnded(int part, List<SseFrame> out) {
        Item item = byPart.get(part);
        if (item == null) {
            if (orphanSeals.containsKey(part) && options.encryptedContent() != null) {
                start(out);
                stateOnlyReasoning(part, out);
            }
            return;
        }
        Sub sub = item.sub(part);
        if (sub != null) {
            endSub(item, sub, out);
        }
    }

    /**
     * A reasoning part with seals and no text (hidden or redacted reasoning) becomes an item of its
     * own when a hook can carry its state; without one it has nothing to show and is left out.
     */
    private void stateOnlyReasoning(int part, List<SseFrame> out) {
        closePending(out);
        Item item = new Item(Kind.REASONING, items.size(), false);
        Sub sub = new Sub(part, ResponsesAssembler.RAW_SOURCE, false, 0);
        Seals state = orphanSeals.remove(part);
        sub.seals = state == null ? Seals.NONE : state;
        sub.empty = true;
        item.subs.add(sub);
        open(item, out);
        sub.ended = true;
    }

    /** Writes the part-level {@code .done} events of one part. */
    private void endSub(Item item, Sub sub, List<SseFrame> out) {
        if (sub.ended) {
            return;
        }
        sub.ended = true;
        String full = sub.fullText();
        switch (item.kind) {
            case REASONING -> {
                if (sub.empty) {
                    return;
                }
                if (!sub.asSummary) {
                    out.add(frame("response.reasoning_text.done", g -> {
                        item.address(g);
                        g.writeNumberProperty("content_index", 0);
                        g.writeStringProperty("text", full);
                    }));
                    out.add(frame("response.content_part.done", g -> {
                        item.address(g);
                        g.writeNumberProperty("content_index", 0);
                        g.writeName("part");
                        reasoningTextPart(g, full);
                    }));
                }
                if (sub.asSummary) {
                    out.add(frame("response.reasoning_summary_text.done", g -> {
                        item.address(g);
                        g.writeNumberProperty("summary_index", sub.index);
                        g.writeStringProperty("text", full);
                    }));
                    out.add(frame("response.reasoning_summary_part.done", g -> {
                        item.address(g);
                        g.writeNumberProperty("summary_index", sub.index);
                        g.writeName("part");
                        summaryPart(g, full);
                    }));
                }
            }
            case MESSAGE -> {
                out.add(frame("response.output_text.done", g -> {
                    item.address(g);
                    g.writeNumberProperty("content_index", 0);
                    g.writeStringProperty("text", full);
                    g.writeArrayPropertyStart("logprobs");
                    g.writeEndArray();
                }));
                out.add(frame("response.content_part.done", g -> {
                    item.address(g);
                    g.writeNumberProperty("content_index", 0);
                    g.writeName("part");
                    outputTextPart(g, full);
                }));
            }
            case FUNCTION_CALL -> out.add(frame("response.function_call_arguments.done", g -> {
                item.address(g);
                g.writeStringProperty("name", item.name == null ? "" : item.name);
                g.writeStringProperty("arguments", full);
            }));
        }
    }

    private void open(Item item, List<SseFrame> out) {
        item.id = itemId(item);
        items.add(item);
        for (Sub sub : item.subs) {
            byPart.put(sub.part, item);
        }
        out.add(frame("response.output_item.added", g -> {
            g.writeNumberProperty("output_index", item.outputIndex);
            g.writeName("item");
            item.write(g, false);
        }));
        Sub first = item.subs.get(0);
        if (item.kind == Kind.MESSAGE) {
            out.add(frame("response.content_part.added", g -> {
                item.address(g);
                g.writeNumberProperty("content_index", 0);
                g.writeName("part");
                outputTextPart(g, "");
            }));
        } else if (item.kind == Kind.REASONING && !first.empty) {
            if (!first.asSummary) {
                out.add(frame("response.content_part.added", g -> {
                    item.address(g);
                    g.writeNumberProperty("content_index", 0);
                    g.writeName("part");
                    reasoningTextPart(g, "");
                }));
            }
            if (first.asSummary) {
                out.add(frame("response.reasoning_summary_part.added", g -> {
                    item.address(g);
                    g.writeNumberProperty("summary_index", 0);
                    g.writeName("part");
                    summaryPart(g, "");
                }));
            }
        }
    }

    /** Closes the items whose parts have all ended: they wait for seals and joining summary parts until now. */
    private void closePending(List<SseFrame> out) {
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            if (!item.closed && item.subs.stream().allMatch(s -> s.ended)) {
                close(item, "completed", out);
            }
        }
    }

    /** Closes every item: those with open parts with {@code status}, the rest as completed. */
    private void closeAll(String openStatus, List<SseFrame> out) {
        closePending(out);
        for (Integer part : List.copyOf(orphanSeals.keySet())) {
            if (options.encryptedContent() != null && !byPart.containsKey(part)) {
                stateOnlyReasoning(part, out);
                closePending(out);
            }
        }
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            if (!item.closed) {
                for (Sub sub : item.subs) {
                    endSub(item, sub, out);
                }
                close(item, openStatus, out);
            }
        }
    }

    private void close(Item item, String itemStatus, List<SseFrame> out) {
        item.closed = true;
        item.status = itemStatus;
        Item trailing = null;
        if (options.encryptedContent() != null) {
            if (item.kind == Kind.REASONING) {
                item.encrypted = sealState(item);
            } else if (item.subs.stream().anyMatch(s -> !s.seals.isEmpty())) {
                String state = sealState(item);
                if (state != null) {
                    trailing = new Item(Kind.STATE, items.size(), false);
                    trailing.encrypted = state;
                    trailing.closed = true;
                }
            }
        }
        out.add(frame("response.output_item.done", g -> {
            g.writeNumberProperty("output_index", item.outputIndex);
            g.writeName("item");
            item.write(g, true);
        }));
        if (trailing != null) {
            Item t = trailing;
            t.id = itemId(t);
            items.add(t);
            out.add(frame("response.output_item.added", g -> {
                g.writeNumberProperty("output_index", t.outputIndex);
                g.writeName("item");
                t.write(g, true);
            }));
            out.add(frame("response.output_item.done", g -> {
                g.writeNumberProperty("output_index", t.outputIndex);
                g.writeName("item");
                t.write(g, true);
            }));
        }
    }

    /**
     * Asks the hook for an item's {@code encrypted_content}. A hook that throws gets no second
     * chance: the item is written without state and the response fails once the event is handled,
     * with the items closed first as for any failure.
     */
    private @Nullable String sealState(Item item) {
        EncryptedContentWriter hook = options.encryptedContent();
        if (hook == null || hookFailure != null) {
            return null;
        }
        try {
            return hook.encryptedContent(item.state());
        } catch (RuntimeException e) {
            hookFailure = e;
            return null;
        }
    }

    private String itemId(Item item) {
        String base = responseId();
        base = base.startsWith("resp_") ? base.substring(5) : base;
        String prefix = switch (item.kind) {
            case REASONING, STATE -> "rs_";
            case MESSAGE -> "msg_";
            case FUNCTION_CALL -> "fc_";
        };
        return prefix + base + "_" + item.outputIndex;
    }

    // ---- the response

    private String responseId() {
        String id = responseId;
        if (id == null) {
            id = options.responseId().get();
            responseId = id;
            createdAt = options.createdAt().getAsLong();
        }
        return id;
    }

    private void start(List<SseFrame> out) {
        if (started) {
            return;
        }
        started = true;
        responseId();
        out.add(frame("response.created", g -> {
            g.writeName("response");
            responseObject(g);
        }));
        out.add(frame("response.in_progress", g -> {
            g.writeName("response");
            responseObject(g);
        }));
    }

    private void finish(FinishReason reason, List<SseFrame> out) {
        switch (reason) {
            case LENGTH -> incomplete("max_output_tokens", out);
            case CONTENT_FILTER -> incomplete("content_filter", out);
            case ERROR -> failed(new OpenAiError(502, "server_error", "server_error",
                    "The model provider reported an error during the response.", null), out);
            default -> terminal("completed", "response.completed", out);
        }
    }

    private void incomplete(String why, List<SseFrame> out) {
        incompleteReason = why;
        terminal("incomplete", "response.incomplete", out);
    }

    private void failed(OpenAiError failure, List<SseFrame> out) {
        error = failure;
        terminal("failed", "response.failed", out);
    }

    private void terminal(String finalStatus, String event, List<SseFrame> out) {
        terminal = true;
        status = finalStatus;
        out.add(frame(event, g -> {
            g.writeName("response");
            responseObject(g);
        }));
    }

    /** Writes the response object with every field the official SDKs' types declare. */
    private void responseObject(JsonGenerator g) {
        ResponseEcho echo = options.echo();
        g.writeStartObject();
        g.writeStringProperty("id", responseId());
        g.writeStringProperty("object", "response");
        g.writeNumberProperty("created_at", createdAt);
        g.writeStringProperty("status", status);
        OpenAiError e = error;
        if (e != null) {
            g.writeName("error");
            g.writeRawValue(e.toResponsesErrorJson());
        } else {
            g.writeNullProperty("error");
        }
        String why = incompleteReason;
        if (why != null) {
            g.writeObjectPropertyStart("incomplete_details");
            g.writeStringProperty("reason", why);
            g.writeEndObject();
        } else {
            g.writeNullProperty("incomplete_details");
        }
        JsonWriting.nullableString(g, "instructions", echo.instructions());
        if (echo.maxOutputTokens() != null) {
            g.writeNumberProperty("max_output_tokens", echo.maxOutputTokens().longValue());
        } else {
            g.writeNullProperty("max_output_tokens");
        }
        g.writeName("metadata");
        g.writeRawValue(echo.metadataJson());
        g.writeStringProperty("model", model == null ? "" : model);
        g.writeArrayPropertyStart("output");
        if (!"in_progress".equals(status)) {
            for (Item item : items) {
                item.write(g, true);
            }
        }
        g.writeEndArray();
        g.writeBooleanProperty("parallel_tool_calls", echo.parallelToolCalls());
        JsonWriting.nullableString(g, "previous_response_id", echo.previousResponseId());
        g.writeObjectPropertyStart("reasoning");
        JsonWriting.nullableString(g, "effort", echo.reasoningEffort());
        JsonWriting.nullableString(g, "summary", echo.reasoningSummary());
        g.writeEndObject();
        if (echo.serviceTier() != null) {
            g.writeStringProperty("service_tier", echo.serviceTier());
        }
        g.writeBooleanProperty("store", echo.store());
        nullableNumber(g, "temperature", echo.temperature());
        g.writeName("text");
        g.writeRawValue(echo.textJson());
        g.writeName("tool_choice");
        g.writeRawValue(echo.toolChoiceJson());
        g.writeName("tools");
        g.writeRawValue(echo.toolsJson());
        nullableNumber(g, "top_p", echo.topP());
        g.writeStringProperty("truncation", echo.truncation());
        if (echo.user() != null) {
            g.writeStringProperty("user", echo.user());
        }
        if (echo.safetyIdentifier() != null) {
            g.writeStringProperty("safety_identifier", echo.safetyIdentifier());
        }
        if (echo.promptCacheKey() != null) {
            g.writeStringProperty("prompt_cache_key", echo.promptCacheKey());
        }
        if (!"in_progress".equals(status) && !usage.isUnknown()) {
            usage(g);
        } else {
            g.writeNullProperty("usage");
        }
        g.writeEndObject();
    }

    private static void nullableNumber(JsonGenerator g, String name, @Nullable Double value) {
        if (value != null) {
            g.writeNumberProperty(name, value.doubleValue());
        } else {
            g.writeNullProperty(name);
        }
    }

    /** Writes the usage with every count the types declare; a count the upstream did not report is 0. */
    private void usage(JsonGenerator g) {
        Usage u = usage;
        long input = orZero(u.inputTokens());
        long output = orZero(u.outputTokens());
        g.writeObjectPropertyStart("usage");
        g.writeNumberProperty("input_tokens", input);
        g.writeObjectPropertyStart("input_tokens_details");
        g.writeNumberProperty("cached_tokens", orZero(u.cachedTokens()));
        // Declared required by the official SDKs' types (openai-java's validate() refuses a usage without it); Usage
        // carries no cache-write count yet, so it is 0 like any other count the upstream did not report.
        g.writeNumberProperty("cache_write_tokens", 0);
        g.writeEndObject();
        g.writeNumberProperty("output_tokens", output);
        g.writeObjectPropertyStart("output_tokens_details");
        g.writeNumberProperty("reasoning_tokens", orZero(u.reasoningTokens()));
        g.writeEndObject();
        g.writeNumberProperty("total_tokens", input + output);
        g.writeEndObject();
    }

    private static long orZero(@Nullable Long n) {
        return n == null ? 0L : n;
    }

    /** Writes one event: its type, its sequence number, then its own fields. */
    private SseFrame frame(String type, Consumer<JsonGenerator> fields) {
        int seq = sequence++;
        StringWriter w = new StringWriter(128);
        try (JsonGenerator g = JsonWriting.JSON.createGenerator(ObjectWriteContext.empty(), w)) {
            g.writeStartObject();
            g.writeStringProperty("type", type);
            g.writeNumberProperty("sequence_number", seq);
            fields.accept(g);
            g.writeEndObject();
        }
        return new SseFrame(type, w.toString());
    }

    private static void outputTextPart(JsonGenerator g, String text) {
        g.writeStartObject();
        g.writeStringProperty("type", "output_text");
        g.writeArrayPropertyStart("annotations");
        g.writeEndArray();
        g.writeArrayPropertyStart("logprobs");
        g.writeEndArray();
        g.writeStringProperty("text", text);
        g.writeEndObject();
    }

    private static void reasoningTextPart(JsonGenerator g, String text) {
        g.writeStartObject();
        g.writeStringProperty("type", "reasoning_text");
        g.writeStringProperty("text", text);
        g.writeEndObject();
    }

    private static void summaryPart(JsonGenerator g, String text) {
        g.writeStartObject();
        g.writeStringProperty("type", "summary_text");
        g.writeStringProperty("text", text);
        g.writeEndObject();
    }

    /** The kind of output item a part becomes; {@code STATE} is the reasoning item carrying another item's seals. */
    private enum Kind { REASONING, MESSAGE, FUNCTION_CALL, STATE }

    /** One upstream part within an item. */
    private final class Sub {
        final int part;
        final String source;
        /** The upstream sent it as summary. */
        final boolean summary;
        /** Its summary index; written as summary when it is one, or when raw reasoning is mirrored. */
        final int index;
        final boolean asSummary;
        final StringBuilder text = new StringBuilder();
        @Nullable String finalText;
        Seals seals = Seals.NONE;
        boolean ended;
        /** A state-only part: no text, no content or summary entry. */
        boolean empty;

        Sub(int part, String source, boolean summary, int index) {
            this.part = part;
            this.source = source;
            this.summary = summary;
            this.index = index;
            this.asSummary = summary || mirror;
        }

        String fullText() {
            return finalText != null ? finalText : text.toString();
        }
    }

    /** One output item: one upstream part, or the summary parts of one upstream reasoning item. */
    private final class Item {
        final Kind kind;
        final int outputIndex;
        /** A reasoning item made of upstream summary parts. */
        final boolean summary;
        final List<Sub> subs = new ArrayList<>(1);
        String id = "";
        String status = "in_progress";
        @Nullable String callId;
        @Nullable String name;
        @Nullable String encrypted;
        boolean closed;
        boolean sealedSinceEnd;

        Item(Kind kind, int outputIndex, boolean summary) {
            this.kind = kind;
            this.outputIndex = outputIndex;
            this.summary = summary;
        }

        @Nullable Sub sub(int part) {
            for (Sub s : subs) {
                if (s.part == part) {
                    return s;
                }
            }
            return null;
        }

        /** Writes {@code item_id} and {@code output_index}, which every item event carries. */
        void address(JsonGenerator g) {
            g.writeStringProperty("item_id", id);
            g.writeNumberProperty("output_index", outputIndex);
        }

        OutputItemState state() {
            List<Part> parts = new ArrayList<>(subs.size());
            for (Sub s : subs) {
                parts.add(switch (kind) {
                    case REASONING, STATE -> new ReasoningPart(s.fullText(), s.summary, s.source, s.seals);
                    case MESSAGE -> new TextPart(s.fullText(), s.seals);
                    case FUNCTION_CALL -> new ToolCallPart(callId, name == null ? "" : name, s.fullText(),
                            s.fullText().isBlank() || JsonValidity.problem(s.fullText()) == null, s.seals);
                });
            }
            return new OutputItemState(id, kind == Kind.MESSAGE ? "message"
                    : kind == Kind.FUNCTION_CALL ? "function_call" : "reasoning", parts);
        }

        /** Writes the item as announced ({@code done} false: empty) or complete. */
        void write(JsonGenerator g, boolean done) {
            g.writeStartObject();
            g.writeStringProperty("id", id);
            switch (kind) {
                case REASONING, STATE -> writeReasoning(g, done);
                case MESSAGE -> {
                    g.writeStringProperty("type", "message");
                    g.writeStringProperty("status", done ? status : "in_progress");
                    g.writeStringProperty("role", "assistant");
                    g.writeArrayPropertyStart("content");
                    if (done) {
                        outputTextPart(g, subs.get(0).fullText());
                    }
                    g.writeEndArray();
                }
                case FUNCTION_CALL -> {
                    g.writeStringProperty("type", "function_call");
                    g.writeStringProperty("status", done ? status : "in_progress");
                    g.writeStringProperty("arguments", done ? subs.get(0).fullText() : "");
                    g.writeStringProperty("call_id", callId == null ? "call_" + id : callId);
                    g.writeStringProperty("name", name == null ? "" : name);
                }
            }
            g.writeEndObject();
        }

        private void writeReasoning(JsonGenerator g, boolean done) {
            g.writeStringProperty("type", "reasoning");
            g.writeArrayPropertyStart("summary");
            boolean raw = false;
            for (Sub s : subs) {
                if (s.empty) {
                    continue;
                }
                if (s.asSummary) {
                    if (done) {
                        summaryPart(g, s.fullText());
                    }
                } else {
                    raw = true;
                }
            }
            g.writeEndArray();
            if (raw) {
                g.writeArrayPropertyStart("content");
                if (done) {
                    for (Sub s : subs) {
                        if (!s.asSummary && !s.empty) {
                            reasoningTextPart(g, s.fullText());
                        }
                    }
                }
                g.writeEndArray();
            }
            String enc = encrypted;
            if (enc != null && (done || kind == Kind.STATE)) {
                g.writeStringProperty("encrypted_content", enc);
            }
            if (kind != Kind.STATE) {
                g.writeStringProperty("status", done ? status : "in_progress");
            } else {
                g.writeStringProperty("status", "completed");
            }
        }
    }
}
