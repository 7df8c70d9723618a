package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/** The module ships Spring Boot configuration metadata, so IDEs know the {@code ruminate.*} properties. */
class ConfigurationMetadataTest {

    @Test
    void theProvidersMapIsDescribedWithItsType() throws IOException {
        Map<String, Map<String, String>> properties;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("META-INF/spring-configuration-metadata.json on the class path").isNotNull();
            properties = properties(in);
        }
        Map<String, String> providers = properties.get("ruminate.providers");
        assertThat(providers).as("ruminate.providers").isNotNull();
        assertThat(providers.get("type")).contains(ProviderProperties.class.getName());
        assertThat(providers.get("description")).contains("keyed by name");
    }

    /** The string fields of each entry of the top-level {@code properties} array, by property name. */
    private static Map<String, Map<String, String>> properties(InputStream in) {
        Map<String, Map<String, String>> byName = new HashMap<>();
        try (JsonParser p = new JsonFactory().createParser(ObjectReadContext.empty(), in)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String section = p.currentName();
                p.nextToken();
                if (!section.equals("properties")) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    Map<String, String> fields = new HashMap<>();
                    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                        String field = p.currentName();
                        if (p.nextToken() == JsonToken.VALUE_STRING) {
                            fields.put(field, p.getString());
                        } else {
                            p.skipChildren();
                        }
                    }
                    byName.put(fields.get("name"), fields);
                }
            }
        }
        return byName;
    }
}
