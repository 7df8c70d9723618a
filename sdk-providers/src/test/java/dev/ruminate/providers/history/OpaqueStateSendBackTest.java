package dev.ruminate.providers.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.OpaqueStateException;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.ForeignReasoning;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.IntegrityPolicy;
import dev.ruminate.core.history.PlanAction;
import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.PreparedHistory;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.history.SendTarget;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.history.OpaqueFamilies.Family;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.test.StepVerifier;

/**
 * Real recorded turns of every family with opaque state, their values corrupted, truncated, emptied
 * or swapped, and replayed across endpoint and model boundaries: the plan names each decision, the
 * request the family's encoder writes leaves out exactly the bad or foreign values and keeps the
 * good ones byte-identical, and under {@link IntegrityPolicy#FAIL} the call fails with a typed error
 * before any request reaches the server.
 */
@ExtendWith(NettyLeakCheck.class)
class OpaqueStateSendBackTest {

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** How a value is damaged. */
    enum Damage {
        CORRUPT(v -> v.substring(0, v.length() / 2) + "!" + v.substring(v.length() / 2 + 1)),
        TRUNCATE(v -> v.substring(0, v.length() - 3)),
        EMPTY(v -> "");

        final UnaryOperator<String> apply;

        Damage(UnaryOperator<String> apply) {
            this.apply = apply;
        }
    }

    static Stream<Family> families() {
        return OpaqueFamilies.all();
    }

    static Stream<Arguments> familiesAndDamages() {
        return OpaqueFamilies.all().flatMap(f -> Stream.of(Damage.values()).map(d -> Arguments.of(f, d)));
    }

    private static final Seal.Kind[] STATE = {Seal.Kind.SIGNATURE, Seal.Kind.REDACTED, Seal.Kind.ENCRYPTED};

    /** The first sealed part's reasoning state: its part index and kind. */
    private static Map.Entry<Integer, Seal.Kind> victim(AssistantMessage turn) {
        for (int i : OpaqueFamilies.sealedParts(turn)) {
            for (Seal.Kind kind : STATE) {
                if (turn.parts().get(i).seals().get(kind) != null) {
                    return Map.entry(i, kind);
                }
            }
        }
        throw new AssertionError("no reasoning state in the sample");
    }

    private static AssistantMessage replace(AssistantMessage turn, int index, Part part) {
        List<Part> parts = new ArrayList<>(turn.parts());
        parts.set(index, part);
        return new AssistantMessage(parts, turn.provider(), turn.model(), turn.finishReason(), turn.rawFinishReason(), turn.usage());
    }

    private static AssistantMessage remove(AssistantMessage turn, int index) {
        List<Part> parts = new ArrayList<>(turn.parts());
        parts.remove(index);
        return new AssistantMessage(parts, turn.provider(), turn.model(), turn.finishReason(), turn.rawFinishReason(), turn.usage());
    }

    /** The turn with one value removed, as STRIP should leave it (a reasoning part left with nothing goes). */
    private static AssistantMessage without(AssistantMessage turn, int index, Seal.Kind kind) {
        Part p = turn.parts().get(index);
        Seals left = p.seals().without(kind);
        if (p instanceof ReasoningPart r && r.text().isEmpty() && left.isEmpty()) {
            return remove(turn, index);
        }
        return replace(turn, index, p.withSeals(left));
    }

    private static ChatRequest request(AssistantMessage turn) {
        return ChatRequest.builder(turn.model() != null ? turn.model() : "m")
                .messages(List.of(Message.user("q"), turn, Message.user("next"))).build();
    }

    private static String encode(Family family, ChatRequest prepared) {
        return new String(family.codec().encode(prepared, false), StandardCharsets.UTF_8);
    }

    private static PreparedHistory plan(Family family, AssistantMessage turn, SendTarget target, HistoryPolicy policy) {
        return History.plan(request(turn), target, policy, Retention.ALL);
    }

    private static SendTarget home(Family family, @Nullable String model) {
        return new SendTarget(family.home(), model, family.codec().opaqueRules());
    }

