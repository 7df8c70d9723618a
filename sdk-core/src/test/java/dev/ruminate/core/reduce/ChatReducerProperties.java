package dev.ruminate.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ChatReducerProperties {

    /** A part as generated: its kind and its whole text. */
    record GenPart(int kind, String text) {
    }

    static LongStream seeds() {
        return Seeds.of(300);
    }

    private static final String ALPHABET = " abcdefghijklmnopqrstuvwxyz{}[]\":,0123456789\né€😀";

    static List<GenPart> parts(Random random) {
        int count = 1 + random.nextInt(8);
        List<GenPart> parts = new ArrayList<>(count);
        int[] codePoints = ALPHABET.codePoints().toArray();
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(41);
            for (int j = 0; j < length; j++) {
                text.appendCodePoint(codePoints[random.nextInt(codePoints.length)]);
            }
            parts.add(new GenPart(random.nextInt(3), text.toString()));
        }
        return parts;
    }

    /**
     * Whatever the fragmenting of each part, and however fragments of different parts interleave
     * (as parallel tool calls do), each part reduces to its whole text, in part-index order.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void partsReduceToTheirTextWhateverTheFragmentingAndInterleaving(long seed) {
        Random random = Seeds.random(seed);
        List<GenPart> parts = parts(random);
        List<List<ChatEvent>> perPart = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            perPart.add(fragments(i, parts.get(i), random));
        }
        List<ChatEvent> events = new ArrayList<>();
        events.add(new ResponseStarted("p", null, null));
        // A random merge of the per-part fragment sequences: each part's own order is kept, parts interleave freely.
        int[] next = new int[parts.size()];
        int remaining = perPart.stream().mapToInt(List::size).sum();
        while (remaining > 0) {
            int pick = random.nextInt(parts.size());
            if (next[pick] < perPart.get(pick).size()) {
                events.add(perPart.get(pick).get(next[pick]++));
                remaining--;
            }
        }
        events.add(new ResponseCompleted(FinishReason.STOP, null));

        List<Part> reduced = ChatReducer.defaults().reduce(reactor.core.publisher.Flux.fromIterable(events))
                .block().message().parts();
        // a text or reasoning part with empty text (and no seal) is left out of the message
        List<GenPart> kept = parts.stream().filter(g -> g.kind() > 1 || !g.text().isEmpty()).toList();
        assertThat(reduced).hasSize(kept.size());
        for (int i = 0; i < kept.size(); i++) {
            GenPart g = kept.get(i);
            Part p = reduced.get(i);
            switch (g.kind()) {
                case 0 -> assertThat(((ReasoningPart) p).text()).isEqualTo(g.text());
                case 1 -> assertThat(((TextPart) p).text()).isEqualTo(g.text());
                default -> assertThat(((ToolCallPart) p).arguments()).isEqualTo(g.text());
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void snapshotOfTheLastEventEqualsTheFinalMessage(long seed) {
        Random random = Seeds.random(seed);
        List<GenPart> parts = parts(random);
        List<ChatEvent> events = new ArrayList<>();
        events.add(new ResponseStarted("p", "m", null));
        for (int i = 0; i < parts.size(); i++) {
            events.addAll(fragments(i, parts.get(i), random));
        }
        events.add(new ResponseCompleted(FinishReason.STOP, null));
        var flux = reactor.core.publisher.Flux.fromIterable(events);
        ChatSnapshot last = ChatReducer.defaults().snapshots(flux).blockLast();
        var result = ChatReducer.defaults().reduce(flux).block();
        // Tool-call validity is judged only at the end; compare the rest.
        assertThat(last.message().text()).isEqualTo(result.message().text());
        assertThat(last.message().reasoning()).isEqualTo(result.message().reasoning());
        assertThat(last.message().parts()).hasSameSizeAs(result.message().parts());
    }

    private static List<ChatEvent> fragments(int part, GenPart g, Random random) {
        List<ChatEvent> out = new ArrayList<>();
        String t = g.text();
        int i = 0;
        boolean first = true;
        do {
            int end = Math.min(t.length(), i + random.nextInt(6));
            String frag = t.substring(i, end);
            out.add(switch (g.kind()) {
                case 0 -> new ReasoningDelta(part, frag, false, "reasoning_content");
                case 1 -> new ContentDelta(part, frag);
                default -> new ToolCallDelta(part, part, first ? "id" + part : null, first ? "fn" : null, frag);
            });
            first = false;
            i = end;
        } while (i < t.length());
        return out;
    }
}
