package dev.ruminate.providers.chatcompletions;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.SerializableString;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.async.ByteArrayFeeder;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.util.JsonParserDelegate;

/**
 * One non-blocking JSON parser for a whole stream, fed the data of one SSE event at a time.
 *
 * <p>A parser per event would rebuild its contexts, symbol table and buffers for every chunk, which
 * the profile shows is most of the decoder's cost; this one keeps them. It reads the values of one
 * event as a blocking parser over that event would: {@link #nextToken()} returns null when the
 * event's values are done, and an event that ends inside a value fails as truncated JSON (instead
 * of waiting for more input that belongs to the next event). Byte offsets are those of the event.
 *
 * <p>Not thread-safe; one per stream. After a failure it must not be fed again.
 */
final class FedParser extends JsonParserDelegate {

    private final ByteArrayFeeder feeder;
    private long base;
    private long fed;
    private int tokensThisEvent;
    private byte[] data = new byte[0];
    private int length;
    /** Where the last complete top-level value of the event ends, in the parser's offsets. */
    private long rootEnd;

    private FedParser(JsonParser parser) {
        super(parser);
        this.feeder = (ByteArrayFeeder) parser.nonBlockingInputFeeder();
    }

    static FedParser create() {
        return new FedParser(ChunkParser.JSON.createNonBlockingByteArrayParser(ObjectReadContext.empty()));
    }

    /** Hands the parser the first {@code length} bytes of an event's data. */
    FedParser feed(byte[] data, int length) {
        feeder.feedInput(data, 0, length);
        this.data = data;
        this.length = length;
        base = fed;
        rootEnd = fed;
        fed += length;
        tokensThisEvent = 0;
        return this;
    }

    /** Where the current event starts in the bytes fed so far: subtract it from the parser's offsets. */
    long base() {
        return base;
    }

    /** Tells whether no token of the current event has been read yet. */
    boolean atEventStart() {
        return tokensThisEvent == 0;
    }

    @Override
    public JsonToken nextToken() {
        JsonToken t = delegate.nextToken();
        if (t == JsonToken.NOT_AVAILABLE) {
            // In the root the parser also waits when a scalar might go on ("42", "nul") or a string is
            // open: the event has ended, so anything but whitespace after the last value is cut short.
            if (delegate.streamReadContext().inRoot() && onlyWhitespaceAfter(rootEnd)) {
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

    private boolean onlyWhitespaceAfter(long offset) {
        for (int i = (int) (offset - base); i < length; i++) {
            byte b = data[i];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
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

    @Override
    public void close() {
        // the parser lives as long as the stream; an event's end is not the stream's
    }
}
