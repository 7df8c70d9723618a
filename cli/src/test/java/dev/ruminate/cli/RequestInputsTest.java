package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.message.Media;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.PromptCaching;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The request options read into the request's parts: media types by first bytes (else extension),
 * the schema's name from the file, the strategy, and the caching breakpoints.
 */
class RequestInputsTest {

    @TempDir
    Path dir;

    private static RequestInputs parse(String... args) {
        return RequestInputs.parse(Args.parse(List.of(args), RequestInputs.OPTIONS, Set.of()));
    }

    @Test
    void imagesAreToldByTheirFirstBytesBeforeTheirExtension() {
        byte[] gif = "GIF89a\u0001\u0000\u0001\u0000".getBytes(StandardCharsets.ISO_8859_1);
        byte[] webp = "RIFF\u0024\u0000\u0000\u0000WEBPVP8 ".getBytes(StandardCharsets.ISO_8859_1);
        byte[] heic = "\u0000\u0000\u0000\u0018ftypheic\u0000\u0000\u0000\u0000mif1heic".getBytes(StandardCharsets.ISO_8859_1);
        byte[] heif = "\u0000\u0000\u0000\u0018ftypmif1\u0000\u0000\u0000\u0000mif1".getBytes(StandardCharsets.ISO_8859_1);

        RequestInputs inputs = parse(
                "--image", TestFiles.write(dir, "photo.jpg", TestFiles.PNG), // a PNG misnamed: the bytes win
                "--image", TestFiles.write(dir, "a", TestFiles.JPEG),
                "--image", TestFiles.write(dir, "b.bin", gif),
                "--image", TestFiles.write(dir, "c", webp),
                "--image", TestFiles.write(dir, "d", heic),
                "--image", TestFiles.write(dir, "e", heif),
                "--image", TestFiles.write(dir, "scan.WEBP", "not told by its bytes"));

        assertThat(inputs.media()).extracting(Media::kind).containsOnly(Media.Kind.IMAGE);
        assertThat(inputs.media()).extracting(Media::mediaType).containsExactly(
                "image/png", "image/jpeg", "image/gif", "image/webp", "image/heic", "image/heif", "image/webp");
        assertThat(inputs.media().get(0).data()).isEqualTo(TestFiles.PNG);
    }

    @Test
    void documentsArePdfByTheirBytesAndTextByTheirExtensionNamedAfterTheFile() {
        RequestInputs inputs = parse(
                "--document", TestFiles.write(dir, "report", TestFiles.PDF),
                "--document", TestFiles.write(dir, "notes.md", "# Notes"),
                "--document", TestFiles.write(dir, "table.csv", "a,b\n1,2\n"),
                "--document", TestFiles.write(dir, "page.HTM", "<p>hi</p>"),
                "--document", TestFiles.write(dir, "plain.txt", "héllo"));

        assertThat(inputs.media()).extracting(Media::kind).containsOnly(Media.Kind.DOCUMENT);
        assertThat(inputs.media()).extracting(Media::mediaType).containsExactly(
                "application/pdf", "text/markdown", "text/csv", "text/html", "text/plain");
        assertThat(inputs.media()).extracting(Media::name).containsExactly(
                "report", "notes.md", "table.csv", "page.HTM", "plain.txt");
    }

    @Test
    void urlsTakeTheMediaTypeTheirPathNamesElseNone() {
        RequestInputs inputs = parse("--image-url", "https://example.com/cat.png?sig=abc",
                "--image-url", "gs://bucket/photo", "--document-url", "s3://bucket/key/report.pdf");

        assertThat(inputs.media()).extracting(Media::mediaType).containsExactly("image/png", null, "application/pdf");
        assertThat(inputs.media()).extracting(m -> m.url().getScheme()).containsExactly("https", "gs", "s3");
        assertThat(inputs.media()).noneMatch(Media::hasData);
    }

