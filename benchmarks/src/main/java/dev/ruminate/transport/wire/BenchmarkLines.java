package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Benchmarks only: reaches the NDJSON framer directly, owning or lending, so that a benchmark can
 * decode each line inside the read that completes it before the provider path does so. Lives in the
 * framer's package (the benchmarks run on the class path), since the framer is not public API.
 *
 * <p>Not thread-safe: one per body, fed serially.
 */
public final class BenchmarkLines {

    private final JsonLineDecoder framer;

    private BenchmarkLines(boolean lend) {
        this.framer = new JsonLineDecoder(WireLimits.DEFAULT, lend);
    }

    /**
     * Creates a framer for one body.
     *
     * @param lend true for lent lines (valid until the next call), false for lines that own their bytes
     * @return the framer
     */
    public static BenchmarkLines create(boolean lend) {
        return new BenchmarkLines(lend);
    }

    /**
     * Adds the lines a buffer completes.
     *
     * @param buf the next buffer; read, not retained or released
     * @param out receives the lines
     */
    public void feed(ByteBuf buf, List<JsonLine> out) {
        framer.feed(buf, out);
    }

    /**
     * Ends the body, adding an unfinished last line.
     *
     * @param out receives the line
     */
    public void finish(List<JsonLine> out) {
        framer.finish(out);
    }
}
