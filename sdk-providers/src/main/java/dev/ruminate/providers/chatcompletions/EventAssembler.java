package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns parsed chunks into events, assigning parts: dense indices in the order output is produced.
 *
 * <p>A new part opens whenever the kind of output changes (reasoning, answer text, tool call), so
 * reasoning after text is a new reasoning part. Each tool-call {@code index} has its own part, and
 * so has each {@code reasoning_details} {@code index}. A reasoning or text part ends
 * ({@link PartEnded}) when output moves to another part; tool-call parts stay open (servers may
 * interleave fragments of several calls) and end with everything else at the finish reason, or at
 * completion.
 *
 * <p>One instance per response; not thread-safe (a flux delivers chunks serially).
 */
final class EventAssembler {

    private static final String DETAILS = "reasoning_details";

    private enum Kind { NONE, REASONING, CONTENT, TOOL }

    private final String provider;
    private boolean started;
    private int nextPart;
    private int current = -1;
    private Kind kind = Kind.NONE;
    /** The details index the current reasoning part belongs to, -1 when it came from a plain field. */
    private int currentDetailIndex = -1;
    /** The last reasoning or answer part opened, which a message-level thought signature seals; -1 before one. */
    private int lastMessagePart = -1;
    /** The message-level thought signature last sealed, so that a repeated one is not sealed twice. */
    private @Nullable String messageSignature;
    private final BitSet open = new BitSet();
    private final Map<Integer, ToolState> tools = new HashMap<>();
    private int lastToolIndex = -1;
    private int maxToolIndex = -1;
    private final Map<Integer, DetailState> details = new HashMap<>();
    private @Nullable String finishReason;
    private boolean finishSeen;

    EventAssembler(String provider) {
        this.provider = provider;
    }

    boolean started() {
        return started;
    }

    boolean finishSeen() {
        return finishSeen;
    }

    /**
     * Adds the events of one chunk.
     *
     * @param wholeMessage true for a non-streaming body, whose tool calls are whole and whose
     *     index-less calls are told apart by position
     */
    void apply(Chunk chunk, boolean wholeMessage, List<ChatEvent> out) {
        if (!started) {
            String model = blankToNull(chunk.model);
            String id = blankToNull(chunk.id);
            if (model == null && id == null && isEmpty(chunk)) {
                // Azure's leading chunk: "choices": [], blank id and model; wait for the real ones
                return;
            }
            started = true;
            out.add(new ResponseStarted(provider, model, id));
        }
        // Details with text carry the same text as the plain field beside them (OpenRouter): take
        // one. Details that are only opaque state (reasoning.encrypted) leave the text to the plain
        // field, read first: text, then the state that seals it.
        if (chunk.reasoningText != null && chunk.reasoningSource != null && !hasTextualDetail(chunk)) {
            reasoning(chunk.reasoningText, chunk.reasoningSource, out);
        }
        for (Chunk.Detail detail : chunk.details) {
            detail(detail, out);
        }
        for (Chunk.Segment segment : chunk.segments) {
            if (segment.reasoning()) {
                reasoning(segment.text(), segment.source(), out);
            } else {
                content(segment.text(), out);
            }
        }
        if (chunk.signature != null) {
            messageSignature(chunk.signature, out);
        }
        for (Chunk.ToolFragment fragment : chunk.tools) {
            tool(fragment, wholeMessage, out);
        }
        if (chunk.finishReason != null) {
            finishReason = chunk.finishReason;
            finishSeen = true;
            endAll(out);
        }
        Chunk.UsageCounts usage = !chunk.usage.isEmpty() ? chunk.usage : chunk.groqUsage;
        if (!usage.isEmpty()) {
            out.add(new UsageUpdate(usage.toUsage()));
        }
    }

    /** Ends every open part and completes the response with the last finish reason seen. */
    void complete(List<ChatEvent> out) {
        if (!started) {
            started = true;
            out.add(new ResponseStarted(provider, null, null));
        }
        endAll(out);
        out.add(new ResponseCompleted(FinishReasons.map(finishReason), finishReason));
    }

    private void reasoning(String text, String source, List<ChatEvent> out) {
        if (kind != Kind.REASONING) {
            openPart(Kind.REASONING, out);
            currentDetailIndex = -1;
        }
        out.add(new ReasoningDelta(current, text, false, source));
    }

