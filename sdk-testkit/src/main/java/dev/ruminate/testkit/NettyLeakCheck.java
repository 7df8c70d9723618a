package dev.ruminate.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a JUnit 5 test class when Netty's leak detector reports a {@link ByteBuf} that was
 * garbage-collected without being released while the class ran.
 *
 * <p>Netty only logs a leak; on its own a leaking test still passes. Register the extension on
 * every test class that moves Netty buffers or makes HTTP calls through Reactor Netty:
 *
 * <pre>{@code
 * @ExtendWith(NettyLeakCheck.class)
 * class MyClientTest { … }
 * }</pre>
 *
 * <p>It listens to the leak detector that every Netty buffer allocator shares, so it works
 * whichever logging backend Netty uses. It receives that detector through Netty's public
 * {@link ResourceLeakDetectorFactory} when its first checked class starts before anything has
 * used Netty's buffers, and then needs no JVM flag on the module path. If buffers were used
 * earlier (by a class without the extension, or a static initializer), it reads the detector by
 * reflection, which works on the class path; on the module path that takes
 * {@code --add-opens io.netty.buffer/io.netty.buffer=}<i>this module</i>, and without it the class
 * fails with an {@link ExtensionConfigurationException} that says so. After the class
 * it runs the garbage collector, waits (boundedly) until the collector has processed references,
 * and makes the detector look for collected unreleased buffers, which it otherwise does only when
 * it tracks a new allocation. The class then fails with Netty's leak records in the message.
 * Netty still logs each report as usual.
 *
 * <p><b>What it can see.</b> Only tracked buffers can be reported: at Netty's default level one
 * allocation in 128 is tracked, so run tests with {@code -Dio.netty.leakDetection.level=paranoid}
 * (every allocation, with access records). Netty skips reporting altogether when error logging is
 * off for {@code io.netty.util.ResourceLeakDetector}. A buffer the collector has not reclaimed
 * by the end of the class may escape, or be reported in a later class; a report is never made up,
 * so the check cannot fail spuriously. Leaks reported between two checked classes are blamed on
 * the next checked class.
 *
 * <p><b>Threading.</b> Reports may come from any thread (an event loop usually); they are kept in
 * one JVM-wide list that every registered class shares, so under parallel class execution a leak
 * may be blamed on a class running at the same time. The extension replaces any
 * {@linkplain ResourceLeakDetector#setLeakListener leak listener} set on the buffer detector by
 * other code.
 *
 * <p>Needs {@code org.junit.jupiter:junit-jupiter-api} on the test classpath (an optional
 * dependency of this module).
 *
 * @since 0.1
 */
// JUnit's types in the signatures: a test that registers the extension requires JUnit itself.
@SuppressWarnings("exports")
public final class NettyLeakCheck implements BeforeAllCallback, AfterAllCallback {

    private static final int ROUNDS = 3;
    private static final long COLLECTION_WAIT_MILLIS = 2_000;
    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
    private static @Nullable ResourceLeakDetector<ByteBuf> detector;

    /**
     * Creates the extension; JUnit calls this for {@code @ExtendWith(NettyLeakCheck.class)}.
     */
    public NettyLeakCheck() {
    }

    /**
     * Starts listening to the buffer leak detector, once per JVM.
     *
     * @param context the test class's context
     * @throws ExtensionConfigurationException if the buffer leak detector cannot be reached (see
     *         the class comment)
     */
    @Override
    public void beforeAll(ExtensionContext context) {
        listen();
    }

    /**
     * Collects garbage, has the detector report what it finds, and fails if anything was reported.
     *
     * @param context the test class's context
     * @throws AssertionError naming every leak reported since the previous check
     */
    @Override
    public void afterAll(ExtensionContext context) {
        ResourceLeakDetector<ByteBuf> listened = listen();
        for (int round = 0; round < ROUNDS && LEAKS.isEmpty(); round++) {
            collectGarbage();
            provokeReport(listened);
        }
        if (LEAKS.isEmpty()) {
            return;
        }
        List<String> found = List.copyOf(LEAKS);
        LEAKS.removeAll(found);
        throw new AssertionError(found.size() + " Netty buffer leak(s) reported while "
                + context.getDisplayName() + " ran (a ByteBuf was garbage-collected without release()):\n"
                + String.join("\n", found));
    }

    private static synchronized ResourceLeakDetector<ByteBuf> listen() {
        ResourceLeakDetector<ByteBuf> d = detector;
        if (d == null) {
            d = byteBufDetector();
            d.setLeakListener((resourceType, records) -> LEAKS.add(
                    "LEAK: " + resourceType + (records.isEmpty() ? " (no access records)" : records)));
            detector = d;
        }
        return d;
    }

    // Every allocator tracks its buffers with one static detector, which Netty does not expose: it
    // asks ResourceLeakDetectorFactory for it when its buffer classes are initialized. A factory
    // installed before that moment is handed the detector through Netty's public API, which needs
    // no access to io.netty.buffer's internals (on the module path, no --add-opens). Listening to
    // the detector, instead of to Netty's logger, does not depend on which logging backend Netty
    // picked.
    private static ResourceLeakDetector<ByteBuf> byteBufDetector() {
        ResourceLeakDetectorFactory previous = ResourceLeakDetectorFactory.instance();
        CapturingFactory capturing = new CapturingFactory(previous);
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(capturing);
        try {
            Unpooled.buffer(1).release(); // initializes the buffer classes, unless something already has
        } finally {
            ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(previous);
        }
        ResourceLeakDetector<ByteBuf> captured = capturing.byteBufDetector;
        return captured != null ? captured : initializedEarlierDetector();
    }

    // Netty's buffer classes were initialized before the first checked class started (by a class
    // without this extension, or by a static initializer); their detector is then reachable only
    // by reflection, which works on the class path or where io.netty.buffer is open.
    @SuppressWarnings("unchecked")
    private static ResourceLeakDetector<ByteBuf> initializedEarlierDetector() {
        try {
            Field field = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
            field.setAccessible(true);
            return (ResourceLeakDetector<ByteBuf>) field.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExtensionConfigurationException("NettyLeakCheck cannot reach the buffer leak detector: "
                    + "Netty's buffers were in use before the first test class with NettyLeakCheck started, "
                    + "and io.netty.buffer is not open to reflection. Register NettyLeakCheck on every test "
                    + "class that uses Netty, or open io.netty.buffer/io.netty.buffer to this module", e);
        }
    }

    /**
     * Hands out the detectors of the factory it replaces, keeping the one made for buffers. Netty
     * may call it from any thread.
     */
    private static final class CapturingFactory extends ResourceLeakDetectorFactory {

        private final ResourceLeakDetectorFactory delegate;
        private volatile @Nullable ResourceLeakDetector<ByteBuf> byteBufDetector;

        CapturingFactory(ResourceLeakDetectorFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
            return keep(resource, delegate.newResourceLeakDetector(resource, samplingInterval));
        }

        // Netty deprecates this form but still declares it abstract; it must pass through too.
        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                long maxActive) {
            return keep(resource, delegate.newResourceLeakDetector(resource, samplingInterval, maxActive));
        }

        @SuppressWarnings("unchecked")
        private <T> ResourceLeakDetector<T> keep(Class<T> resource, ResourceLeakDetector<T> made) {
            if (resource == ByteBuf.class) {
                byteBufDetector = (ResourceLeakDetector<ByteBuf>) made;
            }
            return made;
        }
    }

    // The detector finds collected buffers only while it tracks a new one; a forced track does
    // that at any detection level.
    private static void provokeReport(ResourceLeakDetector<ByteBuf> listened) {
        ByteBuf probe = Unpooled.buffer(1);
        ResourceLeakTracker<ByteBuf> tracker = listened.trackForcibly(probe);
        tracker.close(probe);
        probe.release();
    }

    // Waits for a reference cleared by this collection to be enqueued, which is when the leaked
    // buffers' references become visible to the detector, instead of sleeping for a guessed time.
    private static void collectGarbage() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        System.gc();
        try {
            queue.remove(COLLECTION_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Reference.reachabilityFence(sentinel);
        }
    }
}
