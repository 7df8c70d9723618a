package dev.ruminate.core.history;

import dev.ruminate.core.error.OpaqueStateException;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.PromptCaching;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Prepares a conversation for one provider before its encoder writes it: strips what another
 * provider or another endpoint identity produced, checks the integrity of the opaque values it
 * keeps, and applies the retention of reasoning. {@link #plan} also explains every decision.
 *
 * <p>The rules, in the order applied to each assistant turn (ids as in
 * {@code docs/send-back-rules.md}):
 * <ol>
 *   <li><b>H1, another provider.</b> A turn is the target provider's own when its
 *       {@link AssistantMessage#provider()} equals the target's name, or is null (H3: a turn the
 *       application built itself is taken as meant for the provider it is sent to). Any other turn
 *       is foreign: every seal is removed from its parts (signatures, encrypted content, redacted
 *       data, item ids and formats are only valid where they were made), its server tool blocks are
 *       dropped (they name another provider's tools), and its reasoning is dropped or, under
 *       {@link ForeignReasoning#AS_TAGGED_TEXT}, becomes a text part {@code <think>\n…\n</think>}
 *       followed by a blank line, in its place. A reasoning part with no text left (redacted,
 *       encrypted only) is then dropped.</li>
 *   <li><b>Boundary</b> ({@link #plan} only). A part whose seals carry a {@link Provenance} keeps
 *       them only when they were made by the target's provider, over its API, at its endpoint (or
 *       one {@linkplain HistoryPolicy#withEquivalentEndpoints declared equivalent}), with its
 *       account fingerprint (unless the {@linkplain HistoryPolicy#withAccountCheck account check}
 *       is off), and, when the target's rules {@linkplain OpaqueRules#bindsToModel() bind opaque
 *       state to the model}, by the target model's family ({@link OpaqueRules#modelFamily}). A
 *       model unknown on either side, or an alias ({@link ModelFamilies#isAlias}), is not compared:
 *       the state is kept. Otherwise every seal of the part is removed and its readable reasoning
 *       goes as a foreign turn's would (dropped, or tagged text by policy); when the endpoint
 *       identity differs, the turn's server tool blocks are dropped too (they may hold state bound
 *       there). <b>Values without provenance</b> (built by hand, or stored before provenance was
 *       recorded) keep the provider-name rule alone, as before.</li>
 *   <li><b>Integrity</b> ({@link #plan} only), on each opaque value that is still to be sent: the
 *       target's {@link OpaqueRules#problem} and {@link OpaqueRules#problems}, and for every family
 *       nothing from a block that never finished ({@link Provenance#finished()}) and sealed parts
 *       in the order, and with the distinct blocks, they were made in ({@link Provenance#block()}).
 *       Under {@link IntegrityPolicy#STRIP} only the bad value is removed (its part goes as unsigned
 *       reasoning or plain text; the encoder decides what its API takes; a reasoning part left with
 *       neither text nor state is dropped); under {@link IntegrityPolicy#FAIL}
 *       {@link OpaqueStateException} is thrown, before anything is sent. Well-formedness is checked
 *       with or without provenance; the order and unfinished checks need provenance.</li>
 *   <li><b>H4, retention.</b> {@link Retention#TOOL_LOOP} keeps reasoning only in the turns after
 *       the last {@link UserMessage}, {@link Retention#NONE} keeps none. Removing a turn's
 *       reasoning drops its reasoning parts and the reasoning state other parts carry (signatures,
 *       encrypted or redacted data; a Gemini thought signature rides on a call or an answer),
 *       keeping item ids. Tagged text made from foreign reasoning counts as reasoning here. Values
 *       retention removes are not checked for integrity: they are not sent.</li>
 * </ol>
 * An assistant turn left without parts is dropped. Other messages pass unchanged, in order.
 *
 * <p>{@link #prepare} without a {@link SendTarget} applies H1 and H4 only (what this class did
 * before endpoint identities and integrity checks existed).
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class History {

    /** The rule id of endpoint and model boundaries in plans. */
    public static final String BOUNDARY = "boundary";
    /** The rule id of integrity checks in plans. */
    public static final String INTEGRITY = "integrity";

    private static final String REASONING = "reasoning";
    private static final Seal.Kind[] REASONING_STATE = {Seal.Kind.SIGNATURE, Seal.Kind.REDACTED, Seal.Kind.ENCRYPTED};

    private History() {
    }

    /**
     * Prepares a request's conversation for a target and explains every decision: see the class
     * description for the rules.
     *
     * @param request the request
     * @param target where it goes: endpoint identity, model and the family's opaque-value rules
     * @param policy the policy
     * @param defaultRetention the provider's default retention, used when the policy names none
     * @return the prepared request, History's decisions and the index maps for the encoder stage
     * @throws OpaqueStateException if an opaque value fails its checks under
     *     {@link IntegrityPolicy#FAIL}
     * @since 0.2
     */
    public static PreparedHistory plan(ChatRequest request, SendTarget target, HistoryPolicy policy,
                                       Retention defaultRetention) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(target, "target");
        Engine engine = new Engine(target.provider(), target, policy, defaultRetention);
        List<Message> prepared = engine.run(request.messages());
        int[] turnOrigins = engine.turnOrigins();
        ChatRequest out = prepared.equals(request.messages()) ? request : withMessages(request, prepared, turnOrigins);
        return new PreparedHistory(out, engine.entries, turnOrigins, engine.partOrigins());
    }

    /**
     * Prepares a conversation for a provider known by name only: H1 and H4 (no boundary or
     * integrity checks, which need a {@link SendTarget}).
     *
     * @param conversation the messages, oldest first
     * @param targetProvider the name of the provider the request goes to
     * @param policy the policy
     * @param defaultRetention the provider's default retention, used when the policy names none
     * @return the messages to encode, a new unmodifiable list
     */
    public static List<Message> prepare(List<Message> conversation, String targetProvider, HistoryPolicy policy,
                                        Retention defaultRetention) {
        Objects.requireNonNull(conversation, "conversation");
        Objects.requireNonNull(targetProvider, "targetProvider");
        return new Engine(targetProvider, null, policy, defaultRetention).run(conversation);
    }

    /**
     * Prepares a request's conversation for a provider known by name only, keeping everything
     * else of the request: H1 and H4.
     *
     * @param request the request
     * @param targetProvider the name of the provider the request goes to
     * @param policy the policy
     * @param defaultRetention the provider's default retention, used when the policy names none
     * @return the request with its messages prepared (the same request when nothing changed)
     */
    public static ChatRequest prepare(ChatRequest request, String targetProvider, HistoryPolicy policy,
                                      Retention defaultRetention) {
        Objects.requireNonNull(targetProvider, "targetProvider");
        Engine engine = new Engine(targetProvider, null, policy, defaultRetention);
        List<Message> prepared = engine.run(request.messages());
        return prepared.equals(request.messages()) ? request : withMessages(request, prepared, engine.turnOrigins());
    }

    /**
     * Prepares a conversation for a target, with every rule (see {@link #plan}), without the plan.
     *
     * @param conversation the messages, oldest first
     * @param target where the request goes
     * @param policy the policy
     * @param defaultRetention the provider's default retention, used when the policy names none
     * @return the messages to encode, a new unmodifiable list
     * @throws OpaqueStateException if an opaque value fails its checks under
     *     {@link IntegrityPolicy#FAIL}
     * @since 0.2
     */
    public static List<Message> prepare(List<Message> conversation, SendTarget target, HistoryPolicy policy,
                                        Retention defaultRetention) {
        Objects.requireNonNull(conversation, "conversation");
        Objects.requireNonNull(target, "target");
        return new Engine(target.provider(), target, policy, defaultRetention).run(conversation);
    }

    /**
     * Prepares a request's conversation for a target, with every rule (see {@link #plan}),
     * without the plan.
     *
     * @param request the request
     * @param target where the request goes
     * @param policy the policy
     * @param defaultRetention the provider's default retention, used when the policy names none
     * @return the request with its messages prepared (the same request when nothing changed)
     * @throws OpaqueStateException if an opaque value fails its checks under
     *     {@link IntegrityPolicy#FAIL}
     * @since 0.2
     */
    public static ChatRequest prepare(ChatRequest request, SendTarget target, HistoryPolicy policy,
                                      Retention defaultRetention) {
        return plan(request, target, policy, defaultRetention).request();
    }

    /**
     * Returns where the current tool loop starts: the index after the last user message, or 0 when
     * there is none.
     *
     * @param conversation the messages
     * @return the index of the first message of the current tool loop
     */
    public static int currentToolLoopStart(List<Message> conversation) {
        for (int i = conversation.size() - 1; i >= 0; i--) {
            if (conversation.get(i) instanceof UserMessage) {
                return i + 1;
            }
        }
        return 0;
    }

    /**
     * Tells whether a turn came from another provider than the target.
     *
     * @param message the turn
     * @param targetProvider the target's name
     * @return true when the turn names another provider
     */
    public static boolean isForeign(AssistantMessage message, String targetProvider) {
        return message.provider() != null && !message.provider().equals(targetProvider);
    }

    /**
     * Returns the request with the prepared messages; cache breakpoints set on messages follow their
     * message to its prepared index, and go with it when it was dropped.
     */
    private static ChatRequest withMessages(ChatRequest request, List<Message> messages, int[] turnOrigins) {
        PromptCaching caching = request.caching();
        if (!caching.messages().isEmpty()) {
            List<Integer> moved = new ArrayList<>();
            for (int prepared = 0; prepared < turnOrigins.length; prepared++) {
                if (caching.messages().contains(turnOrigins[prepared])) {
                    moved.add(prepared);
                }
            }
            caching = caching.withMessages(moved);
        }
        return new ChatRequest(request.model(), messages, request.tools(), request.reasoning(), request.sampling(),
                request.extras(), request.output(), caching);
    }

    private static String name(Seal.Kind kind) {
        return OpaqueStateException.name(kind);
    }

    /** One preparation: the rules over one conversation, collecting decisions and index maps. */
    private static final class Engine {
        private final String targetName;
        private final @Nullable SendTarget target;
        private final HistoryPolicy policy;
        private final Retention retention;
        private final List<PlanEntry> entries = new ArrayList<>();
        private final List<Integer> turnOrigin = new ArrayList<>();
        private final List<int[]> partOrigin = new ArrayList<>();

        Engine(String targetName, @Nullable SendTarget target, HistoryPolicy policy, Retention defaultRetention) {
            this.targetName = targetName;
            this.target = target;
            this.policy = Objects.requireNonNull(policy, "policy");
            this.retention = policy.retentionOr(defaultRetention);
        }

        List<Message> run(List<Message> conversation) {
            int loopStart = currentToolLoopStart(conversation);
            List<Message> out = new ArrayList<>(conversation.size());
            for (int i = 0; i < conversation.size(); i++) {
                Message m = conversation.get(i);
                if (!(m instanceof AssistantMessage a)) {
                    out.add(m);
                    turnOrigin.add(i);
                    partOrigin.add(new int[0]);
                    continue;
                }
                boolean keepReasoning = retention == Retention.ALL || (retention == Retention.TOOL_LOOP && i >= loopStart);
                List<Part> parts = new ArrayList<>(a.parts().size());
                List<Integer> origins = new ArrayList<>(a.parts().size());
                turn(i, a, keepReasoning, parts, origins);
                if (parts.isEmpty()) {
                    continue;
                }
                out.add(parts.equals(a.parts()) ? a : new AssistantMessage(parts, a.provider(), a.model(), a.finishReason(),
                        a.rawFinishReason(), a.usage()));
                turnOrigin.add(i);
                partOrigin.add(origins.stream().mapToInt(Integer::intValue).toArray());
            }
            return List.copyOf(out);
        }

        int[] turnOrigins() {
            return turnOrigin.stream().mapToInt(Integer::intValue).toArray();
        }

        int[][] partOrigins() {
            return partOrigin.toArray(new int[0][]);
        }

        private void turn(int i, AssistantMessage a, boolean keepReasoning, List<Part> parts, List<Integer> origins) {
            if (isForeign(a, targetName)) {
                String reason = "made by " + a.provider() + ", the request goes to " + targetName;
                for (int j = 0; j < a.parts().size(); j++) {
                    crossed(i, j, a.parts().get(j), keepReasoning, "H1", reason, true, parts, origins);
                }
                return;
            }
            List<@Nullable String> crossings = new ArrayList<>();
            boolean endpointCrossed = false;
            for (Part p : a.parts()) {
                Crossing c = crossing(p);
                crossings.add(c == null ? null : c.reason);
                endpointCrossed |= c != null && c.endpoint;
            }
            Map<Integer, Map<Seal.Kind, String>> problems = target != null ? problems(a, target.rules())
                    : Map.of();
            for (int j = 0; j < a.parts().size(); j++) {
                Part p = a.parts().get(j);
                String crossed = crossings.get(j);
                if (crossed != null) {
                    crossed(i, j, p, keepReasoning, BOUNDARY, crossed, endpointCrossed, parts, origins);
                } else if (p instanceof ServerToolPart && endpointCrossed) {
                    entries.add(new PlanEntry(i, j, "block", PlanAction.DROP, BOUNDARY,
                            "a server tool block of a turn made at another endpoint identity: it may hold state bound there"));
                } else {
                    own(i, j, p, keepReasoning, problems.getOrDefault(j, Map.of()), parts, origins);
                }
            }
        }

        /** A part whose opaque state may not go to the target: H1 (foreign turn) or a boundary. */
        private void crossed(int i, int j, Part p, boolean keepReasoning, String rule, String reason, boolean dropServerTools,
                             List<Part> parts, List<Integer> origins) {
            for (Seal.Kind kind : Seal.Kind.values()) {
                if (p.seals().get(kind) != null) {
                    entries.add(new PlanEntry(i, j, name(kind), PlanAction.STRIP, rule, reason + ": opaque state is only valid where it was made"));
                }
            }
            if (p instanceof ReasoningPart r) {
                if (!keepReasoning) {
                    entries.add(new PlanEntry(i, j, REASONING, PlanAction.DROP, "H4", retentionReason()));
                } else if (policy.foreignReasoning() == ForeignReasoning.DROP) {
                    entries.add(new PlanEntry(i, j, REASONING, PlanAction.DROP, rule, reason + "; ForeignReasoning.DROP"));
                } else if (r.text().isEmpty()) {
                    entries.add(new PlanEntry(i, j, REASONING, PlanAction.DROP, rule, reason + "; no readable text to send"));
                } else {
                    entries.add(new PlanEntry(i, j, REASONING, PlanAction.TO_TEXT, rule,
                            reason + "; ForeignReasoning.AS_TAGGED_TEXT: sent as <think> tagged answer text"));
                    // the blank line after keeps several such parts, and the answer after them, apart when joined
                    add(new TextPart("<think>\n" + r.text() + "\n</think>\n\n", Seals.NONE), j, parts, origins);
                }
            } else if (p instanceof TextPart || p instanceof ToolCallPart) {
                add(p.withSeals(Seals.NONE), j, parts, origins);
            } else if (p instanceof ServerToolPart s) {
                if (dropServerTools) {
                    if ("H1".equals(rule)) {
                        entries.add(new PlanEntry(i, j, "block", PlanAction.DROP, rule, reason + ": it names the other provider's tools"));
                    } else {
                        entries.add(new PlanEntry(i, j, "block", PlanAction.DROP, rule, reason + ": it may hold state bound there"));
                    }
                } else {
                    add(s.withSeals(Seals.NONE), j, parts, origins);
                }
            }
        }

        /** A part of the target's own that crossed no boundary: retention, then integrity. */
        private void own(int i, int j, Part p, boolean keepReasoning, Map<Seal.Kind, String> problems, List<Part> parts,
                         List<Integer> origins) {
            if (!keepReasoning && p instanceof ReasoningPart) {
                for (Seal.Kind kind : Seal.Kind.values()) {
                    if (p.seals().get(kind) != null) {
                        entries.add(new PlanEntry(i, j, name(kind), PlanAction.STRIP, "H4", retentionReason()));
                    }
                }
                entries.add(new PlanEntry(i, j, REASONING, PlanAction.DROP, "H4", retentionReason()));
                return;
            }
            Seals seals = p.seals();
            if (!keepReasoning) {
                for (Seal.Kind kind : REASONING_STATE) {
                    if (seals.get(kind) != null) {
                        entries.add(new PlanEntry(i, j, name(kind), PlanAction.STRIP, "H4", retentionReason()
                                + " (reasoning state on a call or answer goes with it; item ids stay)"));
                        seals = seals.without(kind);
                    }
                }
            }
            boolean stripped = false;
            for (Seal.Kind kind : Seal.Kind.values()) {
                if (seals.get(kind) == null) {
                    continue;
                }
                String problem = problems.get(kind);
                if (problem == null) {
                    entries.add(new PlanEntry(i, j, name(kind), PlanAction.KEEP, BOUNDARY, keepReason(p.seals())));
                    continue;
                }
                if (policy.integrity() == IntegrityPolicy.FAIL) {
                    throw new OpaqueStateException(targetName, i, j, kind, problem);
                }
                entries.add(new PlanEntry(i, j, name(kind), PlanAction.STRIP, INTEGRITY, problem));
                seals = seals.without(kind);
                stripped = true;
            }
            if (stripped && p instanceof ReasoningPart r && r.text().isEmpty() && seals.isEmpty()) {
                entries.add(new PlanEntry(i, j, REASONING, PlanAction.DROP, INTEGRITY,
                        "no readable text and no sound opaque state left to send"));
            } else {
                add(p.withSeals(seals), j, parts, origins);
            }
        }

        private static void add(Part p, int j, List<Part> parts, List<Integer> origins) {
            parts.add(p);
            origins.add(j);
        }

        private String retentionReason() {
            return "retention " + retention + ": "
                    + (retention == Retention.NONE ? "no reasoning goes back" : "reasoning goes back only after the last user message");
        }

        private String keepReason(Seals seals) {
            Provenance pv = seals.provenance();
            if (target == null || pv == null) {
                return "no provenance recorded: judged by provider name only";
            }
            StringBuilder sb = new StringBuilder("same provider, API, ");
            sb.append(pv.origin().endpoint().equals(target.origin().endpoint()) ? "endpoint" : "declared-equivalent endpoint");
            sb.append(policy.accountCheck() ? " and account" : " (account not checked)");
            if (target.rules().bindsToModel()) {
                sb.append(modelKnown(pv) ? "; same model family" : "; model unknown or an alias: not compared");
            }
            return sb.toString();
        }

        /**
         * Tells whether the value's model and the target's can be compared: the target names a model
         * that is not an alias, and the value records one (reported or requested) that is not either.
         */
        private boolean modelKnown(Provenance pv) {
            SendTarget t = Objects.requireNonNull(target);
            String wanted = t.model();
            return wanted != null && !ModelFamilies.isAlias(wanted) && !knownModels(pv).isEmpty();
        }

        /** The value's models that can be compared: the reported one and the requested one, aliases left out. */
        private static List<String> knownModels(Provenance pv) {
            List<String> out = new ArrayList<>(2);
            for (String m : new String[] {pv.model(), pv.requestedModel()}) {
                if (m != null && !ModelFamilies.isAlias(m)) {
                    out.add(m);
                }
            }
            return out;
        }

        /** Why a part's state may not go to the target, or null when it may (or has no provenance). */
        private @Nullable Crossing crossing(Part p) {
            Provenance pv = p.seals().provenance();
            if (target == null || pv == null || p.seals().isEmpty()) {
                return null;
            }
            Origin made = pv.origin();
            Origin to = target.origin();
            if (!made.provider().equals(to.provider())) {
                return new Crossing("made by provider " + made.provider() + ", the request goes to " + to.provider(), true);
            }
            if (!made.api().equals(to.api())) {
                return new Crossing("made over the " + made.api() + " API, the request goes over " + to.api(), true);
            }
            if (!policy.endpointsEquivalent(made.endpoint(), to.endpoint())) {
                return new Crossing("made at endpoint " + made.endpoint() + ", the request goes to " + to.endpoint()
                        + " (not declared equivalent)", true);
            }
            if (policy.accountCheck() && !Objects.equals(made.account(), to.account())) {
                return new Crossing("made with another account (key, deployment or project) than the request's", true);
            }
            if (target.rules().bindsToModel() && modelKnown(pv)) {
                // the provider may report a dated id for the model the request named: either one matching is the same model
                String wantedFamily = target.rules().modelFamily(Objects.requireNonNull(target.model()));
                List<String> models = knownModels(pv);
                boolean same = false;
                for (String m : models) {
                    same |= target.rules().modelFamily(m).equals(wantedFamily);
                }
                if (!same) {
                    return new Crossing("made by model family " + target.rules().modelFamily(models.get(0))
                            + ", the request is for " + wantedFamily + "; " + to.provider()
                            + " binds opaque state to the model", false);
                }
            }
            return null;
        }

        /** The integrity problems of a turn's values, by part and kind: the first found for each. */
        private static Map<Integer, Map<Seal.Kind, String>> problems(AssistantMessage a, OpaqueRules rules) {
            Map<Integer, Map<Seal.Kind, String>> out = new java.util.HashMap<>();
            List<Part> ps = a.parts();
            for (int j = 0; j < ps.size(); j++) {
                Seals s = ps.get(j).seals();
                Provenance pv = s.provenance();
                if (pv != null && !pv.finished()) {
                    flagAll(out, j, s, "its block never finished (the stream stopped inside it): the value may be cut short");
                }
                if (pv != null && !s.isEmpty()) {
                    String order = order(ps, j, pv.block());
                    if (order != null) {
                        flagAll(out, j, s, order);
                    }
                }
                for (Seal.Kind kind : Seal.Kind.values()) {
                    String v = s.get(kind);
                    if (v != null) {
                        String problem = rules.problem(ps.get(j), kind, v);
                        if (problem != null) {
                            flag(out, j, kind, problem);
                        }
                    }
                }
            }
            for (OpaqueRules.Problem p : rules.problems(a)) {
                flag(out, p.part(), p.kind(), p.reason());
            }
            return out;
        }

        /** Why a sealed part is out of its turn's order of blocks, or null. */
        private static @Nullable String order(List<Part> ps, int j, int block) {
            for (int k = 0; k < ps.size(); k++) {
                Provenance other = ps.get(k).seals().provenance();
                if (k == j || other == null || ps.get(k).seals().isEmpty()) {
                    continue;
                }
                if (other.block() == block) {
                    return "block " + block + " appears twice in the turn (duplicated state)";
                }
                if (k < j && other.block() > block || k > j && other.block() < block) {
                    return "sealed blocks out of their original order (this one was block " + block + ")";
                }
            }
            return null;
        }

        private static void flagAll(Map<Integer, Map<Seal.Kind, String>> out, int j, Seals s, String reason) {
            for (Seal.Kind kind : Seal.Kind.values()) {
                if (s.get(kind) != null) {
                    flag(out, j, kind, reason);
                }
            }
        }

        private static void flag(Map<Integer, Map<Seal.Kind, String>> out, int j, Seal.Kind kind, String reason) {
            out.computeIfAbsent(j, x -> new EnumMap<>(Seal.Kind.class)).putIfAbsent(kind, reason);
        }
    }

    /** Why a part's state may not go: and whether the endpoint identity (not just the model) differs. */
    private record Crossing(String reason, boolean endpoint) {
    }
}
