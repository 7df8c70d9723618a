package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The module ships Spring Boot configuration metadata, so IDEs know the {@code ruminate.*} properties. */
class ConfigurationMetadataTest {

    @Test
    void theProvidersMapIsDescribedWithItsType() throws IOException {
        Object metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("META-INF/spring-configuration-metadata.json on the class path").isNotNull();
            metadata = JsonPath.parse(in).json();
        }
        List<String> types = JsonPath.read(metadata, "$.properties[?(@.name == 'ruminate.providers')].type");
        List<String> descriptions =
                JsonPath.read(metadata, "$.properties[?(@.name == 'ruminate.providers')].description");

        assertThat(types).as("ruminate.providers").singleElement().asString()
                .contains(ProviderProperties.class.getName());
        assertThat(descriptions).singleElement().asString().contains("keyed by name");
    }
}
