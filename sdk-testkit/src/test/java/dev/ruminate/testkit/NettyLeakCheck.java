package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty's leak detector reported a leaked buffer while it ran.
 *
 * <p>The build runs Netty's detector at paranoid level, but with SLF4J present and no binding its
 * reports go to a no-op logger. This extension routes Netty's own logging to java.util.logging
 * (before any Netty buffer class initializes) and records the detector's reports. After the
 * class it collects garbage and allocates a few tracked buffers, which is when the detector
 * reports buffers that were collected unreleased. A leak can escape if the collector has not
 * reclaimed it yet, but a report is never made up: the check cannot fail spuriously.
 */
final class NettyLeakCheck implements AfterAllCallback {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
    // java.util.logging holds loggers weakly; keep this one so that the handler stays attached.
    private static final Logger DETECTOR_LOG;

    static {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        DETECTOR_LOG = Logger.getLogger(ResourceLeakDetector.class.getName());
        DETECTOR_LOG.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    LEAKS.add(String.valueOf(record.getMessage()));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    @Override
    public void afterAll(ExtensionContext context) {
        for (int round = 0; round < 3 && LEAKS.isEmpty(); round++) {
            System.gc();
            ByteBuf probe = PooledByteBufAllocator.DEFAULT.buffer(8);
            probe.release();
        }
        List<String> found = List.copyOf(LEAKS);
        LEAKS.clear();
        assertThat(found).as("Netty leak reports").isEmpty();
    }
}
