package dev.ruminate.providers.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A cursor over the bytes of one JSON document for the decoders' fast paths: scanners that
 * recognise one dominant chunk shape by its bytes and read its few values without tokenizing the
 * rest, leaving anything else to Jackson.
 *
 * <p>The contract that makes a fast path safe: every method either reads exactly what strict JSON
 * (RFC 8259, UTF-8, as Jackson reads it with its default settings) says is there, or returns
 * false ("not recognised"). It never guesses: a byte sequence that is not well-formed UTF-8 (overlong
 * forms, UTF-16 surrogates, code points above U+10FFFF), a control character inside a string, an escape
 * JSON does not define, a number outside JSON's grammar, a property name with an escape or a
 * non-ASCII byte (so that names can be compared by their bytes), or a value larger than the cursor's
 * limits all make it return false, and the caller hands the document to Jackson, which decodes it
 * or reports the error as it always did. Strings decode to the same {@code String} Jackson would
 * give: a {@code \}{@code u} escape with its four hex digits becomes the UTF-16 unit it names (lone
 * surrogates included), four-byte UTF-8 becomes a surrogate pair.
 *
 * <p>Not thread-safe; one per decoder. It keeps a char buffer between documents.
 */
public final class JsonCursor {

    /** Strings longer than this many bytes are left to Jackson (its own limits apply there). */
    private static final int MAX_STRING_BYTES = 1 << 20;
    /** Numbers longer than this are left to Jackson (its default limit is 1,000 characters). */
    private static final int MAX_NUMBER_LENGTH = 100;
    /** Property names longer than this are left to Jackson. */
    private static final int MAX_NAME_LENGTH = 256;
    /** Reads 8 bytes of an array as one long, the first byte lowest, whatever the platform's order. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Reads 4 bytes of an array as one int, in the same order. */
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5c5c5c5c5c5c5c5cL;
    private static final long SPACES = 0x2020202020202020L;

    private byte[] data = new byte[0];
    private int pos;
    private int end;
    private int nameStart;
    private int nameLength;
    private @Nullable String string;
    private char[] chars = new char[64];

    /**
     * Positions the cursor at the start of a document.
     *
     * @param bytes the document's bytes; read, never changed, and not kept past the next call
     * @param length how many of them belong to the document
     * @return this cursor
     */
    public JsonCursor reset(byte[] bytes, int length) {
        return reset(bytes, 0, length);
    }

    /**
     * Positions the cursor at the start of a document that is a range of a larger array (a frame
     * lent by the framing, still inside its network buffer).
     *
     * @param bytes the array holding the document; read, never changed, and not kept past the next call
     * @param offset where the document starts
     * @param length how many bytes from there belong to it
     * @return this cursor
     * @throws IndexOutOfBoundsException if the range is not inside {@code bytes}
     */
    public JsonCursor reset(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        this.data = bytes;
        this.end = offset + length;
        this.pos = offset;
        this.string = null;
        return this;
    }

