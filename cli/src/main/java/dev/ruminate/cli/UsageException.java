package dev.ruminate.cli;

/** A command line the command cannot run: wrong or missing arguments. */
final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
