package dev.ruminate.core.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The BOM users import pins the libraries our API exposes to the versions the build uses. The BOM is standalone
 * (it must not inherit the parent's management), so its versions are written twice; this keeps them equal.
 */
class BomVersionsTest {

    private static final List<String> PINNED = List.of("reactor-bom.version", "jackson-bom.version", "slf4j.version");

    @Test
    void theBomPinsWhatTheBuildUses() throws IOException {
        String parent = Files.readString(Path.of("..", "pom.xml"));
        String bom = Files.readString(Path.of("..", "sdk-bom", "pom.xml"));
        for (String property : PINNED) {
            assertThat(property(bom, property)).as(property).isEqualTo(property(parent, property));
        }
        assertThat(bom).contains("<artifactId>reactor-bom</artifactId>", "<artifactId>jackson-bom</artifactId>",
                "<artifactId>slf4j-api</artifactId>");
    }

    @Test
    void noSlf4jOneComesFromTheBuild() throws IOException {
        assertThat(property(Files.readString(Path.of("..", "pom.xml")), "slf4j.version")).startsWith("2.");
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">").matcher(pom);
        assertThat(m.find()).as("%s is set", name).isTrue();
        return m.group(1).trim();
    }
}
