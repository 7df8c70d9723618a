package dev.ruminate.core.reduce;

import dev.ruminate.core.error.IncompleteStreamException;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.error.ReasoningMismatchException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.ToolArgumentsException;
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
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.Usage;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The state of one reduction: events go in one at a time with {@link #accept(ChatEvent)}, the
 * final result comes out of {@link #finish()}.
 *
 * <p><b>No empty parts.</b> A text or reasoning part whose text is empty and that carries no opaque
 * state ({@link dev.ruminate.core.message.Seals#isEmpty()}) is left out of every message built here
 * (the result, partial messages, snapshots): providers reject empty blocks sent back (Bedrock an
 * empty text block), and such a part says nothing. A part with empty text and a seal (Anthropic's
 * omitted thinking with its signature, Gemini's trailing signed empty text) is kept; a tool call or
 * server tool block is never empty. Events keep their part indices: a dropped part only leaves the
 * message's list, whose positions never were the events' indices (indices no event used are skipped too).
 *
 * <p>Use it directly where there is no {@code Flux} (a benchmark, a callback API); otherwise use
 * {@link ChatReducer#reduce}. Cost is linear in the input: each part appends to its own builder, and
 * no per-event object is created beyond what the text needs.
 *
 * <p><b>Provenance.</b> When a {@link ResponseStarted} carries an {@link Origin} (the provider
 * pipeline stamps one), every built part with opaque state gets a {@link Provenance}: that origin,
 * the model reported so far, the part's index in the built message, and whether it is finished (its
 * {@link PartEnded} arrived, or the response completed). A part cut off by an error or a
 * cancellation is therefore unfinished in {@link #partial()}. Without an origin (events made by
 * hand, or read from JSON without one) seals stay as they came.
 *
 * <p><b>Structured output.</b> An {@link OutputChecked} verdict becomes the result's
 * {@link ChatResult#output()}. One with {@link OutputChecked#retrying()} set starts the message
 * over: the parts reduced so far (and their reasoning check) are discarded, since the refused
 * answer is not the result and the corrective attempt's response follows from its own
 * {@link ResponseStarted}; the warnings are kept, and the usage is summed over both attempts (both
 * were paid for), each count the sum of the counts the attempts reported (null when neither did).
 * {@link StructuredOutput#attempts()} counts the verdicts.
 *
 * <p><b>Threading.</b> Not thread-safe: feed it from one thread at a time (a Reactor
 * {@code onNext} sequence qualifies).
 *
 * @since 0.1
 */
public final class Reduction {

    private final ChatReducer.Settings settings;
    /** Replaced, not cleared, when a refused structured answer starts the message over: snapshots keep the old one. */
    private ArrayList<PartBuilder> parts = new ArrayList<>();
    /** The part the previous delta went to, and its index; reset with {@link #parts}. */
    private int lastIndex = -1;
    private @Nullable PartBuilder lastPart;
    /** The parts whose {@link PartEnded} arrived: their blocks closed, so their state is whole. */
    private BitSet ended = new BitSet();
    private @Nullable String provider;
    private @Nullable String model;
    private @Nullable String responseId;
    private @Nullable Origin origin;
    private @Nullable String requestedModel;
    private Usage usage = Usage.UNKNOWN;
    /** The usage of attempts whose structured answer was refused, summed; added to {@link #usage}. */
    private Usage refusedUsage = Usage.UNKNOWN;
    private int outputChecks;
    private @Nullable StructuredOutput output;
    private final ArrayList<Warning> warnings = new ArrayList<>();
    private @Nullable FinishReason finishReason;
    private @Nullable String rawFinishReason;
    private long events;
    private int checkedParts;
    private @Nullable ReasoningCheck firstMismatch;

    Reduction(ChatReducer.Settings settings) {
        this.settings = settings;
    }

    /**
     * Folds one event into the state.
     *
     * @param event the next event of the response
     * @throws ProtocolException if the event contradicts earlier ones (a text delta for a tool-call part)
     * @throws ReasoningMismatchException under {@link MismatchPolicy#FAIL} when a final reasoning differs
     */
    public void accept(ChatEvent event) {
        events++;
        // Java 17 has no pattern switch; the chain is ordered by frequency (deltas first).
        if (event instanceof ReasoningDelta d) {
            PartBuilder p = part(d.part(), PartBuilder.Kind.REASONING);
            if (p.text.isEmpty() && p.source == null) {
                p.summary = d.summary();
                p.source = d.source();
            }
            p.text.append(d.text());
        } else if (event instanceof ContentDelta d) {
            part(d.part(), PartBuilder.Kind.TEXT).text.append(d.text());
        } else if (event instanceof ToolCallDelta d) {
            PartBuilder p = part(d.part(), PartBuilder.Kind.TOOL_CALL);
            if (p.toolId == null && d.id() != null) {
                p.toolId = d.id();
            }
            if (p.toolName == null && d.name() != null) {
                p.toolName = d.name();
            }
            p.text.append(d.argumentsDelta());
        } else if (event instanceof ServerToolBlock b) {
            PartBuilder p = part(b.part(), PartBuilder.Kind.SERVER_TOOL);
            p.blockType = b.type();
            p.blockJson = b.json();
            p.toolId = b.id();
            p.toolName = b.name();
        } else if (event instanceof Seal s) {
            PartBuilder p = s.part() < parts.size() ? parts.get(s.part()) : null;
            if (p == null) {
                // A redacted or encrypted-only block has state but no text: it is reasoning.
                p = part(s.part(), PartBuilder.Kind.REASONING);
            }
            p.seals = p.seals.with(s.kind(), s.value());
        } else if (event instanceof PartEnded e) {
            // Text is keyed by part index already; the end only tells that the part's block closed.
            ended.set(e.part());
        } else if (event instanceof ReasoningFinal f) {
            checkFinal(f);
        } else if (event instanceof UsageUpdate u) {
            usage = usage.merge(u.usage());
        } else if (event instanceof ResponseStarted s) {
            provider = s.provider();
            if (s.model() != null) {
                model = s.model();
            }
            if (s.responseId() != null) {
                responseId = s.responseId();
            }
            if (s.origin() != null) {
                origin = s.origin();
                requestedModel = s.requestedModel();
            }
        } else if (event instanceof ResponseCompleted c) {
            finishReason = c.finishReason();
            rawFinishReason = c.rawFinishReason();
        } else if (event instanceof Warning w) {
            // not part of the answer: the result lists it beside the message
            warnings.add(w);
        } else if (event instanceof OutputChecked c) {
            outputChecks++;
            if (c.retrying()) {
                startOver();
            } else {
                output = StructuredOutput.of(c, outputChecks);
            }
        } else {
            throw new IllegalStateException("unhandled event type " + event.getClass().getName());
        }
    }

    /** Discards the refused attempt's answer; keeps warnings, and its usage in the sum. */
    private void startOver() {
        refusedUsage = refusedUsage.plus(usage);
        usage = Usage.UNKNOWN;
        parts = new ArrayList<>();
        lastIndex = -1;
        lastPart = null;
        ended = new BitSet();
        checkedParts = 0;
        firstMismatch = null;
        finishReason = null;
        rawFinishReason = null;
        output = null;
    }

    private PartBuilder part(int index, PartBuilder.Kind kind) {
        // Deltas come in runs for one part: the part of the previous delta is the likely one.
        PartBuilder last = lastPart;
        if (index == lastIndex && last != null && last.kind == kind) {
            return last;
        }
        PartBuilder p = lookUp(index, kind);
        lastIndex = index;
        lastPart = p;
        return p;
    }

    private PartBuilder lookUp(int index, PartBuilder.Kind kind) {
        while (parts.size() <= index) {
            parts.add(null);
        }
        PartBuilder p = parts.get(index);
        if (p == null) {
            p = new PartBuilder(kind);
            parts.set(index, p);
        } else if (p.kind != kind) {
            throw new ProtocolException(ProtocolException.Reason.UNEXPECTED_SHAPE,
                    "part " + index + " is " + p.kind.label + " but received " + kind.label + " output", -1, -1, null);
        }
        return p;
    }

    private void checkFinal(ReasoningFinal f) {
        PartBuilder p = part(f.part(), PartBuilder.Kind.REASONING);
        String previousFinal = p.finalText;
        if (previousFinal == null) {
            checkedParts++;
        }
        p.finalText = f.text();
        CharSequence reference;
        String label;
        if (!p.text.isEmpty()) {
            reference = p.text;
            label = "streamed";
        } else if (previousFinal != null) {
            // Nothing streamed (a server that sends only done events): repeated finals must agree with each other.
            reference = previousFinal;
            label = "earlier final";
        } else {
            // Nothing streamed and nothing to compare with yet: the final text is the part.
            return;
        }
        int offset = firstDifference(reference, f.text());
        if (offset < 0) {
            return;
        }
        String streamed = reference.toString();
        boolean whitespaceOnly = stripWhitespace(streamed).equals(stripWhitespace(f.text()));
        if (whitespaceOnly && settings.whitespaceOnlyMismatchIsMatch()) {
            return;
        }
        p.mismatched = true;
        if (firstMismatch == null) {
            String detail = label + " " + excerpt(streamed, offset) + " vs final " + excerpt(f.text(), offset)
                    + " (lengths " + streamed.length() + " and " + f.text().length() + ")";
            firstMismatch = new ReasoningCheck(ReasoningVerdict.MISMATCHED, 0, f.part(), offset, whitespaceOnly, detail);
            if (settings.mismatchPolicy() == MismatchPolicy.FAIL) {
                throw new ReasoningMismatchException(f.part(), offset, detail);
            }
        }
    }

    /**
     * Tells whether any event was accepted.
     *
     * @return true after the first event
     */
    public boolean hasEvents() {
        return events > 0;
    }

    /**
     * Tells whether the response completed ({@link ResponseCompleted} was accepted).
     *
     * @return true when complete
     */
    public boolean isCompleted() {
        return finishReason != null;
    }

    /**
     * Returns the provider's response id, if it reported one.
     *
     * @return the id, or null
     */
    public @Nullable String responseId() {
        return responseId;
    }

    /**
     * Builds the message as reduced so far, with streamed text as is. Used for partial results on
     * errors and for snapshots; costs a copy of all text.
     *
     * @return the message so far; finish reason {@code OTHER} until the response completes
     */
    public AssistantMessage partial() {
        List<Part> built = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            PartBuilder p = parts.get(i);
            if (p != null && !p.isEmpty(p.text)) {
                built.add(p.build(p.text.toString(), null, seals(p, i, built.size(), isCompleted(), ended)));
            }
        }
        return message(built);
    }

    /**
     * Completes the reduction: validates tool-call arguments, applies the mismatch policy and builds
     * the result.
     *
     * @return the result
     * @throws IncompleteStreamException if no {@link ResponseCompleted} was accepted
     * @throws ToolArgumentsException under {@link ToolArgumentsPolicy#FAIL} when arguments are not valid JSON
     */
    public ChatResult finish() {
        if (finishReason == null) {
            throw attach(new IncompleteStreamException("the event stream completed without ResponseCompleted", null));
        }
        List<Part> built = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            PartBuilder p = parts.get(i);
            if (p == null) {
                continue;
            }
            String text = p.text.toString();
            if (p.kind == PartBuilder.Kind.REASONING && p.finalText != null
                    && (text.isEmpty() || (p.mismatched && settings.mismatchPolicy() == MismatchPolicy.PREFER_PROVIDER))) {
                text = p.finalText;
            }
            if (p.isEmpty(text)) {
                continue;
            }
            String problem = null;
            if (p.kind == PartBuilder.Kind.TOOL_CALL) {
                // Blank arguments mean a call without arguments, unless the output was cut off before any came.
                problem = !text.isBlank() ? JsonValidity.problem(text)
                        : finishReason == FinishReason.LENGTH ? "none arrived before the output limit (finish reason length)" : null;
                if (problem != null && settings.toolArgumentsPolicy() == ToolArgumentsPolicy.FAIL) {
                    throw attach(new ToolArgumentsException(p.toolNameOrUnknown(), p.toolId, problem));
                }
            }
            built.add(p.build(text, problem, seals(p, i, built.size(), true, ended)));
        }
        ReasoningCheck check;
        if (checkedParts == 0) {
            check = ReasoningCheck.UNAVAILABLE;
        } else if (firstMismatch != null) {
            ReasoningCheck m = firstMismatch;
            check = new ReasoningCheck(m.verdict(), checkedParts, m.part(), m.offset(), m.whitespaceOnly(), m.detail());
        } else {
            check = new ReasoningCheck(ReasoningVerdict.MATCHED, checkedParts, -1, -1, false, null);
        }
        return new ChatResult(message(built), check, warnings, output);
    }

    /**
     * Attaches the partial message to an error, if any event arrived.
     *
     * @param error the error that ended the stream
     * @return a typed error carrying the partial message
     */
    RuminateException attach(Throwable error) {
        RuminateException typed = error instanceof RuminateException r ? r
                : new IncompleteStreamException("the event stream failed: " + error, error);
        if (hasEvents()) {
            typed.attachPartial(partial());
        }
        return typed;
    }

    /**
     * Returns a part's seals with their provenance, when the part has state and the origin is known.
     *
     * @param index the part's index in the events
     * @param block its index in the built message
     * @param completed whether the response completed (which finishes every part)
     * @param endedParts the parts whose blocks ended, of the attempt the part belongs to
     */
    private Seals seals(PartBuilder p, int index, int block, boolean completed, BitSet endedParts) {
        Origin o = origin;
        if (o == null || p.seals.isEmpty()) {
            return p.seals;
        }
        return p.seals.withProvenance(new Provenance(o, model, block, completed || endedParts.get(index), requestedModel));
    }

    private AssistantMessage message(List<Part> built) {
        FinishReason reason = finishReason != null ? finishReason : FinishReason.OTHER;
        return new AssistantMessage(built, provider, model, reason, rawFinishReason, usage());
    }

    /** Snapshot support: the parts of the current attempt (a new list when a refused answer starts over). */
    List<PartBuilder> currentParts() {
        return parts;
    }

    /** Snapshot support: which of the current attempt's parts ended. */
    BitSet currentEnded() {
        return ended;
    }

    /** Snapshot support: how many parts exist now and how long each text is. */
    int[] textLengths() {
        int[] lengths = new int[parts.size()];
        for (int i = 0; i < lengths.length; i++) {
            PartBuilder p = parts.get(i);
            lengths[i] = p == null ? -1 : p.text.length();
        }
        return lengths;
    }

    /** Snapshot support: the message as it was when {@code lengths} was taken of {@code partsThen}. */
    AssistantMessage partialAt(List<PartBuilder> partsThen, BitSet endedThen, int[] lengths, Usage usageThen,
                               @Nullable FinishReason finishThen) {
        List<Part> built = new ArrayList<>(lengths.length);
        for (int i = 0; i < lengths.length; i++) {
            PartBuilder p = partsThen.get(i);
            if (p != null && lengths[i] >= 0 && !(lengths[i] == 0 && p.isEmpty(""))) {
                built.add(p.build(p.text.substring(0, lengths[i]), null,
                        seals(p, i, built.size(), finishThen != null, endedThen)));
            }
        }
        return new AssistantMessage(built, provider, model, finishThen != null ? finishThen : FinishReason.OTHER,
                rawFinishReason, usageThen);
    }

    /** The usage so far: the current attempt's, plus that of attempts whose structured answer was refused. */
    Usage usage() {
        return refusedUsage.plus(usage);
    }

    @Nullable FinishReason finishReason() {
        return finishReason;
    }

    private static int firstDifference(CharSequence a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            if (a.charAt(i) != b.charAt(i)) {
                return i;
            }
        }
        return a.length() == b.length() ? -1 : n;
    }

    private static String stripWhitespace(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isWhitespace(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String excerpt(String s, int offset) {
        int from = Math.max(0, offset - 20);
        int to = Math.min(s.length(), offset + 20);
        return "\"" + (from > 0 ? "…" : "") + s.substring(from, to) + (to < s.length() ? "…" : "") + "\"";
    }
}
