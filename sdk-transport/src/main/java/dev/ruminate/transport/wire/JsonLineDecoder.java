package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts one newline-delimited JSON body into its non-blank lines.
 *
 * <p>An owning decoder copies each line into an array of its own. A lending one copies nothing it
 * does not have to: the lines it adds to {@code out} during a call are {@linkplain JsonLine#isLent()
 * lent}, valid until its next call ({@code feed}, {@code finish} or {@code abort}). A line that lies
 * in a buffer with a backing array is a view into that array; a line that straddles buffers is
 * copied into a scratch array of this decoder (the scanner's own copy is valid only while it hands
 * the line over, and the line must stay valid until the call returns), unless the scanner hands its
 * scratch over with a line longer than it keeps ({@link LineScanner#handsOverPartial()}), which
 * is then lent from that scratch; a buffer without a
 * reachable backing array (a direct one) is copied once, whole, into a reused heap array, and its
 * lines are views into that.
 *
 * <p>Holds the state of one subscription; not thread-safe, fed serially.
 */
final class JsonLineDecoder implements Framing.Framer<JsonLine> {

    private static final byte[] EMPTY = new byte[0];

    private final LineScanner scanner;
    private final boolean lend;

    /** Receives the lines completed by the current call. */
    private List<JsonLine> out = List.of();
    /** The buffer the scanner reads in the current call: a line in it can be lent as a view. */
    private ByteBuf current = Unpooled.EMPTY_BUFFER;

    /** The readable bytes of a buffer without a backing array, copied once per call; reused. */
    private final HeapCopy heap = new HeapCopy();
    /** The one line of a call that straddles buffers (only a call's first line can), copied; reused. */
    private byte[] straddling = EMPTY;

    /**
     * Creates an owning decoder: every line owns its bytes.
     *
     * @param limits the limits on line length
     */
    JsonLineDecoder(WireLimits limits) {
        this(limits, false);
    }

    /**
     * Creates a decoder.
     *
     * @param limits the limits on line length
     * @param lend true to lend the lines (valid until the decoder's next call), false to copy each
     */
    JsonLineDecoder(WireLimits limits, boolean lend) {
        this.scanner = new LineScanner(LineScanner.LineEnds.LF, limits.maxLineBytes(), this::line);
        this.lend = lend;
    }

    @Override
    public void feed(ByteBuf buf, List<JsonLine> out) {
        this.out = out;
        try {
            if (lend) {
                dropLargeScratch();
                current = buf.hasArray() ? buf : heap.of(buf);
                scanner.feed(current);
            } else {
                scanner.feed(buf);
            }
        } finally {
            this.out = List.of();
            current = Unpooled.EMPTY_BUFFER;
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
            dropLargeScratch();
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
        dropLargeScratch();
    }

    private void line(ByteBuf src, int index, int length, long line, long offset) {
        if (isBlank(src, index, length)) {
            return;
        }
        if (!lend) {
            byte[] bytes = new byte[length];
            src.getBytes(index, bytes);
            out.add(new JsonLine(bytes, line, offset));
        } else if (src == current || scanner.handsOverPartial()) {
            // a line of the buffer read, or of a scratch the scanner drops after this line: nothing writes it again
            out.add(JsonLine.lent(src.array(), src.arrayOffset() + index, length, line, offset));
        } else {
            // the scanner's straddling copy, valid only during this call: copied into our own scratch
            if (straddling.length < length) {
                straddling = new byte[Math.max(length, Math.min(2 * straddling.length, LineScanner.RETAINED_CAPACITY))];
            }
            src.getBytes(index, straddling, 0, length);
            out.add(JsonLine.lent(straddling, 0, length, line, offset));
        }
    }

    /**
     * Drops a scratch array grown past the retained size by an exceptional buffer or line, once the
     * lines lent from it are no longer valid, so that it does not stay pinned for the rest of a
     * long-lived stream.
     */
    private void dropLargeScratch() {
        heap.dropIfLarge();
        if (straddling.length > LineScanner.RETAINED_CAPACITY) {
            straddling = EMPTY;
        }
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
