package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs test classes that use {@link NettyLeakCheck} through the JUnit Platform and checks what
 * the extension makes of them: a class that drops a buffer unreleased fails with Netty's leak
 * record, a class that releases its buffers passes.
 */
class NettyLeakCheckTest {

    private static ResourceLeakDetector.Level levelBefore = ResourceLeakDetector.Level.SIMPLE;

    // Only tracked buffers can be reported: every allocation is tracked at this level, whatever
    // the JVM was started with.
    @BeforeAll
    static void trackEveryBuffer() {
        levelBefore = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @AfterAll
    static void restoreLevel() {
        ResourceLeakDetector.setLevel(levelBefore);
    }

    @Test
    void failsTheClassThatDropsABufferUnreleased() {
        TestExecutionSummary summary = run(DropsABuffer.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getFailures()).singleElement().satisfies(failure -> assertThat(failure.getException())
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("1 Netty buffer leak(s) reported while")
                .hasMessageContaining("LEAK: ByteBuf")
                .hasMessageContaining(DropsABuffer.class.getName() + ".allocateAndForget"));
    }

    @Test
    void passesTheClassThatReleasesItsBuffers() {
        TestExecutionSummary summary = run(ReleasesItsBuffer.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getFailures()).isEmpty();
    }

    private static TestExecutionSummary run(Class<?> testClass) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(
                LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
        return listener.getSummary();
    }

    // Nested, so that Surefire does not run them on their own; the launcher above does.
    @ExtendWith(NettyLeakCheck.class)
    static class DropsABuffer {

        @Test
        void allocateAndForget() {
            ByteBuf buffer = Unpooled.directBuffer(16);
            buffer.writeInt(42);
        }
    }

    @ExtendWith(NettyLeakCheck.class)
    static class ReleasesItsBuffer {

        @Test
        void allocateAndRelease() {
            ByteBuf buffer = Unpooled.directBuffer(16);
            buffer.writeInt(42);
            buffer.release();
        }
    }
}