    /** Every reasoning-state value of the turn that the family's encoder writes for it. */
    private static List<String> sentValues(Family family, AssistantMessage turn) {
        String body = encode(family, request(turn));
        List<String> out = new ArrayList<>();
        for (Part p : turn.parts()) {
            for (Seal.Kind kind : STATE) {
                String v = p.seals().get(kind);
                if (v != null && !v.isEmpty() && body.contains(v)) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("familiesAndDamages")
    void aDamagedValueIsStrippedAloneAndTheRestGoesOutByteIdentical(Family family, Damage damage) {
        AssistantMessage turn = family.stampedSample();
        Map.Entry<Integer, Seal.Kind> v = victim(turn);
        int j = v.getKey();
        Seal.Kind kind = v.getValue();
        Part part = turn.parts().get(j);
        String good = part.seals().get(kind);
        String bad = damage.apply.apply(good);
        AssistantMessage damaged = replace(turn, j, part.withSeals(part.seals().with(kind, bad)));

        PreparedHistory prepared = plan(family, damaged, home(family, turn.model()), HistoryPolicy.DEFAULT);

        assertThat(prepared.entries()).filteredOn(e -> e.action() != PlanAction.KEEP)
                .extracting(PlanEntry::turn, PlanEntry::part, PlanEntry::value, PlanEntry::action, PlanEntry::rule)
                .startsWith(org.assertj.core.groups.Tuple.tuple(1, j, OpaqueStateException.name(kind), PlanAction.STRIP, "integrity"));
        AssistantMessage expected = without(turn, j, kind);
        assertThat(prepared.request().messages().get(1)).isEqualTo(expected);
        String body = encode(family, prepared.request());
        assertThat(body).isEqualTo(encode(family, request(expected)));
        if (!bad.isEmpty()) {
            assertThat(body).doesNotContain(bad);
        }
        assertThat(body).doesNotContain(good);
        List<String> others = sentValues(family, turn);
        others.remove(good);
        assertThat(others).as("the good values still sent").isNotEmpty();
        others.forEach(o -> assertThat(body).contains(o));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void swappedSealedBlocksAreBothStripped(Family family) {
        AssistantMessage turn = family.stampedSample();
        List<Integer> sealed = OpaqueFamilies.sealedParts(turn);
        assertThat(sealed).as("the sample has two sealed parts").hasSizeGreaterThanOrEqualTo(2);
        int a = sealed.get(0);
        int b = sealed.get(1);
        Part pa = turn.parts().get(a);
        Part pb = turn.parts().get(b);
        AssistantMessage swapped = replace(replace(turn, a, pa.withSeals(pb.seals())), b,
                pb.withSeals(pa.seals()));

        PreparedHistory prepared = plan(family, swapped, home(family, turn.model()), HistoryPolicy.DEFAULT);

        assertThat(prepared.entries()).filteredOn(e -> e.action() == PlanAction.STRIP)
                .allSatisfy(e -> assertThat(e.rule()).isEqualTo("integrity"))
                .extracting(PlanEntry::part).containsOnly(a, b);
        AssistantMessage sent = (AssistantMessage) prepared.request().messages().get(1);
        String body = encode(family, prepared.request());
        for (Part p : List.of(pa, pb)) {
            for (Seal.Kind kind : STATE) {
                String value = p.seals().get(kind);
                if (value != null) {
                    assertThat(body).doesNotContain(value);
                }
            }
        }
        assertThat(sent.parts()).extracting(Part::seals).doesNotContain(pa.seals(), pb.seals());
        // the other sealed parts go out as they came
        sealed.stream().skip(2).forEach(i -> assertThat(sent.parts()).contains(turn.parts().get(i)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void anUnfinishedBlocksStateNeverGoesBack(Family family) {
        AssistantMessage turn = family.stampedSample();
        int j = victim(turn).getKey();
        Part part = turn.parts().get(j);
        Provenance pv = part.seals().provenance();
        AssistantMessage aborted = replace(turn, j,
                part.withSeals(part.seals().withProvenance(new Provenance(pv.origin(), pv.model(), pv.block(), false))));

        PreparedHistory prepared = plan(family, aborted, home(family, turn.model()), HistoryPolicy.DEFAULT);

        assertThat(prepared.entries()).filteredOn(e -> e.part() == j && e.action() == PlanAction.STRIP)
                .isNotEmpty().allSatisfy(e -> assertThat(e.reason()).contains("never finished"));
        String body = encode(family, prepared.request());
        for (Seal.Kind kind : STATE) {
            String value = part.seals().get(kind);
            if (value != null) {
                assertThat(body).doesNotContain(value);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void aTurnReplayedToAnotherEndpointOrAccountLosesItsOpaqueStateAndKeepsItsReasoningByPolicy(Family family) {
        AssistantMessage turn = family.stampedSample();
        Origin h = family.home();
        List<String> values = sentValues(family, turn);
        assertThat(values).isNotEmpty();
        for (Origin other : List.of(new Origin(h.provider(), h.api(), "proxy.example.com/v1", h.account()),
                new Origin(h.provider(), h.api(), h.endpoint(), "another-account"))) {
            SendTarget target = new SendTarget(other, turn.model(), family.codec().opaqueRules());

            PreparedHistory dropped = plan(family, turn, target, HistoryPolicy.DEFAULT);
            PreparedHistory tagged = plan(family, turn, target,
                    HistoryPolicy.DEFAULT.withForeignReasoning(ForeignReasoning.AS_TAGGED_TEXT));

            String body = encode(family, dropped.request());
            values.forEach(v -> assertThat(body).doesNotContain(v));
            assertThat(dropped.entries()).filteredOn(e -> !e.value().equals("reasoning"))
                    .allSatisfy(e -> assertThat(e).extracting(PlanEntry::action, PlanEntry::rule)
                            .containsExactly(PlanAction.STRIP, "boundary"));
            assertThat(((AssistantMessage) dropped.request().messages().get(1)).parts())
                    .noneMatch(p -> p instanceof ReasoningPart r && !r.seals().isEmpty());
            String taggedBody = encode(family, tagged.request());
            values.forEach(v -> assertThat(taggedBody).doesNotContain(v));
            turn.parts().stream().filter(p -> p instanceof ReasoningPart r && !r.text().isEmpty() && !r.seals().isEmpty())
                    .map(p -> ((ReasoningPart) p).text())
                    .forEach(text -> assertThat(((AssistantMessage) tagged.request().messages().get(1)).parts())
                            .contains(TextPart.of("<think>\n" + text + "\n</think>\n\n")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void declaredEquivalentEndpointsKeepTheStateByteIdentical(Family family) {
        AssistantMessage turn = family.stampedSample();
        Origin h = family.home();
        Origin twin = new Origin(h.provider(), h.api(), "twin.example.com/v1", h.account());
        HistoryPolicy policy = HistoryPolicy.DEFAULT.withEquivalentEndpoints(h.endpoint(), "twin.example.com/v1");

        PreparedHistory prepared = plan(family, turn, new SendTarget(twin, turn.model(), family.codec().opaqueRules()), policy);

        assertThat(prepared.request().messages().get(1)).isSameAs(turn);
        assertThat(encode(family, prepared.request())).isEqualTo(encode(family, request(turn)));
        assertThat(prepared.entries()).extracting(PlanEntry::action).containsOnly(PlanAction.KEEP);
    }

    static Stream<Arguments> modelBound() {
        return Stream.of(
                Arguments.of(OpaqueFamilies.ANTHROPIC, "claude-opus-4-5", "claude-sonnet-4-5"),
                Arguments.of(OpaqueFamilies.GEMINI, "gemini-2.5-flash", "models/gemini-3.1-pro-preview"));
    }

    @ParameterizedTest(name = "{0} to {1}")
    @MethodSource("modelBound")
    void aTurnFromAnotherModelFamilyLosesItsSignaturesAndTheSameFamilyKeepsThem(Family family, String otherModel,
                                                                              String sameModel) {
        AssistantMessage turn = family.stampedSample();
        List<String> values = sentValues(family, turn);

        PreparedHistory other = plan(family, turn, home(family, otherModel), HistoryPolicy.DEFAULT);
        PreparedHistory same = plan(family, turn, home(family, sameModel), HistoryPolicy.DEFAULT);
        PreparedHistory unknown = plan(family, turn, home(family, null), HistoryPolicy.DEFAULT);

        String otherBody = encode(family, other.request());
        values.forEach(v -> assertThat(otherBody).doesNotContain(v));
        assertThat(other.entries()).filteredOn(e -> e.action() == PlanAction.STRIP)
                .isNotEmpty().allSatisfy(e -> assertThat(e.reason()).contains("binds opaque state to the model"));
        assertThat(same.request().messages().get(1)).isSameAs(turn);
        assertThat(unknown.request().messages().get(1)).isSameAs(turn);
    }

    // --- over HTTP: the provider skeleton (ProviderPipeline) with its own endpoint as the target ---

    private static <B extends ProviderBuilder<B>> B at(B builder) {
        return builder.baseUrl(emulator.baseUrl().toString());
    }

    private static ChatProvider provider(Family family, HistoryPolicy policy) {
        ApiKey key = ApiKey.of("k");
        return switch (family.name()) {
            case "anthropic" -> at(AnthropicProvider.builder()).apiKey(key).history(policy).build();
            case "bedrock" -> at(BedrockProvider.builder("us-east-1")).credentials(AwsCredentials.of("AKID", "s")).history(policy)
                    .build();
            case "gemini" -> at(GeminiProvider.builder()).apiKey(key).history(policy).build();
            case "openai-responses" -> at(ResponsesProvider.builder(ResponsesProfiles.OPENAI)).apiKey(key).history(policy).build();
            case "openrouter" -> at(ChatCompletionsProvider.builder(Profiles.OPENROUTER)).apiKey(key).history(policy).build();
            default -> throw new AssertionError(family.name());
        };
    }

    /** A recorded turn (no provenance: checked for well-formedness all the same) with its first state value corrupted. */
    private static AssistantMessage corrupted(Family family) {
        AssistantMessage turn = family.sample();
        Map.Entry<Integer, Seal.Kind> v = victim(turn);
        Part part = turn.parts().get(v.getKey());
        return replace(turn, v.getKey(),
                part.withSeals(part.seals().with(v.getValue(), Damage.CORRUPT.apply.apply(part.seals().get(v.getValue())))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void underFailACorruptValueFailsTheCallBeforeAnyRequestIsSent(Family family) {
        AssistantMessage bad = corrupted(family);
        int before = emulator.requests().size();

        StepVerifier.create(provider(family, HistoryPolicy.DEFAULT.withIntegrity(IntegrityPolicy.FAIL)).stream(request(bad)))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(OpaqueStateException.class);
                    OpaqueStateException o = (OpaqueStateException) e;
                    assertThat(o.turn()).isEqualTo(1);
                    assertThat(o.part()).isEqualTo(victim(bad).getKey());
                    assertThat(o.problem()).contains("position");
                })
                .verify(Duration.ofSeconds(30));

        assertThat(emulator.requests()).hasSize(before);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void underStripTheCorruptValueNeverReachesTheServer(Family family) {
        AssistantMessage bad = corrupted(family);
        Map.Entry<Integer, Seal.Kind> v = victim(bad);
        String value = bad.parts().get(v.getKey()).seals().get(v.getValue());
        emulator.enqueue(EmulatorResponse.httpError(500, "{\"error\":{\"message\":\"test\"}}"));
        int before = emulator.requests().size();

        StepVerifier.create(provider(family, HistoryPolicy.DEFAULT).stream(request(bad)))
                .expectError().verify(Duration.ofSeconds(30));

        assertThat(emulator.requests()).hasSize(before + 1);
        String body = emulator.requests().get(before).body();
        assertThat(body).doesNotContain(value).isNotEmpty();
    }
}
