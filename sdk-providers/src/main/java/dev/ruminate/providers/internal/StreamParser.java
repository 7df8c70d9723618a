package dev.ruminate.providers.internal;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.async.ByteArrayFeeder;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.io.ContentReference;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.JsonParserDelegate;

/**
 * One non-blocking JSON parser for a whole stream, fed one event's data (an SSE event, an NDJSON
 * line, an event-stream payload) at a time, and read as if it were a blocking parser over that event
 * alone.
 *
 * <p>Why: a parser per event rebuilds its contexts, symbol table and buffers for every chunk, which
 * the profile showed was over half of a decoder's garbage; this one keeps them for the stream.
 *
 * <p>What stays as with a parser per event: {@link #nextToken()} returns null when the event's
 * values are done; an event that ends inside a value, or with a top-level scalar or string that
 * might go on, fails as truncated JSON (it is never completed by the next event);
 * {@link #currentLocation()} and {@link #currentTokenLocation()} give byte offsets within the current
 * event, so that callers can copy a value's bytes out of the event's data, and so do the byte offset
 * and line of a malformed-JSON error from {@link #nextToken()}, {@link #getIntValue()} or
 * {@link #getLongValue()}. Once {@link #nextToken()}
 * has returned null the parser no longer references the event's array, so a stream parked between
 * events pins neither a network buffer nor the scratch of a long line. {@link #close()} does
 * nothing: an event's end is not the stream's. One difference: a top-level number or literal at the
 * very end of an event, with nothing after it, counts as cut short (it might go on); every protocol
 * read with this parser sends objects.
 *
 * <p>Not thread-safe; one per stream, used by one decoder at a time. After a read fails the parser's
 * state is undefined: drop it and create a new one.
 */
public final class StreamParser extends JsonParserDelegate {

    private static final byte[] NO_BYTES = new byte[0];

    private final ByteArrayFeeder feeder;
    private byte[] data = NO_BYTES;
    private int offset;
    private int length;
    private long base;
    private long fed;
    private int tokensThisEvent;
    /** Where the last complete top-level value of the event ends, in the delegate's offsets. */
    private long rootEnd;

    private StreamParser(JsonParser parser) {
        super(parser);
        this.feeder = (ByteArrayFeeder) parser.nonBlockingInputFeeder();
    }

    /**
     * Creates a parser for one stream.
     *
     * @param json the factory whose settings the parser takes
     * @return a parser awaiting its first event
     */
    public static StreamParser create(JsonFactory json) {
        return new StreamParser(json.createNonBlockingByteArrayParser(ObjectReadContext.empty()));
    }

    /**
     * Creates a factory whose shared table of property names already holds {@code names}, for the
     * parsers of one protocol.
     *
     * <p>Why: each parser keeps its own copy of the factory's name table from the first name the
     * table lacks. A parser per stream lives as long as the stream, and with a table that already
     * knows the protocol's names that copy never happens: an open, idle stream then holds about
     * 3.4 KB less. Names outside the list still parse; the first one a stream meets makes its copy.
     *
     * <p>Use the factory for parsing only, and write with {@link JsonWriting#JSON}: a stream parser
     * keeps the buffers it takes from its factory's pool until the stream ends, so a generator of the
     * same factory would find the pool empty.
     *
     * @param names property names of the protocol, plain ASCII
     * @return a new factory, thread-safe as every {@code JsonFactory}
     */
    public static JsonFactory factoryKnowing(String... names) {
        JsonFactory json = new JsonFactory();
        StringBuilder object = new StringBuilder(names.length * 16).append('{');
        for (String name : names) {
            if (object.length() > 1) {
                object.append(',');
            }
            object.append('"').append(name).append("\":0");
        }
        byte[] bytes = object.append('}').toString().getBytes(StandardCharsets.US_ASCII);
        // Closing the parser merges the names it met into the factory's shared table.
        try (JsonParser p = json.createNonBlockingByteArrayParser(ObjectReadContext.empty())) {
            ((ByteArrayFeeder) p.nonBlockingInputFeeder()).feedInput(bytes, 0, bytes.length);
            while (p.nextToken() != JsonToken.NOT_AVAILABLE) {
                // reading is all it takes
            }
        }
        return json;
    }

    /**
     * Hands the parser the next event: the first {@code length} bytes of {@code data}, which the
     * caller must not change until the event has been read.
     *
     * @param data the event's bytes
     * @param length how many of them belong to the event
     * @return this parser, positioned before the event's first token
     */
    public StreamParser feed(byte[] data, int length) {
        return feed(data, 0, length);
    }

    /**
     * Hands the parser the next event: {@code length} bytes of {@code data} from {@code offset} (a
     * frame lent by the framing, still inside its network buffer), which the caller must not change
     * until the event has been read. Locations stay relative to the event's first byte, so a value's
     * bytes are at {@code offset} plus the reported offset.
     *
     * @param data the array holding the event
     * @param offset where the event starts
     * @param length how many bytes from there belong to it
     * @return this parser, positioned before the event's first token
     * @throws IndexOutOfBoundsException if the range is not inside {@code data}
     */
    public StreamParser feed(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        feeder.feedInput(data, offset, offset + length);
        this.data = data;
        this.offset = offset;
        this.length = length;
        base = fed;
        rootEnd = fed;
        fed += length;
        tokensThisEvent = 0;
        return this;
    }

