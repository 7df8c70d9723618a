package dev.ruminate.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.core.think.ThinkTags;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import reactor.core.publisher.Flux;

/**
 * Fuzzes the think-tag splitter ({@link ThinkTags#splitter}): any model text, cut into content
 * deltas anywhere (inside a tag, between the two halves of a surrogate pair), with reasoning deltas
 * of another part in between, is split without an exception; the reasoning and the answer text it
 * gives do not depend on the cuts; and the output parts are numbered densely in order of appearance.
 *
 * <p>Input: byte 0 picks the tags (mod 4: the default, starting inside, {@code <reasoning>}, or
 * one- and two-character tags, {@code <} and {@code <<}, which overlap with the text), byte 1 the
 * largest delta (1 to 64 chars), byte 2 seeds the cuts, byte 3 odd ends the upstream with an error
 * instead of {@code response.completed}; the rest is the text, as UTF-8.
 */
class ThinkTagSplitterFuzzTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        byte[] header = Arrays.copyOf(data, 4);
        String text = new String(data, Math.min(4, data.length), Math.max(0, data.length - 4), StandardCharsets.UTF_8);
        ThinkTagOptions options = switch (header[0] & 3) {
            case 0 -> ThinkTagOptions.DEFAULT;
            case 1 -> ThinkTagOptions.startingInside();
            case 2 -> new ThinkTagOptions("<reasoning>", "</reasoning>", false);
            default -> new ThinkTagOptions("<", "<<", (header[0] & 4) != 0);
        };
        boolean failUpstream = (header[3] & 1) == 1;
        Texts whole = split(options, List.of(text), failUpstream);
        Texts cut = split(options, cut(text, 1 + (header[1] & 0x3f), header[2]), failUpstream);
        if (!whole.equals(cut)) {
            throw new AssertionError("the split depends on the deltas:\nwhole: " + whole + "\ncut:   " + cut);
        }
    }

    /** The reasoning and the answer, each joined. */
    record Texts(String reasoning, String content) {
    }

    private static Texts split(ThinkTagOptions options, List<String> deltas, boolean failUpstream) {
        List<ChatEvent> in = new ArrayList<>();
        for (int i = 0; i < deltas.size(); i++) {
            in.add(new ContentDelta(0, deltas.get(i)));
            if (i % 3 == 1) {
                in.add(new ReasoningDelta(1, "r" + i, false, "reasoning_content"));
            }
        }
        Flux<ChatEvent> upstream = Flux.fromIterable(in);
        upstream = failUpstream ? upstream.concatWith(Flux.error(new IllegalStateException("cut")))
                : upstream.concatWith(Flux.just(new ResponseCompleted(FinishReason.STOP, "stop")));
        List<ChatEvent> out = new ArrayList<>();
        try {
            upstream.transform(ThinkTags.splitter(options)).doOnNext(out::add).blockLast(WAIT);
        } catch (IllegalStateException e) {
            if (!failUpstream || !"cut".equals(e.getMessage())) {
                throw e;
            }
        }
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        int nextPart = 0;
        for (ChatEvent e : out) {
            int part = part(e);
            if (part > nextPart) {
                throw new AssertionError("part " + part + " before part " + nextPart + " in " + out);
            }
            nextPart = Math.max(nextPart, part + 1);
            if (e instanceof ReasoningDelta r && "tags".equals(r.source())) {
                reasoning.append(r.text());
            } else if (e instanceof ContentDelta c) {
                content.append(c.text());
            }
        }
        return new Texts(reasoning.toString(), content.toString());
    }

    private static int part(ChatEvent e) {
        if (e instanceof ReasoningDelta r) {
            return r.part();
        }
        if (e instanceof ContentDelta c) {
            return c.part();
        }
        if (e instanceof dev.ruminate.core.event.PartEnded p) {
            return p.part();
        }
        return -1;
    }

    private static List<String> cut(String text, int maxDelta, long seed) {
        Random random = new Random(seed);
        List<String> deltas = new ArrayList<>();
        int at = 0;
        while (at < text.length()) {
            int end = Math.min(text.length(), at + 1 + random.nextInt(maxDelta));
            deltas.add(text.substring(at, end));
            at = end;
        }
        return deltas;
    }
}
