package dev.ruminate.providers.anthropic;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.providers.testing.Recorded;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Flux;

/** The Anthropic recordings, decoded through the codec alone. */
final class AnthropicRecordings {

    static final String FOLDER = "anthropic";

    private AnthropicRecordings() {
    }

    static List<String> streams() {
        return Recorded.under(FOLDER, ".sse");
    }

    static List<String> bodies() {
        return Recorded.under(FOLDER, ".json");
    }

    /** Decodes a recording, streamed ({@code .sse}) or whole ({@code .json}). */
    static Flux<ChatEvent> decode(String path) {
        return path.endsWith(".sse")
                ? Flux.fromIterable(Recorded.sse(path)).transform(AnthropicCodec.streamDecoder())
                : AnthropicCodec.decodeMessage(Recorded.bytes(path));
    }

    static Recorded.Outcome run(String path) {
        return Recorded.run(decode(path));
    }

    static ChatResult reduce(Flux<ChatEvent> events) {
        return Objects.requireNonNull(ChatReducer.defaults().reduce(events).block(Duration.ofSeconds(30)));
    }
}
