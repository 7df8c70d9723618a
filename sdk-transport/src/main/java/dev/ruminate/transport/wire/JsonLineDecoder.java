package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Cuts one newline-delimited JSON body into its non-blank lines.
 *
 * <p>Holds the state of one subscription; not thread-safe, fed serially.
 */
final class JsonLineDecoder implements Framing.Framer<JsonLine> {

    private final LineScanner scanner;

    /** Receives the lines completed by the current call. */
    private List<JsonLine> out = List.of();

    JsonLineDecoder(WireLimits limits) {
        this.scanner = new LineScanner(LineScanner.LineEnds.LF, limits.maxLineBytes(), this::line);
    }

    @Override
    public void feed(ByteBuf buf, List<JsonLine> out) {
        this.out = out;
        try {
            scanner.feed(buf);
        } finally {
            this.out = List.of();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>A last line without a newline still counts.
     */
    @Override
    public void finish(List<JsonLine> out) {
        this.out = out;
        try {
            scanner.finish();
        } finally {
            this.out = List.of();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Complete lines were emitted as they arrived, so nothing is left but an unfinished last
     * line, which is dropped.
     */
    @Override
    public void abort(List<JsonLine> out) {
    }

    private void line(ByteBuf src, int index, int length, long line, long offset) {
        if (isBlank(src, index, length)) {
            return;
        }
        byte[] bytes = new byte[length];
        src.getBytes(index, bytes);
        out.add(new JsonLine(bytes, line, offset));
    }

    /** Tells whether the line holds only JSON whitespace; a JSON value starts at once, so this is cheap. */
    private static boolean isBlank(ByteBuf src, int index, int length) {
        for (int k = index; k < index + length; k++) {
            byte b = src.getByte(k);
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
