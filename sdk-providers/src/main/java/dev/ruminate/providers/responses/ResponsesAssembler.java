package dev.ruminate.providers.responses;

import dev.ruminate.core.error.ProviderError;
import dev.ruminate.core.error.ProviderStreamException;
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
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.transport.http.ErrorBodyParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Turns Responses events (and whole responses) into chat events, assigning parts.
 *
 * <p>Output items are keyed by {@code output_index}: item ids may change between events (GitHub
 * Copilot rotates them), and items may close out of order. Within an item, each summary part
 * ({@code summary_index}) and each content part ({@code content_index}) is a part of its own, opened
 * at its first text, in order of appearance across the response. A reasoning or text part ends at its
 * part-level {@code .done} event, or at the item's {@code output_item.done}; a function call at its
 * item's {@code output_item.done}; a built-in tool's item is one {@link ServerToolBlock} at its
 * {@code output_item.done}.
 *
 * <p>Final views: the first of {@code reasoning_*_text.done}, {@code *_part.done},
 * {@code output_item.done} and {@code response.completed}'s output that gives a reasoning part's
 * text yields its one {@link ReasoningFinal}; a part that received no deltas gets that text as its
 * delta first (servers such as LM Studio skip deltas). An item's id and {@code encrypted_content}
 * are taken from its {@code output_item.done} only, never compared across events.
 *
 * <p>One instance per response; not thread-safe.
 */
final class ResponsesAssembler {

    static final String SUMMARY_SOURCE = "summary_text";
    static final String RAW_SOURCE = "reasoning_text";

    private final String provider;
    private boolean started;
    private boolean terminal;
    private boolean toolCalls;
    private int nextPart;
    private final TreeMap<Integer, ItemState> items = new TreeMap<>();
    private final Map<String, Integer> indexById = new HashMap<>();
    private int lastIndex = -1;

    ResponsesAssembler(String provider) {
        this.provider = provider;
    }

    boolean started() {
        return started;
    }

    /** True once a terminal event ({@code response.completed} or {@code response.incomplete}) was applied. */
    boolean terminal() {
        return terminal;
    }

    /**
     * Applies one streamed event.
     *
     * @throws ProviderStreamException for {@code error} and {@code response.failed}
     */
    void apply(String type, WireEvent e, List<ChatEvent> out) {
        switch (type) {
            case "response.created", "response.in_progress", "response.queued" -> {
                WireResponse r = e.response;
                start(r == null ? null : r.model, r == null ? null : r.id, out);
            }
            case "response.output_item.added" -> {
                start(out);
                WireItem item = e.item;
                if (item != null) {
                    itemAdded(index(e), item, out);
                }
            }
            case "response.output_item.done" -> {
                start(out);
                WireItem item = e.item;
                if (item != null) {
                    itemDone(index(e), item, out);
                }
            }
            case "response.reasoning_summary_text.delta" ->
                    reasoningDelta(item(e, "reasoning"), true, e.summaryIndex, e.delta, out);
            case "response.reasoning_summary_text.done" ->
                    reasoningFinal(item(e, "reasoning"), true, e.summaryIndex, e.text, out);
            case "response.reasoning_summary_part.done" -> {
                ItemState item = item(e, "reasoning");
                reasoningFinal(item, true, e.summaryIndex, e.partText, out);
                end(item.summary(e.summaryIndex), out);
            }
            case "response.reasoning_text.delta" ->
                    reasoningDelta(item(e, "reasoning"), false, e.contentIndex, e.delta, out);
            case "response.reasoning_text.done" ->
                    reasoningFinal(item(e, "reasoning"), false, e.contentIndex, e.text, out);
            case "response.output_text.delta", "response.refusal.delta" ->
                    textDelta(item(e, "message"), e.contentIndex, e.delta, out);
            case "response.output_text.done" -> textDone(item(e, "message"), e.contentIndex, e.text, out);
            case "response.refusal.done" -> textDone(item(e, "message"), e.contentIndex, e.refusal, out);
            case "response.content_part.done" -> contentPartDone(e, out);
            case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta" ->
                    toolFragment(item(e, "function_call"), e.delta, out);
            case "response.function_call_arguments.done" -> toolDone(item(e, "function_call"), e.arguments, out);
            case "response.custom_tool_call_input.done" -> toolDone(item(e, "custom_tool_call"), e.input, out);
            case "response.completed" -> complete(e.response, false, out);
            case "response.incomplete" -> complete(e.response, true, out);
            case "response.failed" -> throw failed(e.response);
            default -> {
                // other events (in_progress markers of built-in tools, annotations, …) carry nothing to keep
            }
        }
    }

