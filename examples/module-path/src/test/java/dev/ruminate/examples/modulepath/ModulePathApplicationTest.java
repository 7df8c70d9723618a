package dev.ruminate.examples.modulepath;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts {@link ModulePathExample} as a user would run a module-path application: {@code java
 * --module-path <its runtime jars> -m <module>/<main class>}, with no other flag, and checks that
 * it streams the README example's answer and reaches a TLS handshake.
 */
class ModulePathApplicationTest {

    private static final String MAIN = "dev.ruminate.examples.modulepath/" + ModulePathExample.class.getName();

    @Test
    void readmeExampleRunsOnTheModulePathWithoutExtraFlags(@TempDir Path dir) throws Exception {
        String modulePath = property("example.classes") + File.pathSeparator
                + Files.readString(Path.of(property("example.modulePathFile"))).strip();
        Path stderr = dir.resolve("stderr.txt");
        Process process = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", modulePath,
                "-m", MAIN)
                .redirectError(stderr.toFile())
                .start();
        process.getOutputStream().close();
        // stdout is drained before waiting, so a chatty child cannot block on a full pipe
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String errors = Files.readString(stderr);

        assertThat(exited).as("the application exited; stderr:%n%s", errors).isTrue();
        assertThat(process.exitValue()).as("exit status; stdout:%n%s%nstderr:%n%s", stdout, errors).isZero();
        assertThat(stdout.lines()).as("stderr:%n%s", errors).containsExactly(
                ModulePathExample.REASONING, "---", ModulePathExample.ANSWER, "https: the TLS handshake ran");
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        assertThat(value).as("system property %s (set by the pom for Surefire)", name).isNotBlank();
        return value;
    }
}
