package dev.ruminate.gateway.secrets;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Every log line of the JVM at DEBUG, captured as Logback renders it (message, then the throwable
 * with its causes and suppressed exceptions), so that a test can search them. The gateway module
 * logs through SLF4J to Logback, as Spring Boot sets it up; the root logger is set to DEBUG while
 * captured and put back on {@link #stop()}.
 *
 * <p>Thread-safe: Netty's event loops log while the test reads.
 */
final class CapturedLogs extends AppenderBase<ILoggingEvent> {

    private final List<String> lines = new ArrayList<>();
    private final List<String> loggers = new ArrayList<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private Level previous = Level.INFO;
    /** The root's own appenders (the console), detached while captured: DEBUG output of a whole run would flood it. */
    private final List<Appender<ILoggingEvent>> silenced = new ArrayList<>();

    /** Attaches to the root logger and turns it to DEBUG; call again after Spring Boot re-initialises logging. */
    CapturedLogs attach() {
        setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        previous = root.getLevel();
        root.setLevel(Level.DEBUG);
        root.detachAppender(this);
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            Appender<ILoggingEvent> other = it.next();
            silenced.add(other);
        }
        silenced.forEach(root::detachAppender);
        root.addAppender(this);
        if (!isStarted()) {
            start();
        }
        return this;
    }

    @Override
    protected void append(ILoggingEvent event) {
        String text = event.getLevel() + " " + event.getLoggerName() + " " + event.getFormattedMessage()
                + (event.getThrowableProxy() != null ? "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy()) : "");
        synchronized (lines) {
            lines.add(text);
            loggers.add(event.getLoggerName() + ":" + event.getLevel());
        }
    }

    /** Every line so far, joined. */
    String text() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    /** How many lines at DEBUG a logger whose name starts with the prefix wrote: proof that DEBUG was on. */
    long debugLinesFrom(String prefix) {
        synchronized (lines) {
            return loggers.stream().filter(l -> l.startsWith(prefix) && l.endsWith(":DEBUG")).count();
        }
    }

    void clear() {
        synchronized (lines) {
            lines.clear();
            loggers.clear();
        }
    }

    /** Detaches and puts the root level back. */
    @Override
    public void stop() {
        root.detachAppender(this);
        silenced.forEach(root::addAppender);
        silenced.clear();
        root.setLevel(previous);
        super.stop();
    }
}