    /**
     * Applies a whole response (a non-streaming body): every output item as if added and done.
     *
     * @throws ProviderStreamException when the response failed
     */
    void applyWhole(WireResponse r, List<ChatEvent> out) {
        start(r.model, r.id, out);
        String status = r.status;
        if ("failed".equals(status) || (r.error != null && r.output.isEmpty())) {
            throw failed(r);
        }
        complete(r, "incomplete".equals(status), out);
    }

    private void start(List<ChatEvent> out) {
        start(null, null, out);
    }

    private void start(@Nullable String model, @Nullable String id, List<ChatEvent> out) {
        if (!started) {
            started = true;
            out.add(new ResponseStarted(provider, blankToNull(model), blankToNull(id)));
        }
    }

    // ---- items

    private int index(WireEvent e) {
        if (e.outputIndex >= 0) {
            return e.outputIndex;
        }
        String id = e.itemId != null ? e.itemId : e.item != null ? e.item.id : null;
        Integer known = id == null ? null : indexById.get(id);
        if (known != null) {
            return known;
        }
        if (e.item != null && "response.output_item.added".equals(e.type)) {
            return items.isEmpty() ? 0 : items.lastKey() + 1;
        }
        return Math.max(lastIndex, 0);
    }

    private ItemState item(WireEvent e, String impliedType) {
        int index = index(e);
        ItemState item = items.computeIfAbsent(index, ItemState::new);
        if (item.type == null) {
            item.type = impliedType;
        }
        lastIndex = index;
        return item;
    }

    private void itemAdded(int index, WireItem wire, List<ChatEvent> out) {
        ItemState item = items.computeIfAbsent(index, ItemState::new);
        lastIndex = index;
        remember(item, wire);
        if (isToolCall(item.type)) {
            toolFragment(item, "", out);
        }
    }

    private void itemDone(int index, WireItem wire, List<ChatEvent> out) {
        ItemState item = items.computeIfAbsent(index, ItemState::new);
        lastIndex = index;
        if (item.done) {
            return;
        }
        remember(item, wire);
        String type = item.type;
        if ("reasoning".equals(type)) {
            reasoningItemDone(item, wire, out);
        } else if ("message".equals(type)) {
            for (int i = 0; i < wire.content.size(); i++) {
                textDone(item, i, wire.content.get(i).text(), out);
            }
            endAll(item, out);
        } else if (isToolCall(type)) {
            toolDone(item, "custom_tool_call".equals(type) ? wire.input : wire.arguments, out);
            SubPart tool = item.tool();
            end(tool, out);
            if (item.id != null && tool.part >= 0) {
                out.add(new Seal(tool.part, Seal.Kind.ITEM_ID, item.id));
            }
        } else if (type != null) {
            endAll(item, out);
            SubPart block = item.block();
            if (block.part < 0) {
                block.part = nextPart++;
                out.add(new ServerToolBlock(block.part, type, item.id, wire.name, wire.json()));
                end(block, out);
            }
        } else {
            endAll(item, out);
        }
        item.done = true;
    }

    private void reasoningItemDone(ItemState item, WireItem wire, List<ChatEvent> out) {
        for (int i = 0; i < wire.summary.size(); i++) {
            reasoningFinal(item, true, i, wire.summary.get(i), out);
            end(item.summary(i), out);
        }
        for (int i = 0; i < wire.content.size(); i++) {
            reasoningFinal(item, false, i, wire.content.get(i).text(), out);
            end(item.content(i), out);
        }
        endAll(item, out);
        String encrypted = blankToNull(wire.encryptedContent);
        if (item.reasoningParts.isEmpty() && (item.id != null || encrypted != null)) {
            // a reasoning item without text (hidden reasoning): its state alone makes a part
            int part = nextPart++;
            item.reasoningParts.add(part);
            if (item.id != null) {
                out.add(new Seal(part, Seal.Kind.ITEM_ID, item.id));
            }
            if (encrypted != null) {
                out.add(new Seal(part, Seal.Kind.ENCRYPTED, encrypted));
            }
            out.add(new PartEnded(part));
            return;
        }
        if (item.id != null) {
            for (int part : item.reasoningParts) {
                out.add(new Seal(part, Seal.Kind.ITEM_ID, item.id));
            }
        }
        if (encrypted != null && !item.reasoningParts.isEmpty()) {
            out.add(new Seal(item.reasoningParts.get(0), Seal.Kind.ENCRYPTED, encrypted));
        }
    }

