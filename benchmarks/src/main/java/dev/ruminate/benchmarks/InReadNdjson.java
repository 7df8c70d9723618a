package dev.ruminate.benchmarks;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.Reduction;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ollama.OllamaCodec;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.wire.BenchmarkLines;
import dev.ruminate.transport.wire.JsonLine;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Ollama NDJSON framed and decoded inside each read, without a {@code Flux}: every line a buffer
 * completes is decoded before the next buffer is read, as the provider's stream path does with lent
 * frames. Lent or owning lines, so that the two framings compare in the same harness.
 */
final class InReadNdjson {

    private static final ChatReducer REDUCER = ChatReducer.defaults();
    private static final OllamaCodec CODEC = OllamaCodec.chat(OllamaProvider.NAME);
    private static final ChatRequest REQUEST = ChatRequest.builder("qwen3:8b").user("hi").build();

    private InReadNdjson() {
    }

    /** Framing alone: counts the lines. */
    static long frame(ByteBuf[] pieces, boolean lend) {
        BenchmarkLines framer = BenchmarkLines.create(lend);
        List<JsonLine> lines = new ArrayList<>();
        long count = 0;
        for (ByteBuf piece : pieces) {
            framer.feed(piece, lines);
            count += lines.size();
            lines.clear();
        }
        framer.finish(lines);
        return count + lines.size();
    }

    /** Framing, the Ollama decoder and the reducer, each line decoded in the read that completes it. */
    static ChatResult decodeReduce(ByteBuf[] pieces, boolean lend) {
        BenchmarkLines framer = BenchmarkLines.create(lend);
        StreamDecoder<JsonLine> decoder = CODEC.newStreamDecoder(REQUEST);
        Reduction reduction = REDUCER.start();
        List<JsonLine> lines = new ArrayList<>();
        List<ChatEvent> events = new ArrayList<>();
        for (ByteBuf piece : pieces) {
            framer.feed(piece, lines);
            decode(decoder, lines, events, reduction);
        }
        framer.finish(lines);
        decode(decoder, lines, events, reduction);
        decoder.end(events);
        events.forEach(reduction::accept);
        return reduction.finish();
    }

    private static void decode(StreamDecoder<JsonLine> decoder, List<JsonLine> lines, List<ChatEvent> events,
                               Reduction reduction) {
        for (int i = 0; i < lines.size(); i++) {
            decoder.decode(lines.get(i), events);
            for (int j = 0; j < events.size(); j++) {
                reduction.accept(events.get(j));
            }
            events.clear();
        }
        lines.clear();
    }
}
