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
 * <p><b>Owning or lending.</b> An owning decoder copies each event's data into an array of its own.
 * A lending one ({@code lend}) hands out an event whose data is a single data line lying wholly in the
 * buffer being fed as a {@linkplain SseEvent#lent lent} view of that buffer's array, valid until the
 * decoder's next call: the common case then copies nothing. An event whose data straddles buffers,
 * comes from a line that straddled them, or has several data lines is copied as by an owning decoder
 * (about one event per network read), with one exception: a line longer than the scanner's
 * {@linkplain LineScanner#RETAINED_CAPACITY retained scratch} (a Responses event repeating a whole
 * text) is lent from the scratch array the scanner hands over, which nothing writes again. A direct
 * buffer is first copied, whole, into a reused heap array, so that its events can be lent too.
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
    private final boolean lend;

    /** A lending decoder's copy of a direct buffer's bytes, reused from read to read. */
    private final HeapCopy heapCopy = new HeapCopy();
    /**
     * The pending event's data, when it is one line of the buffer being fed (the buffer's array) or of
     * a scratch array the scanner handed over: not copied.
     */
    private byte @Nullable [] viewArray;
    private int viewOffset;
    /** Whether {@link #viewArray} was handed over, so that it stays valid after the call. */
    private boolean viewHandedOver;

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
        this(limits, false);
    }

    /**
     * Creates a decoder.
     *
     * @param limits the longest line and largest event accepted
     * @param lend true to lend events' data where it lies in the buffer being fed (see above)
     */
    SseFrameDecoder(WireLimits limits, boolean lend) {
        this.maxEventBytes = limits.maxEventBytes();
        this.scanner = new LineScanner(LineScanner.LineEnds.CR_LF_OR_CR, limits.maxLineBytes(), this::line);
        this.lend = lend;
    }

    @Override
    public void feed(ByteBuf buf, List<SseEvent> out) {
        this.out = out;
        try {
            scanner.feed(lend && !buf.hasArray() ? heapCopy.of(buf) : buf);
            checkPartialDataLine();
        } finally {
            this.out = List.of();
            // the buffer is the caller's again after this call: a pending event keeps a copy of its data
            ownPendingView();
            heapCopy.dropIfLarge();
        }
    }

    private void ownPendingView() {
        byte[] array = viewArray;
        if (array != null && !viewHandedOver) {
            firstData = Arrays.copyOfRange(array, viewOffset, viewOffset + dataLength);
            viewArray = null;
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
        if (length > DATA.length && src.hasArray() && isDataField(src.array(), src.arrayOffset() + index)) {
            // nearly every line of a stream: read without the buffer's checked getters
            if (eventLine < 0) {
                eventLine = line;
                eventOffset = offset;
            }
            int valueStart = index + DATA.length + 1;
            if (valueStart < end && src.array()[src.arrayOffset() + valueStart] == SPACE) {
                valueStart++;
            }
            appendData(src, valueStart, end - valueStart, line, offset);
            return;
        }
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
            boolean scratch = src == scanner.partialView();
            if (lend && length > 0 && src.hasArray() && (!scratch || scanner.handsOverPartial())) {
                // a line of the buffer being fed, or of a scratch array nothing writes again: lent as it is
                // (a line in the reused scratch, which the next straddling line overwrites, is copied)
                viewArray = src.array();
                viewOffset = src.arrayOffset() + index;
                viewHandedOver = scratch;
            } else {
                firstData = length == 0 ? EMPTY : new byte[length];
                src.getBytes(index, firstData, 0, length);
            }
            hasData = true;
        } else {
            if (!isJoined) {
                ensureJoined((int) total);
                byte[] view = viewArray;
                if (view != null) {
                    System.arraycopy(view, viewOffset, joined, 0, dataLength);
                    viewArray = null;
                } else {
                    System.arraycopy(firstData, 0, joined, 0, dataLength);
                }
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
            String eventType = type == null ? DEFAULT_TYPE : type;
            byte[] view = viewArray;
            if (view != null) {
                out.add(SseEvent.lent(eventType, view, viewOffset, dataLength, lastId, eventLine, eventOffset));
                viewArray = null;
            } else {
                byte[] data = isJoined ? Arrays.copyOf(joined, dataLength) : firstData;
                if (joined.length > LineScanner.RETAINED_CAPACITY) {
                    joined = EMPTY;
                }
                out.add(new SseEvent(eventType, data, lastId, eventLine, eventOffset));
            }
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

    /** Tells whether {@code data:} starts at {@code at} (the caller checked that the line is longer). */
    private static boolean isDataField(byte[] array, int at) {
        return array[at] == 'd' && array[at + 1] == 'a' && array[at + 2] == 't' && array[at + 3] == 'a'
                && array[at + 4] == COLON;
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
