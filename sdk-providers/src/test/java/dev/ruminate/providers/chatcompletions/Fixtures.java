package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.transport.wire.SseEvent;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.providers.testing.Recorded.Outcome;
import java.util.List;
import reactor.core.publisher.Flux;

/** Loads recordings from {@code src/test/resources/fixtures} and runs them through the codec. */
final class Fixtures {

    private Fixtures() {
    }

    static byte[] bytes(String path) {
        return Recorded.bytes(path);
    }

    static List<SseEvent> sse(String path) {
        return Recorded.sse(path);
    }

    /** Decodes a recorded stream; the result holds the events and the error, if the flux failed. */
    static Outcome stream(CompatProfile profile, String path) {
        return run(Flux.fromIterable(sse(path)).transform(ChatCompletionsCodec.streamDecoder(profile)));
    }

    static Outcome stream(CompatProfile profile, List<SseEvent> events) {
        return run(Flux.fromIterable(events).transform(ChatCompletionsCodec.streamDecoder(profile)));
    }

    static Outcome completion(CompatProfile profile, String path) {
        return run(ChatCompletionsCodec.decodeCompletion(profile, bytes(path)));
    }

    static Outcome run(Flux<ChatEvent> flux) {
        return Recorded.run(flux);
    }
}
