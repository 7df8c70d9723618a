package dev.ruminate.providers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The AWS SDK and Google's auth library are optional dependencies: this runs
 * {@link WithoutCredentialLibraries} in a class loader holding the module's classes and every
 * dependency except those two, as an application that did not add them has, and checks that explicit
 * credentials sign and a fixed token authorises as usual, and that naming a chain says which
 * artifacts it needs instead of failing with a bare linkage error.
 */
class OptionalCredentialLibrariesTest {

    private static boolean credentialLibrary(String entry) {
        String path = entry.replace(File.separatorChar, '/');
        return path.contains("/software/amazon/awssdk/") || path.contains("/com/google/auth/");
    }

    /**
     * Loads every class it holds itself: the JDK's built-in loaders map the packages of the test's own
     * modules (this module, Reactor, Netty) to the application loader, which would serve them from the
     * real module path, libraries and all, even to a loader whose parent is the platform loader.
     */
    private static final class ChildFirst extends URLClassLoader {
        ChildFirst(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    // only the JDK's own classes come from the parent; anything else is ours or absent
                    loaded = jdk(name) ? super.loadClass(name, false) : findClass(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private static boolean jdk(String name) {
            return Stream.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "org.w3c.", "org.xml.", "org.ietf.")
                    .anyMatch(name::startsWith);
        }
    }

    @Test
    void explicitCredentialsWorkWithoutTheCredentialLibraries() throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(Path.of("target", "test-classes").toAbsolutePath().toUri().toURL());
        List<String> removed = new ArrayList<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            String value = System.getProperty(property, "");
            for (String entry : value.split(File.pathSeparator)) {
                if (entry.isEmpty() || !Files.exists(Path.of(entry))) {
                    continue;
                }
                if (credentialLibrary(entry)) {
                    removed.add(entry);
                } else {
                    urls.add(Path.of(entry).toUri().toURL());
                }
            }
        }
        // the libraries were there to remove: otherwise this test would prove nothing
        assertThat(removed).anyMatch(e -> e.contains("awssdk")).anyMatch(e -> e.contains("google"));

        List<String> seen;
        try (URLClassLoader isolated = new ChildFirst(urls.toArray(URL[]::new))) {
            Class<?> probe = Class.forName(WithoutCredentialLibraries.class.getName(), true, isolated);
            assertThat(probe.getClassLoader()).isSameAs(isolated);
            @SuppressWarnings("unchecked")
            Callable<List<String>> run = (Callable<List<String>>) probe.getDeclaredConstructor().newInstance();
            seen = run.call();
        }

        assertThat(seen).hasSize(8);
        assertThat(seen.get(3)).startsWith("bedrock AWS4-HMAC-SHA256 Credential=AKIDEXPLICIT/");
        assertThat(seen).containsSequence(
                "absent software.amazon.awssdk.auth.credentials.AwsCredentialsProvider",
                "absent software.amazon.awssdk.regions.Region",
                "absent com.google.auth.oauth2.GoogleCredentials");
        assertThat(seen.subList(4, 8)).containsExactly(
                "bedrock token explicit-token",
                "vertex Bearer ya29.fixed",
                "bedrock chain: credentials default-chain of bedrock needs software.amazon.awssdk:auth and "
                        + "software.amazon.awssdk:regions on the class path",
                "vertex chain: credentials default-chain of vertex needs com.google.auth:google-auth-library-oauth2-http"
                        + " on the class path");
    }
}
