package dev.ruminate.gateway.state;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The sealed plaintext's encoding: one byte, then the bytes as they are ({@code 0}) or raw DEFLATE
 * ({@code 1}), whichever is shorter. Reasoning text and the message form's repeated text (the
 * answer and reasoning are written both as parts and as legacy fields) deflate well; a lone
 * signature (base64, near random) does not, and is then left as is.
 */
final class Compression {

    private static final byte PLAIN = 0;
    private static final byte DEFLATED = 1;

    private Compression() {
    }

    static byte[] encode(byte[] bytes) {
        byte[] deflated = deflate(bytes);
        byte[] out;
        if (deflated.length < bytes.length) {
            out = new byte[deflated.length + 1];
            out[0] = DEFLATED;
            System.arraycopy(deflated, 0, out, 1, deflated.length);
        } else {
            out = new byte[bytes.length + 1];
            out[0] = PLAIN;
            System.arraycopy(bytes, 0, out, 1, bytes.length);
        }
        return out;
    }

    /**
     * Decodes; called only on authenticated plaintext, which this gateway encoded.
     *
     * @throws IllegalArgumentException when the encoding byte or the deflated data is not valid
     */
    static byte[] decode(byte[] encoded) {
        if (encoded.length == 0) {
            throw new IllegalArgumentException("empty");
        }
        byte[] body = Arrays.copyOfRange(encoded, 1, encoded.length);
        return switch (encoded[0]) {
            case PLAIN -> body;
            case DEFLATED -> inflate(body);
            default -> throw new IllegalArgumentException("unknown encoding");
        };
    }

    private static byte[] deflate(byte[] bytes) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        try {
            deflater.setInput(bytes);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 2 + 64);
            byte[] buffer = new byte[8192];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    private static byte[] inflate(byte[] bytes) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(bytes);
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length * 3);
            byte[] buffer = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("truncated deflate data");
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("invalid deflate data", e);
        } finally {
            inflater.end();
        }
    }
}
