package dev.ruminate.providers.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.providers.testing.Folded;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Flux;

/** Runs recordings through the Responses codec, and the assertions the recording tests share. */
final class Responses {

    /** Every Responses recording: all of {@code openai-responses/}, and the Responses-shaped ones elsewhere. */
    static final List<String> STREAMS = streams();
    static final List<String> BODIES = bodies();

    private Responses() {
    }

    private static List<String> streams() {
        List<String> all = new ArrayList<>(Recorded.under("openai-responses", ".sse"));
        all.addAll(Recorded.under("deepseek", ".sse").stream().filter(p -> p.contains("-responses-")).toList());
        all.addAll(Recorded.under("xai", ".sse").stream().filter(p -> p.contains("-responses-")).toList());
        return List.copyOf(all);
    }

    private static List<String> bodies() {
        List<String> all = new ArrayList<>(Recorded.under("openai-responses", ".json"));
        all.addAll(Recorded.under("deepseek", ".json").stream().filter(p -> p.contains("-responses-")).toList());
        return List.copyOf(all);
    }

    /** The profile a recording was made against. */
    static ResponsesProfile profileOf(String path) {
        if (path.startsWith("deepseek/")) {
            return ResponsesProfiles.DEEPSEEK;
        }
        if (path.startsWith("xai/")) {
            return ResponsesProfiles.XAI;
        }
        if (path.contains("lmstudio")) {
            return ResponsesProfiles.LMSTUDIO;
        }
        if (path.contains("azure")) {
            return ResponsesProfiles.AZURE;
        }
        return ResponsesProfiles.OPENAI;
    }

    static Outcome stream(String path) {
        return stream(profileOf(path), Recorded.sse(path));
    }

    static Outcome stream(ResponsesProfile profile, List<SseEvent> events) {
        return Recorded.run(Flux.fromIterable(events).transform(ResponsesCodec.streamDecoder(profile)));
    }

    static Outcome body(String path) {
        return Recorded.run(ResponsesCodec.decodeResponse(profileOf(path), Recorded.bytes(path)));
    }

    static ChatResult reduce(List<ChatEvent> events) {
        ChatResult result = ChatReducer.defaults().reduce(Flux.fromIterable(events)).block(Duration.ofSeconds(10));
        assertThat(result).isNotNull();
        return result;
    }

    /**
     * Splits a recording that holds several responses one after another (a multi-turn capture) at
     * each {@code response.created}.
     */
    static List<List<SseEvent>> responses(List<SseEvent> events) {
        List<List<SseEvent>> all = new ArrayList<>();
        for (SseEvent e : events) {
            if ("response.created".equals(e.type()) || all.isEmpty()) {
                all.add(new ArrayList<>());
            }
            all.get(all.size() - 1).add(e);
        }
        return all;
    }

    static void assertText(String actual, int codePoints, String start, String end) {
        assertThat(Folded.codePoints(actual)).as("length in code points").isEqualTo(codePoints);
        assertThat(actual).startsWith(start).endsWith(end);
    }

    /** Asserts a reasoning part: its text, summary flag and source, and that its final view matched. */
    static void assertReasoning(Folded.PartView p, boolean summary, int codePoints, String start, String end) {
        assertThat(p.kind).isEqualTo(Folded.Kind.REASONING);
        assertText(p.text(), codePoints, start, end);
        assertThat(p.summary).as("summary flag").isEqualTo(summary);
        assertThat(p.sources).containsExactly(summary ? "summary_text" : "reasoning_text");
        assertThat(p.finalText).as("ReasoningFinal").isEqualTo(p.text());
    }

    /**
     * Asserts that a value is the {@code encrypted_content} of the item's {@code output_item.done}
     * in the recording, byte for byte, and not the one of its {@code output_item.added}.
     */
    static void assertEncryptedFromDone(String path, String itemId, String value) {
        String needle = "\"encrypted_content\":\"" + value + "\"";
        boolean inDone = false;
        for (String line : Recorded.text(path).split("\n")) {
            if (!line.startsWith("data:") || !line.contains("\"id\":\"" + itemId + "\"")) {
                continue;
            }
            if (line.contains("\"type\":\"response.output_item.done\"")) {
                inDone |= line.contains(needle);
            } else if (line.contains("\"type\":\"response.output_item.added\"")) {
                assertThat(line).as("the blob of output_item.added").doesNotContain(needle);
            }
        }
        assertThat(inDone).as("encrypted_content of output_item.done for " + itemId).isTrue();
    }

    /** Asserts that a block's JSON is the item of the recording's {@code output_item.done}, byte for byte. */
    static void assertBlockFromDone(String path, Folded.PartView p, String type, String id) {
        assertThat(p.kind).isEqualTo(Folded.Kind.SERVER_TOOL);
        assertThat(p.blockType).isEqualTo(type);
        assertThat(p.toolId).isEqualTo(id);
        String json = p.blockJson;
        assertThat(json).startsWith("{").endsWith("}").contains("\"id\":\"" + id + "\"");
        boolean found = false;
        for (String line : Recorded.text(path).split("\n")) {
            if (line.contains("\"type\":\"response.output_item.done\"") && line.contains("\"item\":" + json)) {
                found = true;
            }
        }
        assertThat(found).as("block JSON appears verbatim in output_item.done").isTrue();
    }
}
