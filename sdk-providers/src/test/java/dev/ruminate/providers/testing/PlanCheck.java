package dev.ruminate.providers.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.PlanAction;
import dev.ruminate.core.history.PlanEntry;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.spi.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks a family's send-back plan against its encoder: a request is prepared as the provider
 * skeleton prepares it, explained with identity index maps (so entries name prepared indices),
 * encoded, and every entry is held against the body: a kept signature, blob, redacted data or item
 * id is in the body byte for byte (as a JSON string), one stripped or dropped is nowhere in it
 * (unless the same value is kept elsewhere), reasoning kept or converted is in the body, reasoning
 * dropped is not. Every reasoning part and every opaque value of every assistant message has exactly
 * one entry.
 */
public final class PlanCheck {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Dropped reasoning shorter than this is not looked for: a few words may well be elsewhere. */
    private static final int DISTINCT_TEXT = 16;

    private PlanCheck() {
    }

    /** A plan builder whose index maps are the identity over the messages given. */
    public static SendBackPlan.Builder identity(List<Message> messages) {
        int[] turns = new int[messages.size()];
        int[][] parts = new int[messages.size()][];
        for (int i = 0; i < messages.size(); i++) {
            turns[i] = i;
            int n = messages.get(i) instanceof AssistantMessage a ? a.parts().size() : 0;
            parts[i] = new int[n];
            for (int p = 0; p < n; p++) {
                parts[i][p] = p;
            }
        }
        return SendBackPlan.builder(turns, parts);
    }

    /** Prepares a request as the skeleton does (default policy, retention {@code ALL}). */
    public static ChatRequest prepare(String provider, ChatRequest request) {
        return History.prepare(request, provider, HistoryPolicy.DEFAULT, Retention.ALL);
    }

    /** The codec's plan of a prepared request, with identity maps. */
    public static SendBackPlan explain(WireCodec<?> codec, ChatRequest prepared) {
        SendBackPlan.Builder plan = identity(prepared.messages());
        codec.explain(prepared, plan);
        return plan.build();
    }

    /**
     * Prepares, explains and encodes a request and checks that the plan is complete and agrees with
     * the body.
     *
     * @return the plan (prepared indices)
     */
    public static SendBackPlan check(WireCodec<?> codec, String provider, ChatRequest request) {
        ChatRequest prepared = prepare(provider, request);
        SendBackPlan plan = explain(codec, prepared);
        String body = new String(codec.encode(prepared, false), StandardCharsets.UTF_8);
        assertComplete(prepared, plan);
        assertAgrees(prepared, plan, body);
        return plan;
    }

    /**
     * A later-turn conversation around a recorded turn: the user's question, the turn, then results
     * for its tool calls, or the user's next words.
     */
    public static ChatRequest nextTurn(String model, AssistantMessage turn) {
        List<Message> messages = new ArrayList<>();
        messages.add(Message.user("the question that started it"));
        messages.add(turn);
        if (turn.toolCalls().isEmpty()) {
            messages.add(Message.user("and then?"));
        } else {
            for (ToolCallPart c : turn.toolCalls()) {
                String id = c.id() != null ? c.id() : c.name();
                messages.add(new ToolResultMessage(id, c.name(), "{\"ok\":true}", false));
            }
        }
        return ChatRequest.builder(model).messages(messages).build();
    }

    /** Every reasoning part and opaque value has one entry (a placeholder comes beside it), and no entry names anything else. */
    public static void assertComplete(ChatRequest prepared, SendBackPlan plan) {
        List<Message> messages = prepared.messages();
        for (PlanEntry e : plan.entries()) {
            assertThat(messages.get(e.turn())).as("entry %s names an assistant message", e).isInstanceOf(AssistantMessage.class);
            assertThat(e.part()).as("entry %s names a part", e).isBetween(0, ((AssistantMessage) messages.get(e.turn())).parts().size() - 1);
            assertThat(e.rule()).as("entry %s", e).matches("[ABGRCO][0-9]+");
            assertThat(e.reason()).as("entry %s", e).isNotBlank();
        }
        for (int i = 0; i < messages.size(); i++) {
            if (!(messages.get(i) instanceof AssistantMessage a)) {
                continue;
            }
            for (int p = 0; p < a.parts().size(); p++) {
                Part part = a.parts().get(p);
                assertThat(count(plan, i, p, "reasoning")).as("reasoning entries of %d/%d", i, p)
                        .isEqualTo(part instanceof ReasoningPart ? 1 : 0);
                for (Seal.Kind kind : Seal.Kind.values()) {
                    assertThat(count(plan, i, p, value(kind))).as("%s entries of %d/%d", kind, i, p)
                            .isEqualTo(part.seals().get(kind) != null ? 1 : 0);
                }
                assertThat(count(plan, i, p, "server tool")).as("server tool entries of %d/%d", i, p)
                        .isLessThanOrEqualTo(part instanceof ServerToolPart ? 1 : 0);
            }
        }
    }

