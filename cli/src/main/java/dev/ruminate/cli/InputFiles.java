package dev.ruminate.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file named by an option ({@code --image}, {@code --document}, {@code --json-schema}) whole,
 * turning every reason it cannot be used into an {@link InputException} that names the option and
 * the file: missing, a directory, not readable, empty, or larger than any provider takes inline.
 * Stateless.
 */
final class InputFiles {

    /**
     * The most the command reads of one file: more than any provider takes inline (Gemini's 20 MB,
     * Anthropic's 32 MB request), so a provider's own, lower limit is what refuses a large file,
     * while a file picked by mistake (a video, a disk image) is not read into memory.
     */
    static final long MAX_BYTES = 64L * 1024 * 1024;

    private InputFiles() {
    }

    /**
     * Reads a file.
     *
     * @param option the option that named it, without dashes, for the message
     * @param file the file as given
     * @return its bytes, at least one
     * @throws InputException when it cannot be used
     */
    static byte[] read(String option, String file) {
        Path path = Path.of(file);
        if (Files.isDirectory(path)) {
            throw problem(option, file, "a directory, not a file");
        }
        try {
            long size = Files.size(path);
            if (size > MAX_BYTES) {
                throw problem(option, file, megabytes(size) + ", over the " + megabytes(MAX_BYTES)
                        + " the command reads (no provider takes that much inline)");
            }
            byte[] data = Files.readAllBytes(path);
            if (data.length == 0) {
                throw problem(option, file, "the file is empty");
            }
            return data;
        } catch (IOException e) {
            throw problem(option, file, Failures.fileProblem(e));
        }
    }

    /**
     * Makes the error about a file.
     *
     * @param option the option, without dashes
     * @param file the file as given
     * @param what what is wrong, a phrase that follows the file's name
     * @return the error
     */
    static InputException problem(String option, String file, String what) {
        return new InputException("--" + option + " " + file + ": " + what);
    }

    private static String megabytes(long bytes) {
        return (bytes + 1024 * 1024 - 1) / (1024 * 1024) + " MB";
    }
}
