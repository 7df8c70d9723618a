package dev.ruminate.providers.responses;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonWriting;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * The state of one encoded response: which output items are open, their text so far, the usage,
 * the sequence number. See {@link ResponsesStreamEncoder} for the events written.
 *
 * <p>One instance per subscription; not thread-safe (Reactor delivers signals serially).
 */
final class ResponsesEventWriter {

    private final ResponsesStreamOptions options;
    private @Nullable String responseId;
    private long createdAt;
    private @Nullable String model;
    private int sequence;
    private boolean started;
    private boolean terminal;
    private Usage usage = Usage.UNKNOWN;
    private final List<Item> items = new ArrayList<>();
    private final Map<Integer, Item> byPart = new HashMap<>();

    ResponsesEventWriter(ResponsesStreamOptions options) {
        this.options = options;
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
            reasoningDelta(r.part(), r.text(), r.summary(), out);
        } else if (e instanceof ReasoningFinal f) {
            start(out);
            Item item = byPart.get(f.part());
            if (item == null) {
                // a final view with no deltas before it: its text is the whole stream of the part
                reasoningDelta(f.part(), f.text(), false, out);
                item = byPart.get(f.part());
            }
            if (item != null && item.kind == Kind.REASONING && !item.closed) {
                item.finalText = f.text();
            }
        } else if (e instanceof ContentDelta c) {
            start(out);
            if (c.text().isEmpty()) {
                return out;
            }
            Item item = open(c.part(), Kind.MESSAGE, false, out);
            if (!item.closed) {
                item.text.append(c.text());
                out.add(frame("response.output_text.delta", g -> {
                    item.address(g);
                    g.writeNumberProperty("content_index", 0);
                    g.writeStringProperty("delta", c.text());
                    g.writeArrayPropertyStart("logprobs");
                    g.writeEndArray();
                }));
            }
        } else if (e instanceof ToolCallDelta t) {
            start(out);
            Item found = byPart.get(t.part());
            Item call = found != null ? found : new Item(Kind.FUNCTION_CALL, t.part(), items.size(), false);
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
            if (!call.closed && !t.argumentsDelta().isEmpty()) {
                call.text.append(t.argumentsDelta());
                out.add(frame("response.function_call_arguments.delta", g -> {
                    call.address(g);
                    g.writeStringProperty("delta", t.argumentsDelta());
                }));
            }
        } else if (e instanceof PartEnded p) {
            Item item = byPart.get(p.part());
            if (item != null) {
                close(item, out);
            }
        } else if (e instanceof UsageUpdate u) {
            usage = usage.merge(u.usage());
        } else if (e instanceof ResponseCompleted c) {
            start(out);
            for (Item item : items) {
                close(item, out);
            }
            finish(c.finishReason(), out);
        } else if (!(e instanceof Seal || e instanceof ServerToolBlock)) {
            // Seals and server tool blocks are left out on purpose (see ResponsesStreamEncoder); a type
            // added to ChatEvent later must fail here, not vanish from the stream unnoticed.
            throw new IllegalStateException("the Responses encoder does not handle the event type " + e.getClass().getName());
        }
        return out;
    }

    /** Returns the frames when the upstream completes: a failure when it ended before ResponseCompleted. */
    List<SseFrame> onComplete() {
        List<SseFrame> out = new ArrayList<>(2);
        if (!terminal) {
            start(out);
            failed("incomplete_stream", "the upstream stream ended before the response was complete", out);
        }
        return out;
    }

    /** Returns the frames when the upstream fails: the error becomes {@code response.failed}. */
    List<SseFrame> onError(Throwable error) {
        List<SseFrame> out = new ArrayList<>(2);
        if (!terminal) {
            start(out);
            if (error instanceof RuminateException r) {
                // Ruminate's messages never hold credentials; other exceptions may say anything, so they stay opaque
                failed(r.type(), String.valueOf(r.getMessage()), out);
            } else {
                failed("server_error", "the upstream stream failed", out);
            }
        }
        return out;
    }

    // ---- items

    /**
     * Writes a reasoning fragment. An item opens at its part's first text, not at an empty
     * fragment: a Responses decoder orders parts by their first text, so an item opened earlier
     * with nothing in it could be read after a later one.
     */
    private void reasoningDelta(int part, String text, boolean summary, List<SseFrame> out) {
        if (text.isEmpty()) {
            return;
        }
        Item item = open(part, Kind.REASONING, summary, out);
        if (item.closed) {
            return;
        }
        item.text.append(text);
        out.add(frame(item.summary ? "response.reasoning_summary_text.delta" : "response.reasoning_text.delta", g -> {
            item.address(g);
            g.writeNumberProperty(item.summary ? "summary_index" : "content_index", 0);
            g.writeStringProperty("delta", text);
        }));
    }

    private Item open(int part, Kind kind, boolean summary, List<SseFrame> out) {
        Item item = byPart.get(part);
        if (item == null) {
            item = new Item(kind, part, items.size(), summary);
            open(item, out);
        }
        return item;
    }

    private void open(Item item, List<SseFrame> out) {
        item.id = itemId(item);
        items.add(item);
        byPart.put(item.part, item);
        out.add(frame("response.output_item.added", g -> {
            g.writeNumberProperty("output_index", item.outputIndex);
            g.writeName("item");
            item.write(g, false);
        }));
        if (item.kind == Kind.MESSAGE) {
            out.add(frame("response.content_part.added", g -> {
                item.address(g);
                g.writeNumberProperty("content_index", 0);
                g.writeName("part");
                item.contentPart(g, "");
            }));
        } else if (item.kind == Kind.REASONING) {
            out.add(frame(item.summary ? "response.reasoning_summary_part.added" : "response.content_part.added", g -> {
                item.address(g);
                g.writeNumberProperty(item.summary ? "summary_index" : "content_index", 0);
                g.writeName("part");
                item.contentPart(g, "");
            }));
        }
    }

    private void close(Item item, List<SseFrame> out) {
        if (item.closed) {
            return;
        }
        item.closed = true;
        String full = item.fullText();
        switch (item.kind) {
            case REASONING -> {
                out.add(frame(item.summary ? "response.reasoning_summary_text.done" : "response.reasoning_text.done", g -> {
                    item.address(g);
                    g.writeNumberProperty(item.summary ? "summary_index" : "content_index", 0);
                    g.writeStringProperty("text", full);
                }));
                out.add(frame(item.summary ? "response.reasoning_summary_part.done" : "response.content_part.done", g -> {
                    item.address(g);
                    g.writeNumberProperty(item.summary ? "summary_index" : "content_index", 0);
                    g.writeName("part");
                    item.contentPart(g, full);
                }));
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
                    item.contentPart(g, full);
                }));
            }
            case FUNCTION_CALL -> out.add(frame("response.function_call_arguments.done", g -> {
                item.address(g);
                g.writeStringProperty("arguments", full);
            }));
        }
        out.add(frame("response.output_item.done", g -> {
            g.writeNumberProperty("output_index", item.outputIndex);
            g.writeName("item");
            item.write(g, true);
        }));
    }

    private String itemId(Item item) {
        String base = responseId();
        base = base.startsWith("resp_") ? base.substring(5) : base;
        String prefix = switch (item.kind) {
            case REASONING -> "rs_";
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
        out.add(frame("response.created", g -> response(g, "in_progress", null, null)));
        out.add(frame("response.in_progress", g -> response(g, "in_progress", null, null)));
    }

    private void finish(FinishReason reason, List<SseFrame> out) {
        switch (reason) {
            case LENGTH -> incomplete("max_output_tokens", out);
            case CONTENT_FILTER -> incomplete("content_filter", out);
            case ERROR -> failed("server_error", "the model's response ended in an error", out);
            default -> {
                terminal = true;
                out.add(frame("response.completed", g -> response(g, "completed", null, null)));
            }
        }
    }

    private void incomplete(String why, List<SseFrame> out) {
        terminal = true;
        out.add(frame("response.incomplete", g -> response(g, "incomplete", why, null)));
    }

    private void failed(String code, String message, List<SseFrame> out) {
        terminal = true;
        out.add(frame("response.failed", g -> response(g, "failed", null, new Failure(code, message))));
    }

    private void response(JsonGenerator g, String status, @Nullable String incomplete, @Nullable Failure error) {
        g.writeObjectPropertyStart("response");
        g.writeStringProperty("id", responseId());
        g.writeStringProperty("object", "response");
        g.writeNumberProperty("created_at", createdAt);
        g.writeStringProperty("status", status);
        g.writeStringProperty("model", model == null ? "" : model);
        g.writeArrayPropertyStart("output");
        if (!"in_progress".equals(status)) {
            for (Item item : items) {
                item.write(g, true);
            }
        }
        g.writeEndArray();
        if (error != null) {
            g.writeObjectPropertyStart("error");
            g.writeStringProperty("code", error.code());
            g.writeStringProperty("message", error.message());
            g.writeEndObject();
        }
        if (incomplete != null) {
            g.writeObjectPropertyStart("incomplete_details");
            g.writeStringProperty("reason", incomplete);
            g.writeEndObject();
        }
        if (!"in_progress".equals(status) && !usage.isUnknown()) {
            usage(g);
        }
        g.writeEndObject();
    }

    /** Writes the usage counts that are known; an unknown count is left out, never written as 0. */
    private void usage(JsonGenerator g) {
        Usage u = usage;
        g.writeObjectPropertyStart("usage");
        if (u.inputTokens() != null) {
            g.writeNumberProperty("input_tokens", u.inputTokens().longValue());
        }
        if (u.cachedTokens() != null) {
            g.writeObjectPropertyStart("input_tokens_details");
            g.writeNumberProperty("cached_tokens", u.cachedTokens().longValue());
            g.writeEndObject();
        }
        if (u.outputTokens() != null) {
            g.writeNumberProperty("output_tokens", u.outputTokens().longValue());
        }
        if (u.reasoningTokens() != null) {
            g.writeObjectPropertyStart("output_tokens_details");
            g.writeNumberProperty("reasoning_tokens", u.reasoningTokens().longValue());
            g.writeEndObject();
        }
        if (u.inputTokens() != null && u.outputTokens() != null) {
            g.writeNumberProperty("total_tokens", u.inputTokens() + u.outputTokens());
        }
        g.writeEndObject();
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

    /** The {@code error} of a failed response. */
    private record Failure(String code, String message) {
    }

    /** The kind of output item a part becomes. */
    private enum Kind { REASONING, MESSAGE, FUNCTION_CALL }

    /** One output item: one part of the upstream response. */
    private static final class Item {
        final Kind kind;
        final int part;
        final int outputIndex;
        final boolean summary;
        final StringBuilder text = new StringBuilder();
        String id = "";
        @Nullable String finalText;
        @Nullable String callId;
        @Nullable String name;
        boolean closed;

        Item(Kind kind, int part, int outputIndex, boolean summary) {
            this.kind = kind;
            this.part = part;
            this.outputIndex = outputIndex;
            this.summary = summary;
        }

        String fullText() {
            return finalText != null ? finalText : text.toString();
        }

        /** Writes {@code item_id} and {@code output_index}, which every item event carries. */
        void address(JsonGenerator g) {
            g.writeStringProperty("item_id", id);
            g.writeNumberProperty("output_index", outputIndex);
        }

        void contentPart(JsonGenerator g, String content) {
            g.writeStartObject();
            if (kind == Kind.MESSAGE) {
                g.writeStringProperty("type", "output_text");
                g.writeArrayPropertyStart("annotations");
                g.writeEndArray();
            } else {
                g.writeStringProperty("type", summary ? "summary_text" : "reasoning_text");
            }
            g.writeStringProperty("text", content);
            g.writeEndObject();
        }

        /** Writes the item as announced ({@code done} false: empty) or complete. */
        void write(JsonGenerator g, boolean done) {
            String full = fullText();
            g.writeStartObject();
            g.writeStringProperty("id", id);
            switch (kind) {
                case REASONING -> {
                    g.writeStringProperty("type", "reasoning");
                    g.writeArrayPropertyStart("summary");
                    if (done && summary) {
                        contentPart(g, full);
                    }
                    g.writeEndArray();
                    if (!summary) {
                        g.writeArrayPropertyStart("content");
                        if (done) {
                            contentPart(g, full);
                        }
                        g.writeEndArray();
                    }
                }
                case MESSAGE -> {
                    g.writeStringProperty("type", "message");
                    g.writeStringProperty("status", done ? "completed" : "in_progress");
                    g.writeStringProperty("role", "assistant");
                    g.writeArrayPropertyStart("content");
                    if (done) {
                        contentPart(g, full);
                    }
                    g.writeEndArray();
                }
                case FUNCTION_CALL -> {
                    g.writeStringProperty("type", "function_call");
                    g.writeStringProperty("status", done ? "completed" : "in_progress");
                    g.writeStringProperty("arguments", done ? full : "");
                    g.writeStringProperty("call_id", callId == null ? "call_" + id : callId);
                    g.writeStringProperty("name", name == null ? "" : name);
                }
            }
            g.writeEndObject();
        }
    }
}
