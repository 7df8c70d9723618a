package dev.ruminate.core.think;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.think.SplitOutput.OutPart;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Splits a recorded Groq stream of DeepSeek-R1-Distill-Llama-70B with {@code reasoning_format: raw},
 * whose reasoning arrives as {@code <think>…</think>} in {@code delta.content}, each tag a token of its own.
 */
class ThinkTagFixtureTest {

    private static final String FIXTURE = "/fixtures/think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse";

    /** The {@code delta.content} strings of the recorded chunks, in order (a tree per chunk is fine in a test). */
    private static List<String> recordedContent() throws IOException {
        String body;
        try (InputStream in = ThinkTagFixtureTest.class.getResourceAsStream(FIXTURE)) {
            assertThat(in).as(FIXTURE).isNotNull();
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        JsonMapper mapper = JsonMapper.builder().build();
        List<String> contents = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (!line.startsWith("data: ") || line.equals("data: [DONE]")) {
                continue;
            }
            for (JsonNode choice : mapper.readTree(line.substring("data: ".length())).path("choices")) {
                JsonNode content = choice.path("delta").path("content");
                if (content.isString()) {
                    contents.add(content.stringValue());
                }
            }
        }
        return contents;
    }

    private static List<ChatEvent> split(List<String> fragments) {
        List<ChatEvent> events = new ArrayList<>();
        for (String fragment : fragments) {
            events.add(new ContentDelta(0, fragment));
        }
        events.add(new ResponseCompleted(FinishReason.STOP, "stop"));
        return Flux.fromIterable(events).transform(ThinkTags.splitter()).collectList().block();
    }

    @Test
    void splitsTheRecordedReasoningFromTheAnswer() throws IOException {
        List<String> recorded = recordedContent();
        assertThat(recorded).as("the tags arrived as tokens of their own").contains("<think>", "</think>");

        List<ChatEvent> out = split(recorded);
        List<OutPart> parts = SplitOutput.parts(out);

        assertThat(parts).extracting(OutPart::kind).containsExactly("reasoning", "text");
        String reasoning = parts.get(0).text();
        String answer = parts.get(1).text();
        assertThat(reasoning)
                .startsWith("\nOkay, so I want to make Uruguayan alfajores. I've heard they're a type of South American"
                        + " cookie sandwich with dulce de leche.")
                .endsWith("if something doesn't turn out right, I can adjust next time.\n")
                .doesNotContain("<think>", "</think>");
        assertThat(answer)
                .startsWith("\n\nTo make Uruguayan alfajores, follow these organized steps for a delightful cookie"
                        + " sandwich with dulce de leche:\n\n### Ingredients:")
                .endsWith("### Tips:\n- Ensure cookies are completely cool before filling to prevent sogginess.\n"
                        + "- For an extra touch, add a pinch of salt to the dough for flavor balance.\n\n"
                        + "Enjoy your homemade Uruguayan alfajores!")
                .doesNotContain("<think>", "</think>");
        assertThat("<think>" + reasoning + "</think>" + answer).isEqualTo(String.join("", recorded));

        int ended = out.indexOf(new PartEnded(0));
        int firstAnswer = out.indexOf(new ContentDelta(1, "\n\n"));
        assertThat(ended).isNotNegative().isLessThan(firstAnswer);
        assertThat(out).last().isInstanceOf(ResponseCompleted.class);
    }

    @Test
    void splitsTheSameWhenAProxyRechunksTheText() throws IOException {
        List<String> recorded = recordedContent();
        String whole = String.join("", recorded);
        for (int size : new int[] {1, 3, 5, 8, 13}) {
            List<String> rechunked = new ArrayList<>();
            for (int at = 0; at < whole.length(); at += size) {
                rechunked.add(whole.substring(at, Math.min(whole.length(), at + size)));
            }
            assertThat(SplitOutput.parts(split(rechunked))).as("chunks of %d", size)
                    .isEqualTo(SplitOutput.parts(split(recorded)));
        }
    }
}