    private static long count(SendBackPlan plan, int turn, int part, String value) {
        return plan.entries().stream().filter(e -> e.turn() == turn && e.part() == part && e.value().equals(value)
                && e.action() != PlanAction.PLACEHOLDER).count();
    }

    private static String value(Seal.Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** Every entry agrees with the encoded body. */
    public static void assertAgrees(ChatRequest prepared, SendBackPlan plan, String body) {
        JsonNode tree = JSON.readTree(body);
        List<String> strings = new ArrayList<>();
        strings(tree, strings);
        Set<String> keptValues = new HashSet<>();
        Set<String> keptTexts = new HashSet<>();
        for (PlanEntry e : plan.entries()) {
            Part part = part(prepared, e);
            if (e.action() == PlanAction.DROP || e.action() == PlanAction.STRIP || e.action() == PlanAction.PLACEHOLDER) {
                continue;
            }
            if (e.value().equals("reasoning")) {
                keptTexts.add(((ReasoningPart) part).text());
            } else if (!e.value().equals("server tool")) {
                keptValues.add(sealValue(part, e.value()));
            }
        }
        for (PlanEntry e : plan.entries()) {
            Part part = part(prepared, e);
            boolean sent = e.action() != PlanAction.DROP && e.action() != PlanAction.STRIP;
            switch (e.value()) {
                case "reasoning" -> {
                    String text = ((ReasoningPart) part).text();
                    if (sent && !text.isEmpty()) {
                        assertThat(strings).as("%s: the body holds the reasoning", e).anyMatch(s -> s.contains(text));
                    } else if (!sent && text.length() >= DISTINCT_TEXT && keptTexts.stream().noneMatch(k -> k.contains(text))) {
                        assertThat(strings).as("%s: the body does not hold the reasoning", e).noneMatch(s -> s.contains(text));
                    }
                }
                case "server tool" -> {
                    JsonNode block = JSON.readTree(((ServerToolPart) part).json());
                    assertThat(contains(tree, block)).as("%s: the body holds the block", e).isEqualTo(sent);
                }
                default -> {
                    if (e.action() == PlanAction.PLACEHOLDER) {
                        assertThat(strings).as("%s", e).contains("skip_thought_signature_validator");
                        continue;
                    }
                    String v = sealValue(part, e.value());
                    if (sent) {
                        assertThat(strings).as("%s: the body holds the value byte for byte", e).contains(v);
                    } else if (!keptValues.contains(v)) {
                        assertThat(strings).as("%s: the body does not hold the value", e).doesNotContain(v);
                    }
                }
            }
        }
    }

    private static Part part(ChatRequest prepared, PlanEntry e) {
        return ((AssistantMessage) prepared.messages().get(e.turn())).parts().get(e.part());
    }

    private static String sealValue(Part part, String value) {
        for (Seal.Kind kind : Seal.Kind.values()) {
            if (value(kind).equals(value)) {
                String v = part.seals().get(kind);
                assertThat(v).as("the part has a %s", value).isNotNull();
                return v;
            }
        }
        throw new AssertionError("unknown value " + value);
    }

    private static void strings(JsonNode node, List<String> out) {
        if (node.isString()) {
            out.add(node.stringValue());
        }
        for (JsonNode child : node) {
            strings(child, out);
        }
    }

    private static boolean contains(JsonNode node, JsonNode wanted) {
        if (node.equals(wanted)) {
            return true;
        }
        for (JsonNode child : node) {
            if (contains(child, wanted)) {
                return true;
            }
        }
        return false;
    }
}