    /** Skips JSON whitespace (space, tab, line feed, carriage return). */
    public void whitespace() {
        int p = pos;
        int e = end;
        byte[] d = data;
        // Most calls find a token right away (compact JSON): one compare settles them.
        if (p >= e || d[p] > ' ') {
            return;
        }
        while (p < e) {
            byte b = d[p];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                break;
            }
            p++;
        }
        pos = p;
    }

    /**
     * Tells whether only whitespace is left.
     *
     * @return true at the end of the document, whitespace skipped
     */
    public boolean atEnd() {
        whitespace();
        return pos == end;
    }

    /**
     * Consumes one structural byte ({@code {}, {@code :}, {@code ,}, …) after optional whitespace.
     *
     * @param c the byte expected
     * @return true if it was there (and is now consumed)
     */
    public boolean take(char c) {
        whitespace();
        if (pos < end && data[pos] == c) {
            pos++;
            return true;
        }
        return false;
    }

    /**
     * Tells whether the next byte, after optional whitespace, is {@code c}, without consuming it.
     *
     * @param c the byte looked for
     * @return true if it is next
     */
    public boolean peek(char c) {
        whitespace();
        return pos < end && data[pos] == c;
    }

    /**
     * Reads a property name and the colon after it; the name is then compared with
     * {@link #nameIs}.
     *
     * @return false for anything but a plain name: an escape, a non-ASCII or control byte, an
     *     over-long name, or no colon
     */
    public boolean name() {
        if (!take('"')) {
            return false;
        }
        byte[] d = data;
        int start = pos;
        int p = start;
        int limit = Math.min(end, start + MAX_NAME_LENGTH);
        while (p < limit) {
            p = plainWords(d, p, limit);
            if (p == limit) {
                break;
            }
            byte b = d[p];
            if (b == '"') {
                nameStart = start;
                nameLength = p - start;
                pos = p + 1;
                return take(':');
            }
            if (b < 0x20 || b == '\\') { // negative: a non-ASCII byte
                pos = p;
                return false;
            }
            p++;
        }
        pos = p;
        return false;
    }

    /**
     * Tells whether the name last read by {@link #name()} is {@code name}.
     *
     * @param name the name's bytes (ASCII)
     * @return true if equal
     */
    public boolean nameIs(byte[] name) {
        int n = name.length;
        if (n != nameLength) {
            return false;
        }
        // Names are short: Arrays.equals' range checks and call cost more than the compare. Words overlap at the
        // end so that no byte outside either name is read.
        byte[] d = data;
        int s = nameStart;
        if (n >= Long.BYTES) {
            for (int i = 0; i < n - Long.BYTES; i += Long.BYTES) {
                if ((long) LONGS.get(d, s + i) != (long) LONGS.get(name, i)) {
                    return false;
                }
            }
            return (long) LONGS.get(d, s + n - Long.BYTES) == (long) LONGS.get(name, n - Long.BYTES);
        }
        if (n >= Integer.BYTES) {
            return (int) INTS.get(d, s) == (int) INTS.get(name, 0)
                    && (int) INTS.get(d, s + n - Integer.BYTES) == (int) INTS.get(name, n - Integer.BYTES);
        }
        for (int i = 0; i < n; i++) {
            if (d[s + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Consumes the literal {@code null}, after optional whitespace.
     *
     * @return true if the value is {@code null}
     */
    public boolean nullValue() {
        whitespace();
        if (end - pos >= 4 && data[pos] == 'n' && data[pos + 1] == 'u' && data[pos + 2] == 'l' && data[pos + 3] == 'l') {
            pos += 4;
            return delimited();
        }
        return false;
    }

    /**
     * Consumes the integer {@code 0} exactly (no sign, fraction or exponent).
     *
     * @return true if the value is {@code 0}
     */
    public boolean zero() {
        whitespace();
        if (pos < end && data[pos] == '0') {
            pos++;
            return delimited();
        }
        return false;
    }

    /**
     * Consumes a non-negative integer that fits an {@code int}, written plainly: digits only, no sign,
     * fraction, exponent or leading zero (Jackson reads {@code -0} as 0 and {@code 1.0} as a float:
     * those are left to it).
     *
     * @return the value, or -1 when the value is anything else
     */
    public int plainIndex() {
        whitespace();
        int start = pos;
        long value = 0;
        while (pos < end && data[pos] >= '0' && data[pos] <= '9') {
            value = value * 10 + (data[pos] - '0');
            pos++;
            if (value > Integer.MAX_VALUE) {
                return -1;
            }
        }
        int digits = pos - start;
        if (digits == 0 || digits > 1 && data[start] == '0' || !delimited()) {
            return -1;
        }
        return (int) value;
    }

    /**
     * Consumes a string value whose bytes are exactly {@code value}, after optional whitespace: no
     * escape, nothing more or less; for values a fast path compares rather than decodes (an event's
     * type, an id it has seen before). A string that would decode to {@code value} through an escape
     * is not recognised.
     *
     * @param value the expected content: well-formed UTF-8 without a quote, a backslash or a control
     *     character
     * @return true if the string was there (and is now consumed)
     */
    public boolean stringIs(byte[] value) {
        whitespace();
        int close = pos + 1 + value.length;
        if (close >= end || data[pos] != '"' || data[close] != '"'
                || !Arrays.equals(data, pos + 1, close, value, 0, value.length)) {
            return false;
        }
        pos = close + 1;
        return true;
    }

    /**
     * Skips a scalar value: a string, a number, {@code true}, {@code false} or {@code null}, each
     * checked as strictly as if it were read.
     *
     * @return false for an object or an array (which this cursor does not skip), or for anything
     *     malformed
     */
    public boolean skipScalar() {
        whitespace();
        if (pos >= end) {
            return false;
        }
        byte b = data[pos];
        return switch (b) {
            case '"' -> string(false);
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> nullValue();
            default -> (b == '-' || (b >= '0' && b <= '9')) && number();
        };
    }

    /**
     * Reads a string value, decoded; {@link #string()} then returns it.
     *
     * @return false for anything but a well-formed string (a {@code null} too)
     */
    public boolean stringValue() {
        whitespace();
        return pos < end && data[pos] == '"' && string(true);
    }

    /**
     * Returns the string read by the last successful {@link #stringValue()}.
     *
     * @return the decoded text
     * @throws IllegalStateException if no string was read
     */
    public String string() {
        String s = string;
        if (s == null) {
            throw new IllegalStateException("no string read");
        }
        return s;
    }

    private boolean literal(String word) {
        int n = word.length();
        if (end - pos < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (data[pos + i] != word.charAt(i)) {
                return false;
            }
        }
        pos += n;
        return delimited();
    }

    /** After a scalar: only whitespace or a structural byte may follow (Jackson rejects {@code nullx}, {@code 1x}). */
    private boolean delimited() {
        if (pos >= end) {
            return false;
        }
        byte b = data[pos];
        return b == ',' || b == '}' || b == ']' || b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}, then a delimiter. */
    private boolean number() {
        int start = pos;
        if (data[pos] == '-') {
            pos++;
        }
        if (pos >= end) {
            return false;
        }
        if (data[pos] == '0') {
            pos++;
        } else if (!digits()) {
            return false;
        }
        if (pos < end && data[pos] == '.') {
            pos++;
            if (!digits()) {
                return false;
            }
        }
        if (pos < end && (data[pos] == 'e' || data[pos] == 'E')) {
            pos++;
            if (pos < end && (data[pos] == '+' || data[pos] == '-')) {
                pos++;
            }
            if (!digits()) {
                return false;
            }
        }
        return pos - start <= MAX_NUMBER_LENGTH && delimited();
    }

    private boolean digits() {
        int start = pos;
        while (pos < end && data[pos] >= '0' && data[pos] <= '9') {
            pos++;
        }
        return pos > start;
    }

    /**
     * Reads a string, the cursor at its opening quote. Plain ASCII becomes a string without a copy
     * through chars; escapes and multi-byte characters go through the char buffer.
     */
    private boolean string(boolean keep) {
        byte[] d = data;
        int start = pos + 1;
        int p = start;
        int limit = Math.min(end, start + MAX_STRING_BYTES);
        boolean ascii = true;
        while (p < limit) {
            // Plain ASCII 8 bytes at a time; the byte-wise checks below run only from the first byte that needs them
            // (or on the last few bytes of the range).
            p = plainWords(d, p, limit);
            if (p == limit) {
                break;
            }
            byte b = d[p];
            if (b == '"') {
                if (keep) {
                    // "" is common (Ollama's empty content beside thinking): no String object for it, as Jackson
                    string = p == start ? "" : new String(d, start, p - start,
                            ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
                }
                pos = p + 1;
                return true;
            }
            if (b == '\\') {
                return escaped(start, keep);
            }
            if (b >= 0 && b < 0x20) {
                pos = p;
                return false;
            }
            if (b < 0) {
                int n = utf8Length(p);
                if (n == 0) {
                    pos = p;
                    return false;
                }
                ascii = false;
                p += n;
            } else {
                p++;
            }
        }
        pos = p;
        return false;
    }

    /**
     * Marks, with its high bit, each byte of {@code word} that a plain run of string or name bytes stops at: a
     * {@code "}, a {@code \}, a control byte (below 0x20) or a non-ASCII byte (0x80 and up). The lowest mark is exact
     * (a borrow only comes out of a byte that is itself marked), and callers only use the lowest: the first such byte
     * in memory, the words being little-endian.
     */
    private static long stops(long word) {
        long quotes = word ^ QUOTES;
        long backslashes = word ^ BACKSLASHES;
        // (word - 0x20) | word has the high bit for bytes below 0x20 (a borrow) and for bytes from 0x80.
        return ((quotes - ONES) & ~quotes | (backslashes - ONES) & ~backslashes | (word - SPACES) | word) & HIGHS;
    }

    /**
     * Skips plain ASCII 8 bytes at a time: returns the first byte from {@code p} that {@link #stops} marks, found in a
     * whole word, or the first from which fewer than 8 bytes are left before {@code limit} (the caller reads those
     * byte by byte), or {@code limit} itself.
     */
    private static int plainWords(byte[] d, int p, int limit) {
        int i = p;
        while (limit - i >= Long.BYTES) {
            long stops = stops((long) LONGS.get(d, i));
            if (stops != 0) {
                return i + (Long.numberOfTrailingZeros(stops) >>> 3);
            }
            i += Long.BYTES;
        }
        return i;
    }

    /** Reads a string with escapes from its first byte at {@code start}, decoding into the char buffer. */
    private boolean escaped(int start, boolean keep) {
        byte[] d = data;
        int limit = Math.min(end, start + MAX_STRING_BYTES);
        int n = 0;
        int p = start;
        char[] cs = chars;
        while (p < limit) {
            // A run of plain ASCII, found 8 bytes at a time, is widened into the chars in one loop.
            int q = plainWords(d, p, limit);
            if (limit - q < Long.BYTES) {
                while (q < limit && d[q] >= 0x20 && d[q] != '"' && d[q] != '\\') {
                    q++;
                }
            }
            if (q > p) {
                int run = q - p;
                if (n + run + 2 > cs.length) {
                    cs = Arrays.copyOf(cs, Math.max(cs.length * 2, n + run + 2));
                    chars = cs;
                }
                for (int i = 0; i < run; i++) {
                    cs[n + i] = (char) d[p + i];
                }
                n += run;
                p = q;
                if (p >= limit) {
                    break;
                }
            }
            if (n + 2 > cs.length) {
                cs = Arrays.copyOf(cs, cs.length * 2);
                chars = cs;
            }
            int b = d[p];
            if (b == '"') {
                if (keep) {
                    string = new String(cs, 0, n);
                }
                pos = p + 1;
                return true;
            }
            if (b == '\\') {
                if (p + 1 >= limit) {
                    pos = p;
                    return false;
                }
                byte e = d[p + 1];
                char c;
                switch (e) {
                    case '"' -> c = '"';
                    case '\\' -> c = '\\';
                    case '/' -> c = '/';
                    case 'b' -> c = '\b';
                    case 'f' -> c = '\f';
                    case 'n' -> c = '\n';
                    case 'r' -> c = '\r';
                    case 't' -> c = '\t';
                    case 'u' -> {
                        if (p + 6 > limit) {
                            pos = p;
                            return false;
                        }
                        int v = 0;
                        for (int i = p + 2; i < p + 6; i++) {
                            int h = hex(d[i]);
                            if (h < 0) {
                                pos = p;
                                return false;
                            }
                            v = (v << 4) | h;
                        }
                        cs[n++] = (char) v;
                        p += 6;
                        continue;
                    }
                    default -> {
                        pos = p;
                        return false;
                    }
                }
                cs[n++] = c;
                p += 2;
            } else if (b >= 0 && b < 0x20) {
                pos = p;
                return false;
            } else if (b >= 0) {
                cs[n++] = (char) b;
                p++;
            } else {
                int len = utf8Length(p);
                int b0 = b & 0xff;
                switch (len) {
                    case 2 -> cs[n++] = (char) (((b0 & 0x1f) << 6) | (d[p + 1] & 0x3f));
                    case 3 -> cs[n++] = (char) (((b0 & 0x0f) << 12) | ((d[p + 1] & 0x3f) << 6) | (d[p + 2] & 0x3f));
                    case 4 -> {
                        int cp = ((b0 & 0x07) << 18) | ((d[p + 1] & 0x3f) << 12) | ((d[p + 2] & 0x3f) << 6)
                                | (d[p + 3] & 0x3f);
                        cs[n++] = Character.highSurrogate(cp);
                        cs[n++] = Character.lowSurrogate(cp);
                    }
                    default -> {
                        pos = p;
                        return false;
                    }
                }
                p += len;
            }
        }
        pos = p;
        return false;
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /**
     * Returns the length of the well-formed UTF-8 sequence starting at {@code i} (a non-ASCII
     * lead byte), or 0 when it is not one (Unicode's table 3-7: no overlong forms, no surrogates,
     * nothing above U+10FFFF, no sequence cut by the end of the data).
     */
    private int utf8Length(int i) {
        int b0 = data[i] & 0xff;
        if (b0 < 0xc2 || b0 > 0xf4) {
            return 0;
        }
        if (b0 < 0xe0) {
            return i + 1 < end && continuation(data[i + 1]) ? 2 : 0;
        }
        if (i + 2 >= end) {
            return 0;
        }
        int b1 = data[i + 1] & 0xff;
        if (b0 < 0xf0) {
            int lo = b0 == 0xe0 ? 0xa0 : 0x80;
            int hi = b0 == 0xed ? 0x9f : 0xbf;
            return b1 >= lo && b1 <= hi && continuation(data[i + 2]) ? 3 : 0;
        }
        if (i + 3 >= end) {
            return 0;
        }
        int lo = b0 == 0xf0 ? 0x90 : 0x80;
        int hi = b0 == 0xf4 ? 0x8f : 0xbf;
        return b1 >= lo && b1 <= hi && continuation(data[i + 2]) && continuation(data[i + 3]) ? 4 : 0;
    }

    private static boolean continuation(byte b) {
        return (b & 0xc0) == 0x80;
    }

    /**
     * Tells which of {@code names} the name last read by {@link #name()} is: the scanners' test for the
     * names they decline or read alike.
     *
     * @param names names' bytes (ASCII)
     * @return the index of the first equal one, or -1
     */
    public int nameIndex(byte[][] names) {
        for (int i = 0; i < names.length; i++) {
            if (nameIs(names[i])) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Returns a name's bytes as {@link #nameIs} compares them.
     *
     * @param name a property name, plain ASCII
     * @return its bytes
     */
    public static byte[] ascii(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Returns where the cursor is: an index into the array given to {@link #reset}.
     *
     * @return the index of the next byte to read
     */
    public int position() {
        return pos;
    }

    /**
     * Copies the bytes from {@code from} up to the cursor into {@code into}, for a caller that
     * remembers a prefix it has read (see {@link #skipKnown}).
     *
     * @param from an earlier {@link #position()} of this document
     * @param into where the bytes go, from index 0; at least as long as they are
     * @return how many bytes were copied
     */
    public int copyReadSince(int from, byte[] into) {
        int n = pos - from;
        System.arraycopy(data, from, into, 0, n);
        return n;
    }

    /**
     * Consumes {@code length} bytes if they are exactly the first {@code length} of {@code known}.
     * For a prefix this cursor read, strictly, from an earlier document: when it ends just after a
     * token whose reading did not look past it (a colon, a comma), the same bytes read the same way
     * again, so they need not be checked again, only compared.
     *
     * @param known the bytes of the prefix
     * @param length how many of them make it
     * @return true if the document continues with them (and they are now consumed)
     */
    public boolean skipKnown(byte[] known, int length) {
        if (end - pos < length || !Arrays.equals(data, pos, pos + length, known, 0, length)) {
            return false;
        }
        pos += length;
        return true;
    }

    /**
     * Returns the length in bytes of the name last read by {@link #name()}, so that a caller can
     * dispatch on it before comparing bytes.
     *
     * @return the name's length
     */
    public int nameLength() {
        return nameLength;
    }

    // Helpers for scanners that skip nested values and read counts (the Gemini chunk's usage). They
    // are built on the public methods above, so that those stay the one place that reads JSON's grammar.

    /** How deep {@link #skipValue()} follows nested objects and arrays before it leaves the value to Jackson. */
    private static final int MAX_SKIP_DEPTH = 32;
    /** Property names inside a skipped value longer than this (in bytes, escapes included) are left to Jackson. */
    private static final int MAX_SKIPPED_NAME_BYTES = 256;
    /** Counts with more digits than this are left to Jackson: 18 digits always fit in a {@code long}. */
    private static final int MAX_COUNT_DIGITS = 18;

    /**
     * Skips any value, objects and arrays included, each part checked as strictly as
     * {@link #skipScalar()} checks a scalar. Names inside are well-formed strings without escapes
     * (Jackson checks names more strictly than values: it rejects a lone surrogate escape in a name);
     * duplicate names are accepted, as Jackson accepts them by default.
     *
     * @return false for anything malformed, nested deeper than 32 levels, or with a name that has an
     *     escape or is longer than 256 bytes
     */
    public boolean skipValue() {
        return skipValue(0);
    }

    private boolean skipValue(int depth) {
        if (take('{')) {
            if (depth >= MAX_SKIP_DEPTH) {
                return false;
            }
            if (take('}')) {
                return true;
            }
            do {
                whitespace();
                int start = pos;
                if (!peek('"') || !skipScalar() || pos - start > MAX_SKIPPED_NAME_BYTES || hasBackslash(start, pos)
                        || !take(':') || !skipValue(depth + 1)) {
                    return false;
                }
            } while (take(','));
            return take('}');
        }
        if (take('[')) {
            if (depth >= MAX_SKIP_DEPTH) {
                return false;
            }
            if (take(']')) {
                return true;
            }
            do {
                if (!skipValue(depth + 1)) {
                    return false;
                }
            } while (take(','));
            return take(']');
        }
        return skipScalar();
    }

    /**
     * Skips a string value, checked as {@link #stringValue()} checks it, without decoding it.
     *
     * @return false for anything but a well-formed string
     */
    public boolean skipString() {
        return peek('"') && skipScalar();
    }

    /**
     * Consumes a boolean literal.
     *
     * @param value the literal expected: {@code true} or {@code false}
     * @return true if that literal, and nothing longer, is next (and is now consumed)
     */
    public boolean booleanValue(boolean value) {
        return peek(value ? 't' : 'f') && skipScalar();
    }

    /**
     * Reads a count: a non-negative integer as JSON writes it ({@code 0} or a digit 1-9 and more
     * digits; no sign, fraction or exponent) of at most 18 digits, followed by whitespace or a
     * structural byte.
     *
     * @return the count, or -1 (nothing consumed that matters: the caller gives the document up) for
     *     anything else, such as {@code 01}, {@code -1}, {@code 1.0}, {@code 1e3} or a longer number
     */
    public long count() {
        whitespace();
        int start = pos;
        long value = 0;
        while (pos < end && data[pos] >= '0' && data[pos] <= '9' && pos - start < MAX_COUNT_DIGITS + 1) {
            value = value * 10 + (data[pos] - '0');
            pos++;
        }
        int digits = pos - start;
        if (digits == 0 || digits > MAX_COUNT_DIGITS || (digits > 1 && data[start] == '0') || pos >= end) {
            return -1;
        }
        byte b = data[pos];
        boolean delimited = b == ',' || b == '}' || b == ']' || b == ' ' || b == '\n' || b == '\r' || b == '\t';
        return delimited ? value : -1;
    }

    /**
     * Tells whether a number is next (a {@code -} or a digit, after optional whitespace), without
     * consuming it.
     *
     * @return true if a number starts next
     */
    public boolean atNumber() {
        whitespace();
        return pos < end && (data[pos] == '-' || (data[pos] >= '0' && data[pos] <= '9'));
    }

    /** Tells whether the bytes from {@code from} to {@code to} hold a backslash. */
    private boolean hasBackslash(int from, int to) {
        for (int i = from; i < to; i++) {
            if (data[i] == '\\') {
                return true;
            }
        }
        return false;
    }
}
