package dev.ruminate.providers.testing;

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
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A test-only fold of events into parts (the reducer lives elsewhere): deltas concatenated per part,
 * seals kept, usage merged. Folding checks the event contract and fails on any breach: one
 * {@code ResponseStarted} first; part indices dense and in order of first use; a part keeps its kind;
 * no delta after its {@code PartEnded}; {@code ReasoningFinal} only before the end of a reasoning
 * part; every part ended by {@code ResponseCompleted}, which is last.
 */
public final class Folded {

    public enum Kind { REASONING, TEXT, TOOL, SERVER_TOOL }

    public static final class PartView {
        public final int index;
        public final Kind kind;
        public final StringBuilder text = new StringBuilder();
        public final Set<String> sources = new LinkedHashSet<>();
        public final Map<Seal.Kind, String> seals = new EnumMap<>(Seal.Kind.class);
        public final List<String> sealHistory = new ArrayList<>();
        public boolean summary;
        public boolean ended;
        public int deltas;
        public @Nullable String finalText;
        public @Nullable String toolId;
        public @Nullable String toolName;
        public int toolIndex = -1;
        public @Nullable String blockType;
        public @Nullable String blockJson;

        PartView(int index, Kind kind) {
            this.index = index;
            this.kind = kind;
        }

        public String text() {
            return text.toString();
        }
    }

    public final List<ChatEvent> events;
    public final List<PartView> parts = new ArrayList<>();
    public @Nullable ResponseStarted started;
    public @Nullable ResponseCompleted completed;
    public Usage usage = Usage.UNKNOWN;
    public int usageUpdates;

    private Folded(List<ChatEvent> events) {
        this.events = List.copyOf(events);
    }

    public static Folded of(List<ChatEvent> events) {
        Folded f = new Folded(events);
        for (int i = 0; i < events.size(); i++) {
            f.accept(i, events.get(i));
        }
        return f;
    }

    private void accept(int position, ChatEvent event) {
        if (completed != null) {
            fail(position, event, "event after ResponseCompleted");
        }
        if (event instanceof ResponseStarted s) {
            if (position != 0) {
                fail(position, event, "ResponseStarted is not the first event");
            }
            started = s;
            return;
        }
        if (started == null) {
            fail(position, event, "no ResponseStarted before");
        }
        if (event instanceof ReasoningDelta d) {
            PartView p = part(position, event, d.part(), Kind.REASONING, true);
            p.text.append(d.text());
            p.sources.add(d.source());
            p.summary |= d.summary();
            p.deltas++;
        } else if (event instanceof ContentDelta d) {
            PartView p = part(position, event, d.part(), Kind.TEXT, true);
            p.text.append(d.text());
            p.deltas++;
        } else if (event instanceof ToolCallDelta d) {
            PartView p = part(position, event, d.part(), Kind.TOOL, true);
            if (d.id() != null) {
                if (p.toolId != null) {
                    fail(position, event, "tool id sent twice");
                }
                p.toolId = d.id();
            }
            if (d.name() != null) {
                if (p.toolName != null) {
                    fail(position, event, "tool name sent twice");
                }
                p.toolName = d.name();
            }
            if (p.toolIndex >= 0 && p.toolIndex != d.toolIndex()) {
                fail(position, event, "tool index changed within a part");
            }
            p.toolIndex = d.toolIndex();
            p.text.append(d.argumentsDelta());
            p.deltas++;
        } else if (event instanceof ServerToolBlock b) {
            PartView p = part(position, event, b.part(), Kind.SERVER_TOOL, true);
            if (p.blockJson != null) {
                fail(position, event, "two ServerToolBlock events for one part");
            }
            p.blockType = b.type();
            p.blockJson = b.json();
            p.toolId = b.id();
            p.toolName = b.name();
        } else if (event instanceof Seal s) {
            PartView p = part(position, event, s.part(), null, false);
            p.seals.put(s.kind(), s.value());
            p.sealHistory.add(s.kind() + "@" + (p.ended ? "ended" : "open"));
        } else if (event instanceof ReasoningFinal r) {
            PartView p = part(position, event, r.part(), Kind.REASONING, true);
            if (p.finalText != null) {
                fail(position, event, "two ReasoningFinal for one part");
            }
            p.finalText = r.text();
        } else if (event instanceof PartEnded e) {
            if (e.part() >= parts.size()) {
                fail(position, event, "PartEnded for a part never opened");
            }
            PartView p = parts.get(e.part());
            if (p.ended) {
                fail(position, event, "part ended twice");
            }
            p.ended = true;
        } else if (event instanceof UsageUpdate u) {
            usage = usage.merge(u.usage());
            usageUpdates++;
        } else if (event instanceof ResponseCompleted c) {
            for (PartView p : parts) {
                if (!p.ended) {
                    fail(position, event, "part " + p.index + " still open at completion");
                }
            }
            completed = c;
        }
    }

