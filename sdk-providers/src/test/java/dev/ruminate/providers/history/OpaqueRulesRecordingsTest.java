package dev.ruminate.providers.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.IntegrityPolicy;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.history.PlanAction;
import dev.ruminate.core.history.PreparedHistory;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.history.SendTarget;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.history.OpaqueFamilies.Family;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.SendBack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * No real opaque value is ever judged malformed: every sealed value of every recording of every
 * family with opaque state goes through its family's rules, and every recorded turn, stamped as
 * made where it is sent back, goes through {@link History#plan} under {@link IntegrityPolicy#FAIL}
 * unchanged. The values the APIs accepted back (the later-turn requests in {@code sendback/}) are
 * checked too.
 */
class OpaqueRulesRecordingsTest {

    static Stream<Family> families() {
        return OpaqueFamilies.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void everyRecordedValueIsWellFormedForItsFamily(Family family) {
        OpaqueRules rules = family.codec().opaqueRules();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (String path : family.recordings()) {
            AssistantMessage turn = family.turn(path);
            if (turn == null) {
                continue;
            }
            for (int i = 0; i < turn.parts().size(); i++) {
                Part p = turn.parts().get(i);
                for (Seal.Kind kind : Seal.Kind.values()) {
                    String v = p.seals().get(kind);
                    if (v != null) {
                        checked++;
                        String problem = rules.problem(p, kind, v);
                        if (problem != null) {
                            problems.add(path + " part " + i + " " + kind + ": " + problem);
                        }
                    }
                }
            }
            rules.problems(turn).forEach(pr -> problems.add(path + " " + pr));
        }
        assertThat(problems).isEmpty();
        assertThat(checked).as("sealed values checked").isGreaterThan(5);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void everyRecordedTurnGoesBackWhereItWasMadeUnchangedEvenUnderFail(Family family) {
        int turns = 0;
        for (String path : family.recordings()) {
            AssistantMessage turn = family.turn(path);
            if (turn == null || OpaqueFamilies.sealedParts(turn).isEmpty()) {
                continue;
            }
            turns++;
            AssistantMessage stamped = OpaqueFamilies.stamp(turn, family.home());
            ChatRequest request = ChatRequest.builder(turn.model() != null ? turn.model() : "m")
                    .messages(List.of(Message.user("q"), stamped, Message.user("next"))).build();

            PreparedHistory prepared = History.plan(request, new SendTarget(family.home(), turn.model(), family.codec().opaqueRules()),
                    HistoryPolicy.DEFAULT.withIntegrity(IntegrityPolicy.FAIL), Retention.ALL);

            assertThat(prepared.request()).as(path).isSameAs(request);
            assertThat(prepared.entries()).as(path).allSatisfy(e -> assertThat(e.action()).isEqualTo(PlanAction.KEEP));
        }
        assertThat(turns).as("recorded sealed turns").isGreaterThan(1);
    }

    /** The values each API accepted back: read from the later-turn requests by where they sit. */
    @Test
    void everyValueAnApiAcceptedBackIsWellFormedForItsFamily() {
        List<String> problems = new ArrayList<>();
        int[] checked = {0};
        for (String path : Recorded.under("sendback", ".request.json")) {
            walk(SendBack.tree(Recorded.text(path)), path, problems, checked);
        }
        assertThat(problems).isEmpty();
        assertThat(checked[0]).as("accepted values checked").isGreaterThan(20);
    }

    private static void walk(JsonNode node, String path, List<String> problems, int[] checked) {
        if (node.isArray()) {
            node.forEach(n -> walk(n, path, problems, checked));
            return;
        }
        if (!node.isObject()) {
            return;
        }
        String type = node.path("type").asString("");
        Map<Seal.Kind, String> values = new java.util.EnumMap<>(Seal.Kind.class);
        OpaqueRules rules = null;
        String format = null;
        if (node.has("thoughtSignature")) {
            rules = OpaqueFamilies.GEMINI.codec().opaqueRules();
            values.put(Seal.Kind.SIGNATURE, node.get("thoughtSignature").asString());
        } else if (type.startsWith("reasoning.")) {
            rules = OpaqueFamilies.OPENROUTER.codec().opaqueRules();
            format = node.path("format").asString(null);
            put(values, Seal.Kind.SIGNATURE, node.get("signature"));
            put(values, Seal.Kind.ENCRYPTED, node.get("data"));
            put(values, Seal.Kind.FORMAT, node.get("format"));
        } else if ("thinking".equals(type) && node.has("signature")) {
            rules = OpaqueFamilies.ANTHROPIC.codec().opaqueRules();
            put(values, Seal.Kind.SIGNATURE, node.get("signature"));
        } else if ("redacted_thinking".equals(type)) {
            rules = OpaqueFamilies.ANTHROPIC.codec().opaqueRules();
            put(values, Seal.Kind.REDACTED, node.get("data"));
        } else if (node.has("reasoningText") && node.get("reasoningText").has("signature")) {
            rules = OpaqueFamilies.BEDROCK.codec().opaqueRules();
            put(values, Seal.Kind.SIGNATURE, node.get("reasoningText").get("signature"));
        } else if (node.has("redactedContent")) {
            rules = OpaqueFamilies.BEDROCK.codec().opaqueRules();
            put(values, Seal.Kind.REDACTED, node.get("redactedContent"));
        } else if ("reasoning".equals(type)) {
            rules = OpaqueFamilies.RESPONSES.codec().opaqueRules();
            put(values, Seal.Kind.ENCRYPTED, node.get("encrypted_content"));
            put(values, Seal.Kind.ITEM_ID, node.get("id"));
        }
        if (rules != null) {
            Seals seals = Seals.NONE;
            for (Map.Entry<Seal.Kind, String> e : values.entrySet()) {
                seals = seals.with(e.getKey(), e.getValue());
            }
            if (format != null) {
                seals = seals.with(Seal.Kind.FORMAT, format);
            }
            Part part = node.has("thoughtSignature") ? new TextPart("", seals) : new ReasoningPart("", false, null, seals);
            for (Map.Entry<Seal.Kind, String> e : values.entrySet()) {
                checked[0]++;
                String problem = rules.problem(part, e.getKey(), e.getValue());
                if (problem != null) {
                    problems.add(path + " " + type + " " + e.getKey() + ": " + problem);
                }
            }
        }
        node.forEach(n -> walk(n, path, problems, checked));
    }

    private static void put(Map<Seal.Kind, String> values, Seal.Kind kind, JsonNode value) {
        if (value != null && value.isString()) {
            values.put(kind, value.asString());
        }
    }
}
