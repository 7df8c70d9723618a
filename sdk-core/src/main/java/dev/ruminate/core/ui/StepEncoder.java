package dev.ruminate.core.ui;

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
import dev.ruminate.core.message.FinishReason;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The chunks of one model response (one step), for one subscription: opens each part on its first
 * event, closes it at its {@link PartEnded} or at the end of the response. Not thread-safe: Reactor
 * delivers one event at a time.
 */
final class StepEncoder {

    /** An open part: what it is, its chunk id, and for a tool call the name and arguments so far. */
    private static final class Open {
        final String kind;
        final String id;
        final @Nullable String name;
        final StringBuilder arguments = new StringBuilder();

        Open(String kind, String id, @Nullable String name) {
            this.kind = kind;
            this.id = id;
            this.name = name;
        }
    }

    private final String prefix;
    private final Map<Integer, Open> open = new LinkedHashMap<>();
    private final Set<Integer> seen = new HashSet<>();
    private @Nullable FinishReason finishReason;

    /** @param prefix what makes this step's part ids unique within the message ({@code s1-}) */
    StepEncoder(String prefix) {
        this.prefix = prefix;
    }

    /** The finish reason of the response, once it completed. */
    @Nullable FinishReason finishReason() {
        return finishReason;
    }

    /** The chunks one event becomes, possibly none. */
    List<String> accept(ChatEvent e) {
        List<String> out = new ArrayList<>(2);
        if (e instanceof ReasoningDelta r) {
            Open o = open(r.part(), "reasoning", null, null, out);
            if (o != null && !r.text().isEmpty()) {
                out.add(ChunkWriter.chunk("reasoning-delta", g -> {
                    g.writeStringProperty("id", o.id);
                    g.writeStringProperty("delta", r.text());
                }));
            }
        } else if (e instanceof ContentDelta c) {
            Open o = open(c.part(), "text", null, null, out);
            if (o != null && !c.text().isEmpty()) {
                out.add(ChunkWriter.chunk("text-delta", g -> {
                    g.writeStringProperty("id", o.id);
                    g.writeStringProperty("delta", c.text());
                }));
            }
        } else if (e instanceof ToolCallDelta t) {
            String name = t.name() == null ? "tool" : t.name();
            String id = t.id() != null ? t.id() : name;
            Open o = open(t.part(), "tool", id, name, out);
            if (o != null && !t.argumentsDelta().isEmpty()) {
                o.arguments.append(t.argumentsDelta());
                out.add(ChunkWriter.chunk("tool-input-delta", g -> {
                    g.writeStringProperty("toolCallId", o.id);
                    g.writeStringProperty("inputTextDelta", t.argumentsDelta());
                }));
            }
        } else if (e instanceof ReasoningFinal f) {
            // a provider that only reports the whole text (a non-streamed body) still shows it; after deltas it adds nothing
            if (!seen.contains(f.part())) {
                Open o = open(f.part(), "reasoning", null, null, out);
                if (o != null && !f.text().isEmpty()) {
                    out.add(ChunkWriter.chunk("reasoning-delta", g -> {
                        g.writeStringProperty("id", o.id);
                        g.writeStringProperty("delta", f.text());
                    }));
                }
                close(f.part(), out);
            }
        } else if (e instanceof PartEnded p) {
            close(p.part(), out);
        } else if (e instanceof ResponseCompleted c) {
            closeAll(out);
            finishReason = c.finishReason();
        } else if (e instanceof Warning w) {
            // transient: the page's onData sees it, the message keeps no part for it
            out.add(ChunkWriter.chunk("data-ruminate-warning", g -> {
                g.writeObjectPropertyStart("data");
                g.writeStringProperty("code", w.code());
                g.writeStringProperty("message", w.message());
                g.writeEndObject();
                g.writeBooleanProperty("transient", true);
            }));
        } else if (e instanceof OutputChecked c && c.retrying()) {
            // the refused attempt's parts are over; the corrective attempt's parts get ids of their own
            closeAll(out);
        } else if (e instanceof Seal || e instanceof ServerToolBlock || e instanceof UsageUpdate
                || e instanceof ResponseStarted || e instanceof OutputChecked) {
            // Seal: opaque state, kept on the server. ServerToolBlock: the provider's own JSON may hold encrypted
            // results. Usage, the response's identity, a final verdict: nothing a UI message has a place for.
            return out;
        } else {
            throw new IllegalStateException("the UI message stream encoder does not handle " + e.getClass().getName());
        }
        return out;
    }

    /** Closes whatever is still open (an error or the end of the stream). */
    void closeAll(List<String> out) {
        for (Integer part : new ArrayList<>(open.keySet())) {
            close(part, out);
        }
    }

    private @Nullable Open open(int part, String kind, @Nullable String toolId, @Nullable String name,
                                List<String> out) {
        Open o = open.get(part);
        if (o != null) {
            return o.kind.equals(kind) ? o : null;
        }
        if (seen.contains(part)) {
            // a retry after OutputChecked numbers its parts from 0 again: give them fresh ids
            seen.clear();
            retry++;
        }
        seen.add(part);
        String id = kind.equals("tool") ? toolId : prefix + (retry == 0 ? "" : "r" + retry + "-") + part;
        Open created = new Open(kind, id == null ? prefix + part : id, name);
        open.put(part, created);
        switch (kind) {
            case "reasoning" -> out.add(ChunkWriter.chunk("reasoning-start", "id", created.id));
            case "text" -> out.add(ChunkWriter.chunk("text-start", "id", created.id));
            default -> out.add(ChunkWriter.chunk("tool-input-start", g -> {
                g.writeStringProperty("toolCallId", created.id);
                g.writeStringProperty("toolName", created.name == null ? "tool" : created.name);
                // the page has no definition of the server's tools: dynamic parts need none
                g.writeBooleanProperty("dynamic", true);
            }));
        }
        return created;
    }

    private int retry;

    private void close(int part, List<String> out) {
        Open o = open.remove(part);
        if (o == null) {
            return;
        }
        switch (o.kind) {
            case "reasoning" -> out.add(ChunkWriter.chunk("reasoning-end", "id", o.id));
            case "text" -> out.add(ChunkWriter.chunk("text-end", "id", o.id));
            default -> out.add(ChunkWriter.chunk("tool-input-available", g -> {
                g.writeStringProperty("toolCallId", o.id);
                g.writeStringProperty("toolName", o.name == null ? "tool" : o.name);
                ChunkWriter.jsonOrString(g, "input", o.arguments.length() == 0 ? "{}" : o.arguments.toString());
                g.writeBooleanProperty("dynamic", true);
            }));
        }
    }
}