    private void remember(ItemState item, WireItem wire) {
        if (wire.type != null) {
            item.type = wire.type;
        }
        if (wire.id != null && !wire.id.isEmpty()) {
            item.id = wire.id;
            indexById.put(wire.id, item.index);
        }
        if (item.callId == null && wire.callId != null && !wire.callId.isEmpty()) {
            item.callId = wire.callId;
        }
        if (item.name == null && wire.name != null && !wire.name.isEmpty()) {
            item.name = wire.name;
        }
        if (isToolCall(item.type)) {
            toolCalls = true;
        }
    }

    // ---- reasoning and text

    private void reasoningDelta(ItemState item, boolean summary, int index, @Nullable String text,
                                List<ChatEvent> out) {
        if (text == null || text.isEmpty()) {
            return;
        }
        SubPart sub = summary ? item.summary(index) : item.content(index);
        if (sub.ended) {
            return;
        }
        openReasoning(item, sub);
        out.add(new ReasoningDelta(sub.part, text, summary, summary ? SUMMARY_SOURCE : RAW_SOURCE));
        sub.deltas = true;
    }

    private void reasoningFinal(ItemState item, boolean summary, int index, @Nullable WireText view,
                                List<ChatEvent> out) {
        if (view == null) {
            return;
        }
        SubPart sub = summary ? item.summary(index) : item.content(index);
        if (sub.finalSent || sub.ended) {
            return;
        }
        String text = view.value();
        if (!sub.deltas) {
            if (text.isEmpty()) {
                return;
            }
            reasoningDelta(item, summary, index, text, out);
        }
        out.add(new ReasoningFinal(sub.part, text));
        sub.finalSent = true;
    }

    private void openReasoning(ItemState item, SubPart sub) {
        if (sub.part < 0) {
            sub.part = nextPart++;
            item.reasoningParts.add(sub.part);
        }
    }

    private void textDelta(ItemState item, int index, @Nullable String text, List<ChatEvent> out) {
        if (text == null || text.isEmpty()) {
            return;
        }
        SubPart sub = item.content(index);
        if (sub.ended) {
            return;
        }
        if (sub.part < 0) {
            sub.part = nextPart++;
        }
        out.add(new ContentDelta(sub.part, text));
        sub.deltas = true;
    }

    private void textDone(ItemState item, int index, @Nullable WireText text, List<ChatEvent> out) {
        SubPart sub = item.content(index);
        if (text != null && !sub.deltas && !sub.ended) {
            textDelta(item, index, text.value(), out);
        }
    }

    private void contentPartDone(WireEvent e, List<ChatEvent> out) {
        boolean reasoning = "reasoning_text".equals(e.partType);
        ItemState item = item(e, reasoning ? "reasoning" : "message");
        if (reasoning || "reasoning".equals(item.type)) {
            reasoningFinal(item, false, e.contentIndex, e.partText, out);
        } else {
            textDone(item, e.contentIndex, e.partText, out);
        }
        end(item.content(e.contentIndex), out);
    }

    // ---- tool calls

    private void toolFragment(ItemState item, @Nullable String arguments, List<ChatEvent> out) {
        SubPart sub = item.tool();
        if (sub.ended) {
            return;
        }
        boolean fresh = sub.part < 0;
        if (fresh) {
            sub.part = nextPart++;
        }
        String id = !item.idSent ? item.callId : null;
        String name = !item.nameSent ? item.name : null;
        String text = arguments == null ? "" : arguments;
        if (fresh || id != null || name != null || !text.isEmpty()) {
            out.add(new ToolCallDelta(sub.part, item.index, id, name, text));
            item.idSent |= id != null;
            item.nameSent |= name != null;
            sub.deltas |= !text.isEmpty();
        }
    }

    private void toolDone(ItemState item, @Nullable WireText arguments, List<ChatEvent> out) {
        SubPart sub = item.tool();
        if (sub.ended) {
            return;
        }
        toolCalls = true;
        // arguments are taken from .done only when no delta came (LM Studio sends none)
        toolFragment(item, sub.deltas ? "" : WireText.value(arguments), out);
    }

    // ---- the end

