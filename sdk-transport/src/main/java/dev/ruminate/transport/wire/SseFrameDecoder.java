package dev.ruminate.transport.wire;

import dev.ruminate.core.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Interprets the lines of one event-stream body as Server-Sent Events, following the WHATWG
 * event-stream interpretation rules, plus the end-of-body rule documented on
 * {@link ServerSentEvents}.
 *
 * <p>Holds the state of one subscription; not thread-safe, fed serially.
 *
 * @see <a href="https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation">event-stream interpretation</a>
 */
final class SseFrameDecoder implements Framing.Framer<SseEvent> {

    private static final byte[] EMPTY = new byte[0];
    private static final byte[] DATA = ascii("data");
    private static final byte[] EVENT = ascii("event");
    private static final byte[] ID = ascii("id");
    private static final byte COLON = ':';
    private static final byte SPACE = ' ';
    private static final byte LF = '\n';
    private static final String DEFAULT_TYPE = "message";

    private final int maxEventBytes;
    private final LineScanner scanner;

    /** Receives the events completed by the current call. */
    private List<SseEvent> out = List.of();

    /** Whether the pending event has had a data field, possibly empty. */
    private boolean hasData;
    /**
     * The first data line's value, exactly sized, handed to the event as is when no second data
     * line follows: the common case then copies each data byte once.
     */
    private byte[] firstData = EMPTY;
    /** Data of an event with several data lines, joined by LF; reused from event to event. */
    private byte[] joined = EMPTY;
    /** Whether the pending event's data is in {@link #joined} rather than {@link #firstData}. */
    private boolean isJoined;
    private int dataLength;

    private @Nullable String type;
    private @Nullable String lastId;
    /** The bytes of the last decoded event type, so that a repeated type reuses its string. */
    private byte[] lastTypeBytes = EMPTY;
    private String lastType = DEFAULT_TYPE;

    private long eventLine = -1;
    private long eventOffset = -1;

    SseFrameDecoder(WireLimits limits) {
        this.maxEventBytes = limits.maxEventBytes();
        this.scanner = new LineScanner(LineScanner.LineEnds.CR_LF_OR_CR, limits.maxLineBytes(), this::line);
    }