    private PartView part(int position, ChatEvent event, int index, @Nullable Kind kind, boolean mustBeOpen) {
        if (index == parts.size()) {
            PartView p = new PartView(index, kind == null ? Kind.REASONING : kind);
            parts.add(p);
            return p;
        }
        if (index > parts.size()) {
            fail(position, event, "part index " + index + " skips " + parts.size() + " (indices must be dense)");
        }
        PartView p = parts.get(index);
        if (kind != null && p.kind != kind) {
            fail(position, event, "part " + index + " changed kind from " + p.kind);
        }
        if (mustBeOpen && p.ended) {
            fail(position, event, "delta for part " + index + " after its PartEnded");
        }
        return p;
    }

    private static void fail(int position, ChatEvent event, String why) {
        throw new AssertionError(why + " (event #" + position + ": " + event + ")");
    }

    public String kinds() {
        return parts.stream().map(p -> p.kind.name().toLowerCase(java.util.Locale.ROOT)).collect(Collectors.joining(","));
    }

    public List<PartView> ofKind(Kind kind) {
        return parts.stream().filter(p -> p.kind == kind).toList();
    }

    public String reasoning() {
        return ofKind(Kind.REASONING).stream().map(PartView::text).collect(Collectors.joining());
    }

    public String text() {
        return ofKind(Kind.TEXT).stream().map(PartView::text).collect(Collectors.joining());
    }

    public PartView only(Kind kind) {
        List<PartView> list = ofKind(kind);
        if (list.size() != 1) {
            throw new AssertionError("expected one " + kind + " part, found " + list.size() + " in " + kinds());
        }
        return list.get(0);
    }

    /** Builds the assistant message these events describe, as a reducer would, for history tests. */
    public AssistantMessage toMessage() {
        List<Part> list = new ArrayList<>();
        for (PartView p : parts) {
            Seals seals = Seals.NONE;
            for (Map.Entry<Seal.Kind, String> e : p.seals.entrySet()) {
                seals = seals.with(e.getKey(), e.getValue());
            }
            switch (p.kind) {
                case REASONING -> list.add(new ReasoningPart(p.text(), p.summary,
                        p.sources.isEmpty() ? null : p.sources.iterator().next(), seals));
                case TEXT -> list.add(new TextPart(p.text(), seals));
                case TOOL -> list.add(new ToolCallPart(p.toolId, p.toolName == null ? "" : p.toolName, p.text(), true, seals));
                case SERVER_TOOL -> list.add(new ServerToolPart(p.blockType == null ? "" : p.blockType, p.toolId,
                        p.toolName, p.blockJson == null ? "{}" : p.blockJson, seals));
            }
        }
        return new AssistantMessage(list, started == null ? null : started.provider(), started == null ? null : started.model(),
                completed == null ? FinishReason.OTHER : completed.finishReason(),
                completed == null ? null : completed.rawFinishReason(), usage);
    }

    public static int codePoints(String s) {
        return s.codePointCount(0, s.length());
    }
}