    /**
     * Seals the message's last reasoning or answer part with its thought signature (Gemini puts the
     * signature of a reply without calls on its last part); a message with neither gets a reasoning
     * part holding only the signature, so that it is kept.
     */
    private void messageSignature(String signature, List<ChatEvent> out) {
        if (signature.equals(messageSignature)) {
            return;
        }
        messageSignature = signature;
        if (lastMessagePart < 0) {
            openPart(Kind.REASONING, out);
            currentDetailIndex = -1;
        }
        out.add(new Seal(lastMessagePart, Seal.Kind.SIGNATURE, signature));
    }

    private void content(String text, List<ChatEvent> out) {
        if (kind != Kind.CONTENT) {
            openPart(Kind.CONTENT, out);
        }
        out.add(new ContentDelta(current, text));
    }

    private void detail(Chunk.Detail d, List<ChatEvent> out) {
        int index = Math.max(d.index(), 0);
        DetailState state = details.computeIfAbsent(index, i -> new DetailState());
        if (notEmpty(d.format())) {
            state.format = d.format();
        }
        if (notEmpty(d.id())) {
            state.itemId = d.id();
        }
        boolean textual = notEmpty(d.text()) || notEmpty(d.summary());
        boolean opaque = notEmpty(d.signature()) || notEmpty(d.data());
        boolean isCurrent = state.part >= 0 && state.part == current && kind == Kind.REASONING && open.get(state.part);
        if (!textual && !opaque) {
            // an empty fragment ({"text":"","signature":""}): remember its format and id for later
            if (isCurrent) {
                meta(state, out);
            }
            return;
        }
        if (!isCurrent) {
            if (!textual && state.part >= 0) {
                // opaque state for a block whose text is over (a repeated or re-encrypted blob): a
                // later seal of the same kind replaces the earlier one on that part
                opaque(state, d, out);
                meta(state, out);
                return;
            }
            if (state.part < 0 && kind == Kind.REASONING && currentDetailIndex < 0) {
                state.part = current;
            } else {
                openPart(Kind.REASONING, out);
                state.part = current;
                state.clearEmitted();
            }
            currentDetailIndex = index;
        }
        String text = d.text();
        if (text != null && !text.isEmpty()) {
            out.add(new ReasoningDelta(state.part, text, false, DETAILS));
        }
        String summary = d.summary();
        if (summary != null && !summary.isEmpty()) {
            out.add(new ReasoningDelta(state.part, summary, true, DETAILS));
        }
        opaque(state, d, out);
        meta(state, out);
    }

    private static void opaque(DetailState state, Chunk.Detail d, List<ChatEvent> out) {
        String signature = d.signature();
        if (signature != null && !signature.isEmpty() && !signature.equals(state.signature)) {
            state.signature = signature;
            out.add(new Seal(state.part, Seal.Kind.SIGNATURE, signature));
        }
        String data = d.data();
        if (data != null && !data.isEmpty() && !data.equals(state.encrypted)) {
            state.encrypted = data;
            out.add(new Seal(state.part, Seal.Kind.ENCRYPTED, data));
        }
    }

    private static void meta(DetailState state, List<ChatEvent> out) {
        if (state.format != null && !state.format.equals(state.emittedFormat)) {
            state.emittedFormat = state.format;
            out.add(new Seal(state.part, Seal.Kind.FORMAT, state.format));
        }
        if (state.itemId != null && !state.itemId.equals(state.emittedItemId)) {
            state.emittedItemId = state.itemId;
            out.add(new Seal(state.part, Seal.Kind.ITEM_ID, state.itemId));
        }
    }