    /**
     * Hands the parser the next event, all of {@code data}.
     *
     * @param data the event's bytes, unchanged until read
     * @return this parser, positioned before the event's first token
     */
    public StreamParser feed(byte[] data) {
        return feed(data, data.length);
    }

    /**
     * Tells whether no token of the current event has been read yet.
     *
     * @return true before the event's first token
     */
    public boolean atEventStart() {
        return tokensThisEvent == 0;
    }

    @Override
    public @Nullable JsonToken nextToken() {
        JsonToken t;
        try {
            t = delegate.nextToken();
        } catch (StreamReadException e) {
            throw withinEvent(e);
        }
        if (t == JsonToken.NOT_AVAILABLE) {
            // In the root the parser also waits when a scalar might go on ("42", "nul") or a string is
            // open: the event has ended, so anything but whitespace after its last value is cut short.
            if (delegate.streamReadContext().inRoot() && onlyWhitespaceAfter(rootEnd)) {
                release();
                return null;
            }
            throw new StreamReadException(this, "Unexpected end-of-input: the event's JSON is cut short");
        }
        tokensThisEvent++;
        if (delegate.streamReadContext().inRoot()) {
            rootEnd = delegate.currentLocation().getByteOffset();
        }
        return t;
    }

    // A number that does not fit fails when read, with Jackson's stream-wide location.
    @Override
    public int getIntValue() {
        try {
            return delegate.getIntValue();
        } catch (StreamReadException e) {
            throw withinEvent(e);
        }
    }

    @Override
    public long getLongValue() {
        try {
            return delegate.getLongValue();
        } catch (StreamReadException e) {
            throw withinEvent(e);
        }
    }

    // The base class answers these through the delegate's own nextToken, which would take
    // NOT_AVAILABLE for "no more names" and end a truncated object silently.
    @Override
    public @Nullable String nextName() {
        return nextToken() == JsonToken.PROPERTY_NAME ? delegate.currentName() : null;
    }

    @Override
    public boolean nextName(SerializableString name) {
        return nextToken() == JsonToken.PROPERTY_NAME && name.getValue().equals(delegate.currentName());
    }

    @Override
    public JsonParser skipChildren() {
        JsonToken t = currentToken();
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
            return this;
        }
        int open = 1;
        while (open > 0) {
            JsonToken next = nextToken();
            if (next == null) {
                throw new StreamReadException(this, "Unexpected end-of-input: the event's JSON is cut short");
            }
            if (next.isStructStart()) {
                open++;
            } else if (next.isStructEnd()) {
                open--;
            }
        }
        return this;
    }

    /**
     * Returns where the parser is in the current event: just after the last token read.
     *
     * @return the byte offset within the event's data
     */
    @Override
    public TokenStreamLocation currentLocation() {
        return at(delegate.currentLocation().getByteOffset() - base);
    }

    /**
     * Returns where the current token starts in the current event, as a blocking parser over the
     * event would report it.
     *
     * @return the byte offset within the event's data
     */
    @Override
    public TokenStreamLocation currentTokenLocation() {
        JsonToken t = delegate.currentToken();
        if (t != null && (t.isStructStart() || t.isStructEnd())) {
            // a bracket is one byte, and the parser stands just after it
            return at(delegate.currentLocation().getByteOffset() - 1 - base);
        }
        // The non-blocking parser notes where a name or scalar starts after reading its first byte;
        // StreamParserTest holds this against the blocking parser.
        long at = delegate.currentTokenLocation().getByteOffset() - 1;
        return at(at - base);
    }

    @Override
    public void close() {
        // the parser lives as long as the stream
    }

    /**
     * Drops the event's array, all of which the parser has consumed: Jackson's feeder would otherwise
     * keep it until the next event is fed. The locations stay as they were, since only the array goes.
     */
    private void release() {
        if (data != NO_BYTES) {
            feeder.feedInput(NO_BYTES, 0, 0);
            data = NO_BYTES;
            offset = 0;
            length = 0;
        }
    }

    /**
     * Places a read error from Jackson within the current event: Jackson counts bytes and
     * lines from the stream's first event, so the line of an error would count the line breaks of
     * every event before it.
     */
    private StreamReadException withinEvent(StreamReadException e) {
        TokenStreamLocation streamAt = e.getLocation();
        long at = streamAt == null ? -1 : streamAt.getByteOffset() - base;
        if (at < 0 || at > length) {
            return e;
        }
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < at; i++) {
            byte b = data[offset + i];
            // as Jackson counts: \n, \r, and \r\n as one
            if (b == '\n' || b == '\r' && (i + 1 >= length || data[offset + i + 1] != '\n')) {
                line++;
                lineStart = i + 1;
            }
        }
        TokenStreamLocation eventAt = new TokenStreamLocation(ContentReference.unknown(), at, -1L, line,
                (int) (at - lineStart) + 1);
        return new StreamReadException(this, e.getOriginalMessage(), eventAt, e);
    }

    private static TokenStreamLocation at(long offset) {
        return new TokenStreamLocation(ContentReference.unknown(), offset, -1L, -1, -1);
    }

    private boolean onlyWhitespaceAfter(long at) {
        for (int i = (int) (at - base); i < length; i++) {
            byte b = data[offset + i];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }
}