    @Override
    public void feed(ByteBuf buf, List<SseEvent> out) {
        this.out = out;
        try {
            scanner.feed(buf);
            checkPartialDataLine();
        } finally {
            this.out = List.of();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>An unfinished last line counts as a line, and a pending event with data is dispatched even
     * without its closing blank line.
     */
    @Override
    public void finish(List<SseEvent> out) {
        this.out = out;
        try {
            scanner.finish();
            dispatch();
        } finally {
            this.out = List.of();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>A pending event with data from complete lines is dispatched; an unfinished last line is
     * dropped.
     */
    @Override
    public void abort(List<SseEvent> out) {
        this.out = out;
        try {
            dispatch();
        } finally {
            this.out = List.of();
        }
    }

    private void line(ByteBuf src, int index, int length, long line, long offset) {
        if (line == 1 && startsWithBom(src, index, length)) {
            index += 3;
            length -= 3;
            offset += 3;
        }
        if (length == 0) {
            dispatch();
            return;
        }
        int end = index + length;
        if (src.getByte(index) == COLON) {
            return;
        }
        int colon = LineScanner.indexOf(src, index, end, COLON);
        int nameEnd = colon < 0 ? end : colon;
        int valueStart = colon < 0 ? end : colon + 1;
        if (valueStart < end && src.getByte(valueStart) == SPACE) {
            valueStart++;
        }
        if (eventLine < 0) {
            eventLine = line;
            eventOffset = offset;
        }
        if (nameIs(src, index, nameEnd, DATA)) {
            appendData(src, valueStart, end - valueStart, line, offset);
        } else if (nameIs(src, index, nameEnd, EVENT)) {
            type = eventType(src, valueStart, end - valueStart);
        } else if (nameIs(src, index, nameEnd, ID)) {
            // The spec ignores an id containing NUL; an empty id clears the last one.
            if (src.indexOf(valueStart, end, (byte) 0) < 0) {
                lastId = valueStart == end ? null : src.toString(valueStart, end - valueStart, StandardCharsets.UTF_8);
            }
        }
        // retry only tunes reconnection, which this decoder does not do; unknown fields are ignored per spec.
    }

    private void appendData(ByteBuf src, int index, int length, long line, long offset) {
        int separator = hasData ? 1 : 0;
        long total = (long) dataLength + separator + length;
        if (total > maxEventBytes) {
            throw eventTooLarge(line, offset);
        }
        if (!hasData) {
            firstData = length == 0 ? EMPTY : new byte[length];
            src.getBytes(index, firstData, 0, length);
            hasData = true;
        } else {
            if (!isJoined) {
                ensureJoined((int) total);
                System.arraycopy(firstData, 0, joined, 0, dataLength);
                firstData = EMPTY;
                isJoined = true;
            } else {
                ensureJoined((int) total);
            }
            joined[dataLength] = LF;
            src.getBytes(index, joined, dataLength + 1, length);
        }
        dataLength = (int) total;
    }

    private void ensureJoined(int capacity) {
        if (joined.length < capacity) {
            int grown = (int) Math.min(maxEventBytes, Math.max(capacity, joined.length * 2L));
            joined = Arrays.copyOf(joined, grown);
        }
    }

    /**
     * Fails early when an unfinished data line already makes its event too large, so that a
     * runaway line is not buffered up to the line limit first.
     */
    private void checkPartialDataLine() {
        int held = scanner.partialLength();
        if (held <= DATA.length || (long) dataLength + held - DATA.length <= maxEventBytes) {
            return;
        }
        ByteBuf partial = scanner.partialView();
        if (nameIs(partial, 0, DATA.length, DATA) && partial.getByte(DATA.length) == COLON) {
            int valueStart = DATA.length + 1;
            if (held > valueStart && partial.getByte(valueStart) == SPACE) {
                valueStart++;
            }
            long total = (long) dataLength + (hasData ? 1 : 0) + held - valueStart;
            if (total > maxEventBytes) {
                throw eventTooLarge(scanner.partialLine(), scanner.partialOffset());
            }
        }
    }

    private void dispatch() {
        if (hasData) {
            byte[] data = isJoined ? Arrays.copyOf(joined, dataLength) : firstData;
            if (joined.length > LineScanner.RETAINED_CAPACITY) {
                joined = EMPTY;
            }
            out.add(new SseEvent(type == null ? DEFAULT_TYPE : type, data, lastId, eventLine, eventOffset));
        }
        hasData = false;
        isJoined = false;
        firstData = EMPTY;
        dataLength = 0;
        type = null;
        eventLine = -1;
        eventOffset = -1;
    }

    private @Nullable String eventType(ByteBuf src, int index, int length) {
        if (length == 0) {
            return null;
        }
        if (length == lastTypeBytes.length && equalBytes(src, index, lastTypeBytes)) {
            return lastType;
        }
        byte[] bytes = new byte[length];
        src.getBytes(index, bytes);
        lastTypeBytes = bytes;
        lastType = new String(bytes, StandardCharsets.UTF_8);
        return lastType;
    }

    /**
     * Reports the data line that crossed the limit, as a line-limit error would: when one line
     * breaks both limits, the error then does not depend on which check the buffer splits reach first.
     */
    private ProtocolException eventTooLarge(long line, long offset) {
        long startLine = eventLine < 0 ? line : eventLine;
        return new ProtocolException(
                ProtocolException.Reason.LINE_TOO_LONG,
                "data of the event starting at line " + startLine + " longer than the limit of " + maxEventBytes + " bytes",
                line,
                offset,
                null);
    }

    private static boolean startsWithBom(ByteBuf src, int index, int length) {
        return length >= 3
                && src.getByte(index) == (byte) 0xEF
                && src.getByte(index + 1) == (byte) 0xBB
                && src.getByte(index + 2) == (byte) 0xBF;
    }

    private static boolean nameIs(ByteBuf src, int from, int to, byte[] name) {
        return to - from == name.length && equalBytes(src, from, name);
    }

    private static boolean equalBytes(ByteBuf src, int index, byte[] expected) {
        for (int k = 0; k < expected.length; k++) {
            if (src.getByte(index + k) != expected[k]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
