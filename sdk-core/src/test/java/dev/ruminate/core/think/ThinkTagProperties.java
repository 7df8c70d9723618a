package dev.ruminate.core.think;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.testing.Seeds;
import dev.ruminate.core.think.SplitOutput.OutPart;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * Random responses with think blocks, rendered into one content string and cut into random
 * fragments: the split must not depend on where the cuts fall, and must give back the segments.
 */
class ThinkTagProperties {

    private static final String OPEN = ThinkTagOptions.DEFAULT.openTag();
    private static final String CLOSE = ThinkTagOptions.DEFAULT.closeTag();

    /**
     * A response: segments alternating between reasoning and answer text, the first one reasoning
     * when {@code startInside}; the last reasoning block is left open when {@code unclosed}.
     */
    record Response(List<String> segments, boolean startInside, boolean unclosed, List<Integer> cuts) {

        boolean isReasoning(int segment) {
            return (segment % 2 == 0) == startInside;
        }

        ThinkTagOptions options() {
            return startInside ? ThinkTagOptions.startingInside() : ThinkTagOptions.DEFAULT;
        }

        String rendered() {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < segments.size(); i++) {
                boolean last = i == segments.size() - 1;
                if (isReasoning(i)) {
                    if (i > 0 || !startInside) {
                        text.append(OPEN);
                    }
                    text.append(segments.get(i));
                    if (!(last && unclosed)) {
                        text.append(CLOSE);
                    }
                } else {
                    text.append(segments.get(i));
                }
            }
            return text.toString();
        }

        /** The rendered text cut after each of the fragment lengths in turn; the rest is the last fragment. */
        List<String> fragments() {
            String text = rendered();
            List<String> fragments = new ArrayList<>();
            int at = 0;
            for (int length : cuts) {
                int end = Math.min(text.length(), at + length);
                fragments.add(text.substring(at, end));
                at = end;
            }
            fragments.add(text.substring(at));
            return fragments;
        }

        /** The reference model: non-empty segments, adjacent ones of one kind joined. */
        List<OutPart> expectedParts() {
            List<OutPart> parts = new ArrayList<>();
            for (int i = 0; i < segments.size(); i++) {
                String text = segments.get(i);
                if (text.isEmpty()) {
                    continue;
                }
                String kind = isReasoning(i) ? "reasoning" : "text";
                int last = parts.size() - 1;
                if (last >= 0 && parts.get(last).kind().equals(kind)) {
                    parts.set(last, new OutPart(kind, parts.get(last).text() + text));
                } else {
                    parts.add(new OutPart(kind, text));
                }
            }
            return parts;
        }
    }

    static LongStream seeds() {
        return Seeds.of(300);
    }

    static Response response(Random random) {
        boolean startInside = random.nextBoolean();
        boolean unclosed = random.nextBoolean();
        int count = random.nextInt(7);
        List<String> segments = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean reasoning = (i % 2 == 0) == startInside;
            // Only the tag looked for in a mode ends it; the other one is ordinary text there.
            segments.add(withoutTag(tokens(random, 10), reasoning ? CLOSE : OPEN));
        }
        List<Integer> cuts = new ArrayList<>();
        int cutCount = random.nextInt(61);
        for (int i = 0; i < cutCount; i++) {
            cuts.add(random.nextInt(11));
        }
        return new Response(segments, startInside, unclosed, cuts);
    }

    private static final String[] PLAIN = {"a", "b", " ", "\n", "\n\n", "x y", "é", "日本", "😀", "> quote", "a < b", "<br/>"};
    private static final String[] NEAR = {"<", ">", "/", "<t", "<th", "<thin", "<think", "</", "</t", "</thin", "</think",
        "think>", "hink>", "k>", "<thinking>", "</thinker>", "< think>", "<Think>", OPEN, CLOSE};

    /** Up to {@code max} text pieces joined: plain, multi-byte, Markdown-ish, and near misses of both tags, the tags included. */
    private static String tokens(Random random, int max) {
        StringBuilder text = new StringBuilder();
        int count = random.nextInt(max + 1);
        for (int i = 0; i < count; i++) {
            String[] pool = random.nextBoolean() ? PLAIN : NEAR;
            text.append(pool[random.nextInt(pool.length)]);
        }
        return text.toString();
    }

    /** Removes every occurrence of the tag, even one made by joining tokens, by breaking it with a space. */
    private static String withoutTag(String text, String tag) {
        String broken = tag.substring(0, tag.length() - 1) + " " + tag.substring(tag.length() - 1);
        String result = text;
        while (result.contains(tag)) {
            result = result.replace(tag, broken);
        }
        return result;
    }

    private static List<ChatEvent> split(ThinkTagOptions options, List<String> fragments) {
        List<ChatEvent> events = new ArrayList<>();
        for (String fragment : fragments) {
            events.add(new ContentDelta(0, fragment));
        }
        events.add(new ResponseCompleted(FinishReason.STOP, null));
        return Flux.fromIterable(events).transform(ThinkTags.splitter(options)).collectList().block();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void theOutputDoesNotDependOnTheSplitPoints(long seed) {
        Response response = response(Seeds.random(seed));
        List<ChatEvent> whole = split(response.options(), List.of(response.rendered()));
        List<ChatEvent> fragmented = split(response.options(), response.fragments());

        assertThat(SplitOutput.reasoning(fragmented)).isEqualTo(SplitOutput.reasoning(whole));
        assertThat(SplitOutput.content(fragmented)).isEqualTo(SplitOutput.content(whole));
        assertThat(SplitOutput.parts(fragmented)).isEqualTo(SplitOutput.parts(whole));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void theOutputGivesBackTheSegments(long seed) {
        Response response = response(Seeds.random(seed));
        List<ChatEvent> out = split(response.options(), response.fragments());

        List<OutPart> expected = response.expectedParts();
        assertThat(SplitOutput.parts(out)).isEqualTo(expected);
        assertThat(SplitOutput.reasoning(out)).isEqualTo(joined(expected, "reasoning"));
        assertThat(SplitOutput.content(out)).isEqualTo(joined(expected, "text"));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void theOutputPartsAreDenseAndOfOneKindEvenWithAccidentalTags(long seed) {
        Random random = Seeds.random(seed);
        boolean startInside = random.nextBoolean();
        List<String> fragments = accidental(random);
        ThinkTagOptions options = startInside ? ThinkTagOptions.startingInside() : ThinkTagOptions.DEFAULT;
        List<ChatEvent> out = split(options, fragments);

        SplitOutput.assertWellFormed(out);
        assertThat(out).last().isInstanceOf(ResponseCompleted.class);
        String all = String.join("", fragments);
        assertThat(SplitOutput.reasoning(out).length() + SplitOutput.content(out).length())
                .as("only tags are removed").isLessThanOrEqualTo(all.length());
        assertThat(SplitOutput.parts(out)).allSatisfy(part -> assertThat(part.text()).isNotEmpty());
    }

    /** Fragments of tokens joined freely, so that tags form anywhere, whole or across fragments. */
    private static List<String> accidental(Random random) {
        List<String> fragments = new ArrayList<>();
        int count = random.nextInt(31);
        for (int i = 0; i < count; i++) {
            fragments.add(tokens(random, 4));
        }
        return fragments;
    }

    private static String joined(List<OutPart> parts, String kind) {
        StringBuilder text = new StringBuilder();
        for (OutPart part : parts) {
            if (part.kind().equals(kind)) {
                text.append(part.text());
            }
        }
        return text.toString();
    }
}