    private void tool(Chunk.ToolFragment f, boolean wholeMessage, List<ChatEvent> out) {
        boolean hasId = notEmpty(f.id());
        boolean hasName = notEmpty(f.name());
        boolean hasArguments = notEmpty(f.arguments());
        int index = f.index() >= 0 ? f.index() : inferIndex(f, wholeMessage);
        ToolState state = tools.get(index);
        if (!hasId && !hasName && !hasArguments) {
            if (state != null) {
                toolSignature(state, f.signature(), out); // a fragment that only signs its call
            }
            return;
        }
        if (state == null || !open.get(state.part)
                // a new id at a known index is a new call (servers that reuse index 0)
                || (hasId && state.id != null && !state.id.equals(f.id()))) {
            openPart(Kind.TOOL, out);
            state = new ToolState(current);
            tools.put(index, state);
        } else if (current != state.part) {
            endCurrentUnlessTool(out);
            current = state.part;
            kind = Kind.TOOL;
        }
        String id = null;
        if (hasId && state.id == null) {
            id = f.id();
            state.id = id;
        }
        String name = null;
        if (hasName && !state.named) {
            name = f.name();
            state.named = true;
        }
        String arguments = f.arguments();
        out.add(new ToolCallDelta(state.part, index, id, name, arguments != null ? arguments : ""));
        toolSignature(state, f.signature(), out);
        lastToolIndex = index;
        maxToolIndex = Math.max(maxToolIndex, index);
    }

    private static void toolSignature(ToolState state, @Nullable String signature, List<ChatEvent> out) {
        if (signature != null && !signature.isEmpty() && !signature.equals(state.signature)) {
            state.signature = signature;
            out.add(new Seal(state.part, Seal.Kind.SIGNATURE, signature));
        }
    }

    /**
     * Chooses an index for a call the server sent without one: a whole message's calls by position;
     * in a stream, a new id, a new name or a later element of the same array starts the next call,
     * anything else continues the last one.
     */
    private int inferIndex(Chunk.ToolFragment f, boolean wholeMessage) {
        if (wholeMessage) {
            return f.position();
        }
        ToolState last = lastToolIndex >= 0 ? tools.get(lastToolIndex) : null;
        String id = f.id();
        if (id != null && !id.isEmpty()) {
            if (last == null) {
                return 0;
            }
            return id.equals(last.id) ? lastToolIndex : maxToolIndex + 1;
        }
        // names come with a call's first fragment only, so a name after a named call starts a new one
        if (f.position() > 0 || (notEmpty(f.name()) && last != null && last.named)) {
            return maxToolIndex + 1;
        }
        return Math.max(lastToolIndex, 0);
    }

    private void openPart(Kind newKind, List<ChatEvent> out) {
        endCurrentUnlessTool(out);
        current = nextPart++;
        kind = newKind;
        open.set(current);
        if (newKind != Kind.TOOL) {
            lastMessagePart = current;
        }
    }

    private void endCurrentUnlessTool(List<ChatEvent> out) {
        if (current >= 0 && kind != Kind.TOOL && open.get(current)) {
            open.clear(current);
            out.add(new PartEnded(current));
        }
    }

    private void endAll(List<ChatEvent> out) {
        for (int part = open.nextSetBit(0); part >= 0; part = open.nextSetBit(part + 1)) {
            out.add(new PartEnded(part));
        }
        open.clear();
        current = -1;
        kind = Kind.NONE;
        currentDetailIndex = -1;
    }

    private static boolean isEmpty(Chunk c) {
        return c.details.isEmpty() && c.reasoningText == null && c.signature == null && c.segments.isEmpty() && c.tools.isEmpty()
                && c.finishReason == null && c.usage.isEmpty() && c.groqUsage.isEmpty();
    }

    private static boolean hasTextualDetail(Chunk c) {
        for (Chunk.Detail detail : c.details) {
            if (notEmpty(detail.text()) || notEmpty(detail.summary())) {
                return true;
            }
        }
        return false;
    }

    private static boolean notEmpty(@Nullable String s) {
        return s != null && !s.isEmpty();
    }

    private static @Nullable String blankToNull(@Nullable String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static final class ToolState {
        final int part;
        @Nullable String id;
        @Nullable String signature;
        boolean named;

        ToolState(int part) {
            this.part = part;
        }
    }

    private static final class DetailState {
        int part = -1;
        @Nullable String format;
        @Nullable String itemId;
        @Nullable String emittedFormat;
        @Nullable String emittedItemId;
        @Nullable String signature;
        @Nullable String encrypted;

        void clearEmitted() {
            emittedFormat = null;
            emittedItemId = null;
            signature = null;
            encrypted = null;
        }
    }
}
