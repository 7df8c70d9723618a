package dev.ruminate.providers.internal;

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
        while (pos < end) {
            byte b = data[pos];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return;
            }
            pos++;
        }
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
        int start = pos;
        int limit = Math.min(end, start + MAX_NAME_LENGTH);
        while (pos < limit) {
            byte b = data[pos];
            if (b == '"') {
                nameStart = start;
                nameLength = pos - start;
                pos++;
                return take(':');
            }
            if (b < 0x20 || b == '\\') { // negative: a non-ASCII byte
                return false;
            }
            pos++;
        }
        return false;
    }

    /**
     * Tells whether the name last read by {@link #name()} is {@code name}.
     *
     * @param name the name's bytes (ASCII)
     * @return true if equal
     */
    public boolean nameIs(byte[] name) {
        return name.length == nameLength && Arrays.equals(data, nameStart, nameStart + nameLength, name, 0, nameLength);
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
        int start = ++pos;
        int limit = Math.min(end, start + MAX_STRING_BYTES);
        boolean ascii = true;
        while (pos < limit) {
            byte b = data[pos];
            if (b == '"') {
                if (keep) {
                    string = new String(data, start, pos - start,
                            ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
                }
                pos++;
                return true;
            }
            if (b == '\\') {
                return escaped(start, keep);
            }
            if (b >= 0 && b < 0x20) {
                return false;
            }
            if (b < 0) {
                int n = utf8Length(pos);
                if (n == 0) {
                    return false;
                }
                ascii = false;
                pos += n;
            } else {
                pos++;
            }
        }
        return false;
    }

    /** Reads a string with escapes from its first byte at {@code start}, decoding into the char buffer. */
    private boolean escaped(int start, boolean keep) {
        int limit = Math.min(end, start + MAX_STRING_BYTES);
        int n = 0;
        pos = start;
        while (pos < limit) {
            if (n + 2 > chars.length) {
                chars = Arrays.copyOf(chars, chars.length * 2);
            }
            int b = data[pos];
            if (b == '"') {
                if (keep) {
                    string = new String(chars, 0, n);
                }
                pos++;
                return true;
            }
            if (b == '\\') {
                if (pos + 1 >= limit) {
                    return false;
                }
                byte e = data[pos + 1];
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
                        if (pos + 6 > limit) {
                            return false;
                        }
                        int v = 0;
                        for (int i = pos + 2; i < pos + 6; i++) {
                            int h = hex(data[i]);
                            if (h < 0) {
                                return false;
                            }
                            v = (v << 4) | h;
                        }
                        chars[n++] = (char) v;
                        pos += 6;
                        continue;
                    }
                    default -> {
                        return false;
                    }
                }
                chars[n++] = c;
                pos += 2;
            } else if (b >= 0 && b < 0x20) {
                return false;
            } else if (b >= 0) {
                chars[n++] = (char) b;
                pos++;
            } else {
                int len = utf8Length(pos);
                int b0 = b & 0xff;
                switch (len) {
                    case 2 -> chars[n++] = (char) (((b0 & 0x1f) << 6) | (data[pos + 1] & 0x3f));
                    case 3 -> chars[n++] = (char) (((b0 & 0x0f) << 12) | ((data[pos + 1] & 0x3f) << 6) | (data[pos + 2] & 0x3f));
                    case 4 -> {
                        int cp = ((b0 & 0x07) << 18) | ((data[pos + 1] & 0x3f) << 12) | ((data[pos + 2] & 0x3f) << 6)
                                | (data[pos + 3] & 0x3f);
                        chars[n++] = Character.highSurrogate(cp);
                        chars[n++] = Character.lowSurrogate(cp);
                    }
                    default -> {
                        return false;
                    }
                }
                pos += len;
            }
        }
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