    private void complete(@Nullable WireResponse r, boolean incomplete, List<ChatEvent> out) {
        start(r == null ? null : r.model, r == null ? null : r.id, out);
        if (r != null) {
            // items the stream never closed (or never announced) take their final view from the output
            for (int i = 0; i < r.output.size(); i++) {
                ItemState item = items.get(i);
                if (item == null || !item.done) {
                    itemDone(i, r.output.get(i), out);
                }
            }
        }
        for (ItemState item : items.values()) {
            endAll(item, out);
        }
        if (r != null && r.hasUsage()) {
            out.add(new UsageUpdate(new Usage(r.inputTokens, r.outputTokens, r.reasoningTokens, r.cachedTokens)));
        }
        if (incomplete) {
            String reason = r == null ? null : r.incompleteReason;
            out.add(new ResponseCompleted("content_filter".equals(reason) ? FinishReason.CONTENT_FILTER
                    : FinishReason.LENGTH, reason != null ? reason : "incomplete"));
        } else {
            String status = r == null || r.status == null ? "completed" : r.status;
            FinishReason reason = "cancelled".equals(status) ? FinishReason.OTHER
                    : toolCalls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
            out.add(new ResponseCompleted(reason, status));
        }
        terminal = true;
    }

    private ProviderStreamException failed(@Nullable WireResponse r) {
        byte[] error = r == null ? null : r.error;
        ProviderError parsed = error == null ? ProviderError.UNKNOWN : ErrorBodyParser.standard().parse(error);
        if (parsed.equals(ProviderError.UNKNOWN)) {
            parsed = new ProviderError(null, null, "the response failed"
                    + (r != null && r.incompleteReason != null ? ": " + r.incompleteReason : ""), null);
        }
        return new ProviderStreamException(provider, parsed);
    }

    private static void end(SubPart sub, List<ChatEvent> out) {
        if (sub.part >= 0 && !sub.ended) {
            out.add(new PartEnded(sub.part));
        }
        if (sub.part >= 0) {
            sub.ended = true;
        }
    }

    private static void endAll(ItemState item, List<ChatEvent> out) {
        for (SubPart sub : item.opened()) {
            end(sub, out);
        }
    }

    private static boolean isToolCall(@Nullable String type) {
        return "function_call".equals(type) || "custom_tool_call".equals(type);
    }

    private static @Nullable String blankToNull(@Nullable String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** What is known of one output item. */
    private static final class ItemState {
        final int index;
        @Nullable String type;
        @Nullable String id;
        @Nullable String callId;
        @Nullable String name;
        boolean idSent;
        boolean nameSent;
        boolean done;
        /** Parts of this item that are reasoning, in order of opening. */
        final List<Integer> reasoningParts = new ArrayList<>(2);
        private final Map<Integer, SubPart> summaries = new HashMap<>(4);
        private final Map<Integer, SubPart> contents = new HashMap<>(4);
        private @Nullable SubPart tool;
        private @Nullable SubPart block;

        ItemState(int index) {
            this.index = index;
        }

        SubPart summary(int i) {
            return at(summaries, i);
        }

        SubPart content(int i) {
            return at(contents, i);
        }

        SubPart tool() {
            SubPart t = tool;
            if (t == null) {
                t = new SubPart();
                tool = t;
            }
            return t;
        }

        SubPart block() {
            SubPart b = block;
            if (b == null) {
                b = new SubPart();
                block = b;
            }
            return b;
        }

        /** Returns the sub-parts that have a part index, in the order of those indices. */
        List<SubPart> opened() {
            List<SubPart> all = new ArrayList<>(summaries.size() + contents.size() + 1);
            for (SubPart s : summaries.values()) {
                if (s.part >= 0) {
                    all.add(s);
                }
            }
            for (SubPart s : contents.values()) {
                if (s.part >= 0) {
                    all.add(s);
                }
            }
            if (tool != null && tool.part >= 0) {
                all.add(tool);
            }
            all.sort((a, b) -> Integer.compare(a.part, b.part));
            return all;
        }

        private static SubPart at(Map<Integer, SubPart> parts, int i) {
            // an index-less event (some compatible servers) belongs to part 0
            return parts.computeIfAbsent(Math.max(i, 0), k -> new SubPart());
        }
    }

    /** One part-to-be of an item: a summary part, a content part, a call or a block. */
    private static final class SubPart {
        int part = -1;
        boolean deltas;
        boolean finalSent;
        boolean ended;
    }
}
