package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.providers.ProviderKinds;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The module ships Spring Boot configuration metadata, so IDEs know the {@code ruminate.*} properties. */
class ConfigurationMetadataTest {

    private Object metadata() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("META-INF/spring-configuration-metadata.json on the class path").isNotNull();
            return JsonPath.parse(in).json();
        }
    }

    @Test
    void theProvidersMapIsDescribedWithItsType() throws IOException {
        Object metadata = metadata();
        List<String> types = JsonPath.read(metadata, "$.properties[?(@.name == 'ruminate.providers')].type");
        List<String> descriptions =
                JsonPath.read(metadata, "$.properties[?(@.name == 'ruminate.providers')].description");

        assertThat(types).as("ruminate.providers").singleElement().asString()
                .contains(ProviderProperties.class.getName());
        assertThat(descriptions).singleElement().asString().contains("keyed by name");
    }

    @Test
    void theKindHintsAreEveryKindAndAliasTheRegistryKnows() throws IOException {
        List<String> values = JsonPath.read(metadata(), "$.hints[?(@.name == 'ruminate.providers.values.kind')].values[*].value");
        List<String> descriptions =
                JsonPath.read(metadata(), "$.hints[?(@.name == 'ruminate.providers.values.kind')].values[*].description");
        List<String> known = ProviderKinds.all().stream()
                .flatMap(kind -> Stream.concat(Stream.of(kind.name()), kind.aliases().stream())).toList();

        // Authored in additional-spring-configuration-metadata.json: a kind added to the registry fails this until listed.
        assertThat(values).containsExactlyInAnyOrderElementsOf(known);
        assertThat(descriptions).hasSameSizeAs(values).allSatisfy(d -> assertThat(d).isNotBlank());
    }

    @Test
    void theEffortHintsAreTheReasoningEfforts() throws IOException {
        List<String> values = JsonPath.read(metadata(),
                "$.hints[?(@.name == 'ruminate.providers.values.reasoning.effort')].values[*].value");

        assertThat(values).containsExactlyElementsOf(
                Arrays.stream(ReasoningEffort.values()).map(ReasoningEffort::wireName).toList());
    }

    @Test
    void theObservationAndHealthPropertiesAreDescribedWithTheirDefaults() throws IOException {
        Object metadata = metadata();
        for (String name : List.of("ruminate.observations.capture-content", "ruminate.health.probe",
                "ruminate.health.probe-timeout", "management.health.ruminate.enabled")) {
            List<String> descriptions = JsonPath.read(metadata, "$.properties[?(@.name == '" + name + "')].description");
            List<Object> defaults = JsonPath.read(metadata, "$.properties[?(@.name == '" + name + "')].defaultValue");
            assertThat(descriptions).as(name).singleElement().asString().isNotBlank();
            assertThat(defaults).as(name).hasSize(1);
        }
        List<Object> probeTimeout = JsonPath.read(metadata, "$.properties[?(@.name == 'ruminate.health.probe-timeout')].defaultValue");
        assertThat(probeTimeout).containsExactly("5s");
    }
}
