package dev.ruminate.cli;

/**
 * A file or value given on the command line that cannot be used, found before any request is made:
 * a file that is missing, a directory, unreadable or empty, of a type the option does not take, a
 * schema that is not a JSON object, or input the provider does not accept. Reported as one line
 * that names the option and the file and says what is wrong (never the file's content), with the
 * usage-error exit status; unlike a {@link UsageException} it is not followed by a pointer to
 * {@code --help}, which would not help.
 */
final class InputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    InputException(String message) {
        super(message);
    }
}
