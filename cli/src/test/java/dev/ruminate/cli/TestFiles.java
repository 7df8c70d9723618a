package dev.ruminate.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** Small files of each kind the request options read, written where a test says. */
final class TestFiles {

    /** A real 1×1 PNG. */
    static final byte[] PNG = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");

    /** The start of a JPEG (SOI and an APP0 marker), enough to be told by its first bytes. */
    static final byte[] JPEG = {(byte) 0xff, (byte) 0xd8, (byte) 0xff, (byte) 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0};

    /** A minimal PDF: its header is what tells it. */
    static final byte[] PDF = "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
            .getBytes(StandardCharsets.US_ASCII);

    /** A schema with two properties whose names the tests look for in the request body. */
    static final String SCHEMA = """
            {"type": "object",
             "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
             "required": ["city", "population"], "additionalProperties": false}
            """;

    private TestFiles() {
    }

    static String write(Path dir, String name, byte[] data) {
        try {
            return Files.write(dir.resolve(name), data).toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String write(Path dir, String name, String text) {
        return write(dir, name, text.getBytes(StandardCharsets.UTF_8));
    }

    static String base64(byte[] data) {
        return Base64.getEncoder().encodeToString(data);
    }
}
