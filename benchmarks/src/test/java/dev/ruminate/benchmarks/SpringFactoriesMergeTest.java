package dev.ruminate.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The shaded benchmarks jar carries {@code src/shade/spring.factories} in place of the {@code spring.factories} of
 * its jars (the shade plugin cannot merge them): it must hold exactly what those files hold together, key by key,
 * or the gateway would start without some of Boot's parts inside the jar. When a Spring upgrade fails this test,
 * regenerate the file with {@code src/shade/merge-spring-factories.py}.
 */
class SpringFactoriesMergeTest {

    @Test
    void theShadedFileIsTheMergeOfTheClassPathsFiles() throws IOException {
        Map<String, Set<String>> classPath = new TreeMap<>();
        for (URL url : Collections.list(getClass().getClassLoader().getResources("META-INF/spring.factories"))) {
            try (InputStream in = url.openStream()) {
                add(classPath, in);
            }
        }
        Map<String, Set<String>> shaded = new TreeMap<>();
        try (InputStream in = Files.newInputStream(Path.of("src/shade/spring.factories"))) {
            add(shaded, in);
        }
        assertThat(classPath).containsKey("org.springframework.boot.EnvironmentPostProcessor");
        assertThat(shaded.keySet()).isEqualTo(classPath.keySet());
        classPath.forEach((key, values) -> assertThat(shaded.get(key)).as(key).containsExactlyElementsOf(values));
    }

    private static void add(Map<String, Set<String>> into, InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        for (String key : p.stringPropertyNames()) {
            List<String> values = new ArrayList<>();
            for (String v : p.getProperty(key).split(",")) {
                if (!v.isBlank()) {
                    values.add(v.strip());
                }
            }
            into.computeIfAbsent(key, k -> new LinkedHashSet<>()).addAll(values);
        }
    }
}
