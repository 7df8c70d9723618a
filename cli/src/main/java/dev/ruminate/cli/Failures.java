package dev.ruminate.cli;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.error.TransportException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;

/**
 * Says in one line what went wrong, cause first, in words a person reads: never an exception's class
 * name (a transport error's cause is a Netty exception whose name says nothing to a user).
 */
final class Failures {

    private Failures() {
    }

    /**
     * Describes a typed failure: the cause of a transport error (connection refused, unknown host,
     * TLS, a closed connection) with where it was going; a timeout as its phase and limit; any other
     * as its own message, which already leads with the cause.
     */
    static String describe(RuminateException e) {
        if (e instanceof TransportException t) {
            return transport(t);
        }
        if (e instanceof StreamTimeoutException timeout) {
            return timeout.getMessage() + switch (timeout.phase()) {
                case CONNECT -> " (the server did not accept the connection)";
                case FIRST_EVENT -> " (the server sent nothing back)";
                case IDLE -> " (the stream stalled)";
                case TOTAL -> " (the whole call took too long)";
            };
        }
        return String.valueOf(e.getMessage());
    }

    /** Describes an unexpected failure: its message, or what it is when it has none; never its class name alone. */
    static String describeUnexpected(Throwable e) {
        if (e instanceof RuminateException r) {
            return describe(r);
        }
        String message = e.getMessage();
        return message != null && !message.isBlank() ? message : "an unexpected " + e.getClass().getSimpleName();
    }

    /**
     * Says why a file could not be read, as a phrase that follows its name: never the exception's
     * class name, and never anything of the file's content (an I/O error holds none).
     */
    static String fileProblem(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "not readable (permission denied)";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return "cannot be read: " + f.getReason();
        }
        String message = e.getMessage();
        return "cannot be read" + (message != null && !message.isBlank() ? ": " + message : "");
    }

    private static String transport(TransportException e) {
        String where = target(String.valueOf(e.getMessage()));
        String cause = cause(e.getCause());
        return (cause != null ? cause : "the connection failed") + (where != null ? " (" + where + ")" : "");
    }

    /** The request line a transport error's message starts with ({@code POST URL failed: …}). */
    private static @Nullable String target(String message) {
        int failed = message.indexOf(" failed: ");
        return message.startsWith("POST ") && failed > 0 ? message.substring(0, failed) : null;
    }

    private static @Nullable String cause(@Nullable Throwable cause) {
        for (Throwable c = cause; c != null; c = c.getCause()) {
            if (c instanceof UnknownHostException) {
                return "unknown host " + firstWord(c.getMessage());
            }
            if (c instanceof NoRouteToHostException) {
                return "no route to the host";
            }
            if (c instanceof ConnectException) {
                return "cannot connect: " + (c.getMessage() != null && c.getMessage().toLowerCase(java.util.Locale.ROOT)
                        .contains("refused") ? "connection refused" : "the connection failed");
            }
            if (c instanceof SSLException) {
                return "the TLS handshake failed" + (c.getMessage() != null ? ": " + c.getMessage() : "");
            }
            if (c instanceof ClosedChannelException || c.getClass().getSimpleName().equals("PrematureCloseException")) {
                return "the server closed the connection before answering";
            }
        }
        if (cause != null && cause.getMessage() != null && !cause.getMessage().isBlank()) {
            return "the connection failed: " + cause.getMessage();
        }
        return null;
    }

    private static String firstWord(@Nullable String message) {
        if (message == null || message.isBlank()) {
            return "(unnamed)";
        }
        String s = message.strip();
        int space = s.indexOf(' ');
        int colon = s.indexOf(':');
        int end = space < 0 ? s.length() : space;
        if (colon > 0 && colon < end) {
            end = colon;
        }
        return s.substring(0, end);
    }
}
