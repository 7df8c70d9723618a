package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.json.SseFrame;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.providers.testing.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * Random event streams (reasoning, summaries, text and tool calls, interleaved, with and without
 * final reasoning views, part ends, seals and usage) survive encoding as a Responses stream and
 * decoding with Ruminate's Responses decoder: the reduced messages are equal part for part.
 */
class ResponsesEncoderProperties {

    private static final String[] PIECES = {"a", " ", "\n", "\"", "\\", "é", "😀", "{", "}", "<think>", "\u2028", ""};

    static LongStream seeds() {
        return Seeds.of(300);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomStreamsReduceToTheSameMessage(long seed) {
        Random random = Seeds.random(seed);
        List<ChatEvent> events = stream(random);
        ChatResult want = ResponsesEncoderRoundTripTest.reduce(Flux.fromIterable(events));
        List<SseFrame> frames = ResponsesStreamEncoder.encode(Flux.fromIterable(events),
                ResponsesEncoderRoundTripTest.exact("resp_p", 0L, "m")).collectList().block(Duration.ofSeconds(10));
        assertThat(frames).isNotNull();
        for (int i = 0; i < frames.size(); i++) {
            assertThat(frames.get(i).data()).contains("\"sequence_number\":" + i + ",");
        }
        ChatResult got = ResponsesEncoderRoundTripTest.reduce(ResponsesStreamEncoderTest.decode(frames));
        assertThat(ResponsesEncoderRoundTripTest.visible(got.message())).as("events %s", events)
                .isEqualTo(ResponsesEncoderRoundTripTest.visible(want.message()));
        ResponsesEncoderRoundTripTest.assertSameCallIds(got.message(), want.message());
        assertThat(got.message().usage()).isEqualTo(ResponsesEncoderRoundTripTest.zeroed(want.message().usage()));
        if (want.message().finishReason() == FinishReason.LENGTH) {
            assertThat(got.message().finishReason()).isEqualTo(FinishReason.LENGTH);
        }
    }

    private static List<ChatEvent> stream(Random random) {
        List<ChatEvent> out = new ArrayList<>();
        out.add(new ResponseStarted("p", "m", null));
        int parts = random.nextInt(6);
        // each open part: its kind (0 reasoning, 1 summary, 2 text, 3 call) and its text so far
        List<int[]> open = new ArrayList<>();
        List<StringBuilder> texts = new ArrayList<>();
        int next = 0;
        while (next < parts || !open.isEmpty()) {
            // parts are numbered in order of their first event, as the event model requires; a
            // part's first fragment carries text (a part opened empty is numbered before it says anything)
            boolean start = next < parts && (open.isEmpty() || random.nextInt(3) == 0);
            if (start) {
                open.add(new int[] {next++, random.nextInt(4)});
                texts.add(new StringBuilder());
            }
            int pick = start ? open.size() - 1 : random.nextInt(open.size());
            int[] p = open.get(pick);
            StringBuilder text = texts.get(pick);
            String fragment = start ? "x" + fragment(random) : fragment(random);
            switch (p[1]) {
                case 0, 1 -> out.add(new ReasoningDelta(p[0], fragment, p[1] == 1, "x"));
                case 2 -> out.add(new ContentDelta(p[0], fragment));
                default -> out.add(new ToolCallDelta(p[0], p[0], text.length() == 0 && random.nextBoolean() ? "call_" + p[0] : null,
                        text.length() == 0 ? "tool" + p[0] : null, fragment));
            }
            text.append(fragment);
            if (random.nextInt(3) == 0) {
                if (p[1] <= 1 && random.nextBoolean()) {
                    // the provider's final view: usually the same text, sometimes not
                    out.add(new ReasoningFinal(p[0], random.nextInt(4) == 0 ? text + "!" : text.toString()));
                }
                if (random.nextInt(4) == 0) {
                    out.add(new Seal(p[0], Seal.Kind.SIGNATURE, "sig"));
                }
                if (random.nextBoolean()) {
                    out.add(new PartEnded(p[0]));
                }
                open.remove(pick);
                texts.remove(pick);
            }
        }
        if (random.nextBoolean()) {
            out.add(new UsageUpdate(new Usage(random.nextBoolean() ? 7L : null, 9L, random.nextBoolean() ? 3L : null, null)));
        }
        FinishReason[] reasons = {FinishReason.STOP, FinishReason.TOOL_CALLS, FinishReason.LENGTH, FinishReason.OTHER};
        out.add(new ResponseCompleted(reasons[random.nextInt(reasons.length)], null));
        return out;
    }

    private static String fragment(Random random) {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }
}
