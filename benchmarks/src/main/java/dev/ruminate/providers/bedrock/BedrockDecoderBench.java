package dev.ruminate.providers.bedrock;

import dev.ruminate.providers.spi.StreamDecoder;
import dev.ruminate.transport.wire.EventStreamMessage;

/**
 * Benchmark-only access to the package-private {@link BedrockStreamDecoder}, for
 * {@code DecodeBenchmark.bedrockLentDecodeReduce}. Lives in the decoder's package in the benchmarks jar (class path
 * only). Stateless.
 */
public final class BedrockDecoderBench {

    private BedrockDecoderBench() {
    }

    /**
     * Creates a ConverseStream decoder, as {@code BedrockCodec.streamDecoder} does.
     *
     * @param provider the provider name
     * @param model the model name
     * @return a fresh decoder for one stream
     */
    public static StreamDecoder<EventStreamMessage> decoder(String provider, String model) {
        return new BedrockStreamDecoder(provider, model);
    }
}