    @Test
    void mediaOfEachKindKeepTheirOrderFilesBeforeUrls() {
        RequestInputs inputs = parse("--document", TestFiles.write(dir, "r.pdf", TestFiles.PDF),
                "--image-url", "https://example.com/x.gif", "--image", TestFiles.write(dir, "p.png", TestFiles.PNG));

        assertThat(inputs.media()).extracting(Media::mediaType).containsExactly("image/png", "image/gif", "application/pdf");
    }

    @Test
    void theSchemaIsNamedAfterTheFileUnlessNamedAndCarriesItsStrategy() {
        String file = TestFiles.write(dir, "city report (v2).schema.json", TestFiles.SCHEMA);

        OutputSchema named = parse("--json-schema", file).output();
        OutputSchema renamed = parse("--json-schema", file, "--schema-name", "City", "--schema-strategy", "tool").output();

        assertThat(named).isNotNull();
        assertThat(named.name()).isEqualTo("city_report__v2__schema");
        assertThat(named.strategy()).isEqualTo(OutputSchema.Strategy.AUTO);
        assertThat(named.strict()).isTrue();
        assertThat(JsonMapper.builder().build().readTree(named.schema()).get("properties").propertyNames())
                .containsExactly("city", "population");
        assertThat(renamed).isNotNull();
        assertThat(renamed.name()).isEqualTo("City");
        assertThat(renamed.strategy()).isEqualTo(OutputSchema.Strategy.TOOL);
        assertThat(parse("--json-schema", file, "--schema-strategy", "NATIVE").output().strategy())
                .isEqualTo(OutputSchema.Strategy.NATIVE);
    }

    @Test
    void aSchemaNameIsMadeOfTheBaseNameCutTo64() {
        assertThat(SchemaFile.nameOf("/x/y/weather.json")).isEqualTo("weather");
        assertThat(SchemaFile.nameOf("a-b_c")).isEqualTo("a-b_c");
        assertThat(SchemaFile.nameOf("é.json")).isEqualTo(SchemaFile.FALLBACK_NAME);
        assertThat(SchemaFile.nameOf("x".repeat(80) + ".json")).hasSize(64);
    }

    @Test
    void cachingIsTheConversationOrTheListedBreakpointsWithTheKey() {
        assertThat(parse().caching()).isEqualTo(PromptCaching.NONE);
        assertThat(parse("--cache", "conversation").caching()).isEqualTo(PromptCaching.conversation());
        PromptCaching listed = parse("--cache", "system,last,3,1", "--cache-key", "tenant-7").caching();
        assertThat(listed.system()).isTrue();
        assertThat(listed.tools()).isFalse();
        assertThat(listed.lastMessage()).isTrue();
        assertThat(listed.messages()).containsExactly(1, 3);
        assertThat(listed.key()).isEqualTo("tenant-7");
        PromptCaching keyOnly = parse("--cache-key", "k").caching();
        assertThat(keyOnly.hasBreakpoints()).isFalse();
        assertThat(keyOnly.key()).isEqualTo("k");
    }

    @Test
    void malformedOptionsAreUsageErrorsNamingTheOption() {
        String schema = TestFiles.write(dir, "s.json", TestFiles.SCHEMA);
        List<Throwable> errors = new ArrayList<>();
        for (String[] args : List.of(
                new String[] {"--cache", "system,everything"},
                new String[] {"--cache", "-1"},
                new String[] {"--cache-key", " "},
                new String[] {"--schema-name", "x"},
                new String[] {"--json-schema", schema, "--schema-strategy", "best"},
                new String[] {"--json-schema", schema, "--schema-name", "has space"},
                new String[] {"--image-url", "relative/cat.png"})) {
            assertThatThrownBy(() -> parse(args)).as(String.join(" ", args)).isInstanceOf(UsageException.class)
                    .satisfies(errors::add);
        }
        assertThat(errors).extracting(Throwable::getMessage).allSatisfy(m -> assertThat(m).startsWith("--"));
    }
}
