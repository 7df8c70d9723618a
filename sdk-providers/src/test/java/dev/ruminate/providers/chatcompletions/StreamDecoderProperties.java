package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.transport.wire.SseEvent;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

/**
 * Random streams of reasoning, text, tool-call and no-op chunks: the decoded parts must be exactly
 * the runs a simple model of the stream predicts, with every text concatenated in order and nothing
 * doubled or lost.
 */
class StreamDecoderProperties {

    /** Escapes and multi-byte characters, drawn one time in four; printable ASCII otherwise. */
    private static final char[] SPECIAL = {'é', '漢', '\n', '"', '\\', '\t'};

    enum Step { REASONING, DUPLICATED_REASONING, CONTENT, TOOL_START, TOOL_ARGS, NOISE }

    record Action(Step step, String text) {
    }

    static LongStream seeds() {
        return Seeds.of(200);
    }

    /** Returns 0 to 40 actions (uniformly many), each of a random step with a text of 0 to 6 characters. */
    static List<Action> stream(Random random) {
        Step[] steps = Step.values();
        int count = random.nextInt(41);
        List<Action> actions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            actions.add(new Action(steps[random.nextInt(steps.length)], text(random)));
        }
        return actions;
    }

    private static String text(Random random) {
        char[] text = new char[random.nextInt(7)];
        for (int i = 0; i < text.length; i++) {
            text[i] = random.nextInt(4) == 0 ? SPECIAL[random.nextInt(SPECIAL.length)] : (char) (' ' + random.nextInt('~' - ' ' + 1));
        }
        return new String(text);
    }

    /** The SSE events of a random stream and the parts a simple model of it predicts, as {kind, text}. */
    record Encoded(List<SseEvent> events, List<String[]> expected) {
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void partsAreTheRunsOfTheStream(long seed) {
        Encoded encoded = encode(stream(Seeds.random(seed)));
        List<String[]> expected = encoded.expected();

        Folded f = Fixtures.stream(Profiles.CHUTES, encoded.events()).folded();

        assertThat(f.parts).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(f.parts.get(i).kind.name().toLowerCase(java.util.Locale.ROOT)).isEqualTo(expected.get(i)[0]);
            assertThat(f.parts.get(i).text()).isEqualTo(expected.get(i)[1]);
        }
        assertThat(f.completed).isNotNull();
    }

    /**
     * A server that omits the blank lines between events has runs of them joined into one event,
     * their data lines separated by line feeds (the last run may end with {@code [DONE]}): the
     * decoded events must be the same as for separate events.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void eventsJoinedIntoOneDecodeAsTheyWouldApart(long seed) {
        Random random = Seeds.random(seed);
        List<SseEvent> apart = encode(stream(random)).events();
        List<SseEvent> joined = new ArrayList<>();
        for (int i = 0; i < apart.size(); ) {
            int run = 1 + random.nextInt(4);
            StringBuilder data = new StringBuilder();
            for (int k = i; k < Math.min(i + run, apart.size()); k++) {
                data.append(k == i ? "" : "\n").append(apart.get(k).dataAsString());
            }
            add(joined, data.toString());
            i += run;
        }

        List<ChatEvent> expected = Fixtures.stream(Profiles.CHUTES, apart).folded().events;
        assertThat(Fixtures.stream(Profiles.CHUTES, joined).folded().events).isEqualTo(expected);
    }

    private static Encoded encode(List<Action> actions) {
        List<SseEvent> events = new ArrayList<>();
        List<String[]> expected = new ArrayList<>();
        Map<Integer, Integer> toolPart = new HashMap<>();
        String current = null;
        int tools = 0;
        for (Action a : actions) {
            String identity;
            switch (a.step()) {
                case REASONING -> {
                    add(events, delta(g -> g.writeStringProperty("reasoning_content", a.text())));
                    identity = a.text().isEmpty() ? null : "reasoning";
                }
                case DUPLICATED_REASONING -> {
                    add(events, delta(g -> {
                        g.writeStringProperty("reasoning", a.text());
                        g.writeStringProperty("reasoning_content", a.text());
                    }));
                    identity = a.text().isEmpty() ? null : "reasoning";
                }
                case CONTENT -> {
                    add(events, delta(g -> g.writeStringProperty("content", a.text())));
                    identity = a.text().isEmpty() ? null : "text";
                }
                case TOOL_START -> {
                    int index = tools++;
                    add(events, delta(g -> {
                        g.writeArrayPropertyStart("tool_calls");
                        g.writeStartObject();
                        g.writeNumberProperty("index", index);
                        g.writeStringProperty("id", "call_" + index);
                        g.writeObjectPropertyStart("function");
                        g.writeStringProperty("name", "f" + index);
                        g.writeStringProperty("arguments", a.text());
                        g.writeEndObject();
                        g.writeEndObject();
                        g.writeEndArray();
                    }));
                    identity = "tool" + index;
                }
                case TOOL_ARGS -> {
                    if (tools == 0 || a.text().isEmpty()) {
                        identity = null;
                    } else {
                        int index = tools - 1;
                        add(events, delta(g -> {
                            g.writeArrayPropertyStart("tool_calls");
                            g.writeStartObject();
                            g.writeNumberProperty("index", index);
                            g.writeObjectPropertyStart("function");
                            g.writeStringProperty("arguments", a.text());
                            g.writeEndObject();
                            g.writeEndObject();
                            g.writeEndArray();
                        }));
                        identity = "tool" + index;
                    }
                }
                default -> {
                    add(events, delta(g -> {
                        g.writeNullProperty("content");
                        g.writeStringProperty("reasoning_content", "");
                        g.writeNullProperty("tool_calls");
                    }));
                    identity = null;
                }
            }
            if (identity == null) {
                continue;
            }
            String[] part;
            if (identity.startsWith("tool")) {
                int index = Integer.parseInt(identity.substring(4));
                Integer existing = toolPart.get(index);
                if (existing == null) {
                    toolPart.put(index, expected.size());
                    expected.add(new String[] {"tool", ""});
                }
                part = expected.get(toolPart.get(index));
            } else if (identity.equals(current)) {
                part = expected.get(expected.size() - 1);
            } else {
                part = new String[] {identity, ""};
                expected.add(part);
            }
            part[1] += a.text();
            current = identity;
        }
        add(events, "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}");
        add(events, "[DONE]");
        return new Encoded(events, expected);
    }

    private static void add(List<SseEvent> events, String json) {
        events.add(new SseEvent("message", json.getBytes(StandardCharsets.UTF_8), null, events.size() * 2L + 1, -1));
    }

    private static String delta(Consumer<JsonGenerator> fields) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = ChunkParser.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
            g.writeStartObject();
            g.writeArrayPropertyStart("choices");
            g.writeStartObject();
            g.writeNumberProperty("index", 0);
            g.writeObjectPropertyStart("delta");
            fields.accept(g);
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
        return out.toString();
    }
}
