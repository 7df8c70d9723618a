package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code chat} and {@code next-request} with the request options: bad input is one line naming the
 * option and the file, the usage exit status, and no request; good input reaches the body in each
 * family's form.
 *
 * <p>The per-family tests assert on the parsed body's structure, not its bytes (the family's own
 * golden tests pin those): the base64 of the test files appears in it, the schema's property names
 * appear as fields, a breakpoint field appears.
 */
@ExtendWith(NettyLeakCheck.class)
class RequestOptionsCommandTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String KEY_VARIABLE = "PATH";

    @TempDir
    Path dir;

    // ---- bad input: one line, usage status, nothing sent -------------------------------------------------

    @Test
    void everyUnusableFileIsOneLineNamingTheOptionAndTheFileAndNothingIsSent() throws IOException {
        String secret = "do-not-print-this-content";
        Files.createDirectory(dir.resolve("photos"));
        List<Case> cases = List.of(
                new Case("--image", dir.resolve("missing.png").toString(), "no such file"),
                new Case("--image", dir.resolve("photos").toString(), "a directory, not a file"),
                new Case("--image", TestFiles.write(dir, "empty.png", new byte[0]), "the file is empty"),
                new Case("--image", TestFiles.write(dir, "pic.bmp", "BM" + secret),
                        "not a PNG, JPEG, GIF, WebP or HEIC image (by its first bytes or its extension)"),
                new Case("--document", TestFiles.write(dir, "letter.docx", "PK" + secret),
                        "not a PDF, or a .txt, .md, .csv or .html text document"),
                new Case("--document", TestFiles.write(dir, "cat.png", TestFiles.PNG), "give an image with --image"),
                new Case("--document", TestFiles.write(dir, "latin1.txt", new byte[] {'c', 'a', 'f', (byte) 0xe9}),
                        "not UTF-8 text"),
                new Case("--document", dir.resolve("nowhere.pdf").toString(), "no such file"),
                new Case("--json-schema", TestFiles.write(dir, "broken.json", "{\"type\": \"object\",\n \"" + secret + "\" }"),
                        "not JSON (line 2, column"),
                new Case("--json-schema", TestFiles.write(dir, "list.json", "[\"" + secret + "\"]"),
                        "a JSON array, not an object (a schema is one JSON object)"),
                new Case("--json-schema", TestFiles.write(dir, "two.json", "{} {}"), "not JSON"),
                new Case("--json-schema", TestFiles.write(dir, "blank.json", "  \n"), "holds no JSON value"),
                new Case("--json-schema", dir.resolve("gone.json").toString(), "no such file"));

        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            for (Case c : cases) {
                CliRun chat = CliRun.of("chat", "--provider", "openai", "--model", "m", "--base-url",
                        emulator.baseUrl().toString(), "--api-key-env", KEY_VARIABLE, c.option(), c.file(), "hi");
                CliRun next = CliRun.of("next-request", "--provider", "anthropic", "--user", "hi", c.option(), c.file());
                for (CliRun run : List.of(chat, next)) {
                    assertThat(run.status()).as(c + ": " + run.err()).isEqualTo(Main.USAGE);
                    assertThat(run.err()).as(c.toString()).startsWith("ruminate: " + c.option() + " " + c.file() + ": ")
                            .contains(c.expected()).doesNotContain(secret).endsWith("\n").hasLineCount(1);
                    assertThat(run.out()).as(c.toString()).isEmpty();
                }
            }
            assertThat(emulator.requests()).isEmpty();
        }
    }

    @Test
    void aFileWithoutReadPermissionIsNamedSoWithoutItsPath() {
        // a real unreadable file cannot be made under root, which reads everything: the reading code
        // hands the I/O error it got to this phrase, so the phrase is what is checked here
        assertThat(Failures.fileProblem(new AccessDeniedException("/secret/dir/locked.png")))
                .isEqualTo("not readable (permission denied)");
        assertThat(Failures.fileProblem(new NoSuchFileException("/x"))).isEqualTo("no such file");
    }

    @Test
    void malformedRequestOptionsAreUsageErrors() {
        String schema = TestFiles.write(dir, "s.json", TestFiles.SCHEMA);
        String png = TestFiles.write(dir, "p.png", TestFiles.PNG);
        List<CliRun> runs = new ArrayList<>();
        runs.add(CliRun.of("next-request", "--provider", "anthropic", "--user", "hi", "--schema-strategy", "tool"));
        runs.add(CliRun.of("next-request", "--provider", "anthropic", "--user", "hi", "--json-schema", schema,
                "--schema-strategy", "sometimes"));
        runs.add(CliRun.of("next-request", "--provider", "anthropic", "--user", "hi", "--cache", "everything"));
        // media need a message to go with
        runs.add(CliRun.of("next-request", "--provider", "anthropic", "--image", png,
                CliRun.fixture("anthropic/pydantic-thinking-tool-use.turn1.json")));
        runs.add(CliRun.of("next-request", "--provider", "anthropic"));

        assertThat(runs).allSatisfy(run -> {
            assertThat(run.status()).as(run.err()).isEqualTo(Main.USAGE);
            assertThat(run.err()).startsWith("ruminate: ").contains("(ruminate --help shows every command and option)");
        });
        assertThat(runs.get(3).err()).contains("--image and --document go with the --user message");
    }

    // ---- good input ---------------------------------------------------------------------------------------

    @Test
    void nextRequestRunsOnAUserMessageAloneWithTheFilesRead() {
        String png = TestFiles.write(dir, "p.png", TestFiles.PNG);
        String schema = TestFiles.write(dir, "city.json", TestFiles.SCHEMA);

        CliRun run = CliRun.of("next-request", "--provider", "anthropic", "--model", "claude-sonnet-4-5",
                "--user", "Which city is this?", "--image", png, "--json-schema", schema, "--cache", "conversation");

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode body = JSON.readTree(run.out());
        assertThat(body.get("model").stringValue()).isEqualTo("claude-sonnet-4-5");
        assertThat(body.get("messages")).hasSize(1);
        assertThat(strings(body, s -> s.contains("Which city is this?"))).isNotEmpty();
    }

    @Test
    void chatSendsThePromptWithTheRequestOptionsAndPrintsTheAnswer() {
        String png = TestFiles.write(dir, "p.png", TestFiles.PNG);
        String schema = TestFiles.write(dir, "city.json", TestFiles.SCHEMA);
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(ChatCompletionsScript.create().model("gpt-5")
                    .content("{\"city\":\"Paris\",\"population\":2100000}").usage(10, 8, 0).toResponse());

            CliRun run = CliRun.of("chat", "--provider", "openai", "--model", "gpt-5", "--base-url",
                    emulator.baseUrl().toString(), "--api-key-env", KEY_VARIABLE, "--no-color",
                    "--image", png, "--json-schema", schema, "--cache-key", "tenant-7", "Which", "city?");

            assertThat(run.status()).as(run.err()).isZero();
            assertThat(run.out()).contains("{\"city\":\"Paris\",\"population\":2100000}");
            assertThat(emulator.requests()).hasSize(1);
            assertThat(emulator.requests().get(0).body()).contains("Which city?");
        }
    }

    // ---- the body in each family's form (needs the family encoders) --------------------------------------

    @Test
    void anthropicCarriesTheImageTheDocumentTheSchemaAndTheBreakpoints() {
        JsonNode body = nextRequest("anthropic", "--cache", "conversation");

        assertMediaAndSchema(body);
        assertThat(fields(body, "cache_control")).as("a cache_control breakpoint").isNotEmpty();
    }

    @Test
    void chatCompletionsCarriesTheMediaAndTheSchemaAndTheCacheKey() {
        CliRun run = run("openai", "--cache", "conversation", "--cache-key", "tenant-7");
        JsonNode body = JSON.readTree(run.out());

        assertMediaAndSchema(body);
        assertThat(body.get("prompt_cache_key").stringValue()).isEqualTo("tenant-7");
        // OpenAI caches on its own: the breakpoints are ignored, and the command says so on stderr
        assertThat(run.err()).contains("# warning option-ignored: ");
    }

    @Test
    void responsesCarriesTheMediaAndTheSchemaAndTheCacheKey() {
        JsonNode body = nextRequest("responses", "--cache-key", "tenant-7");

        assertMediaAndSchema(body);
        assertThat(body.get("prompt_cache_key").stringValue()).isEqualTo("tenant-7");
    }

    @Test
    void geminiCarriesTheMediaAndTheSchemaAndWarnsOfTheBreakpoints() {
        CliRun run = run("gemini", "--cache", "conversation");

        assertMediaAndSchema(JSON.readTree(run.out()));
        assertThat(run.err()).contains("# warning option-ignored: ");
    }

    @Test
    void chatShowsTheStructuredOutputVerdict() {
        String schema = TestFiles.write(dir, "city.json", TestFiles.SCHEMA);
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(ChatCompletionsScript.create().model("gpt-5")
                    .content("{\"city\":\"Paris\",\"population\":2100000}").toResponse());

            CliRun run = CliRun.of("chat", "--provider", "openai", "--model", "gpt-5", "--base-url",
                    emulator.baseUrl().toString(), "--api-key-env", KEY_VARIABLE, "--no-color",
                    "--json-schema", schema, "Which", "city?");

            assertThat(run.status()).as(run.err()).isZero();
            // the verdict the structured-output pipeline reports, printed live (LiveRenderer)
            assertThat(run.out()).contains("output city (native) valid");
            JsonNode sent = JSON.readTree(emulator.requests().get(0).body());
            assertThat(sent.get("response_format").get("json_schema").get("name").stringValue()).isEqualTo("city");
        }
    }

    @Test
    void chatShowsTheWarningOfABreakpointTheProviderIgnores() {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(ChatCompletionsScript.create().model("gpt-5").content("Hello.").toResponse());

            CliRun run = CliRun.of("chat", "--provider", "openai", "--model", "gpt-5", "--base-url",
                    emulator.baseUrl().toString(), "--api-key-env", KEY_VARIABLE, "--no-color",
                    "--cache", "conversation", "hi");

            assertThat(run.status()).as(run.err()).isZero();
            // printed live, above the answer, as every warning of the call is
            assertThat(run.out()).contains("  ! warning option-ignored: ");
            assertThat(run.out().indexOf("! warning option-ignored")).isLessThan(run.out().indexOf("Hello."));
        }
    }

    @Test
    void inputTheProviderDoesNotTakeIsOneLineAndNothingIsSent() {
        String png = TestFiles.write(dir, "p.png", TestFiles.PNG);
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            // DeepSeek's Chat Completions API takes text only
            CliRun chat = CliRun.of("chat", "--provider", "deepseek", "--model", "deepseek-chat", "--base-url",
                    emulator.baseUrl().toString(), "--api-key-env", KEY_VARIABLE, "--image", png, "hi");
            CliRun next = CliRun.of("next-request", "--provider", "deepseek", "--user", "hi", "--image", png);

            for (CliRun run : List.of(chat, next)) {
                assertThat(run.status()).as(run.err()).isEqualTo(Main.USAGE);
                assertThat(run.err()).startsWith("ruminate: cannot encode the request for deepseek: ").hasLineCount(1);
            }
            assertThat(emulator.requests()).isEmpty();
        }
    }

    private CliRun run(String provider, String... more) {
        List<String> args = new ArrayList<>(List.of("next-request", "--provider", provider, "--model", "model-x",
                "--user", "Which city is this?",
                "--image", TestFiles.write(dir, "p.png", TestFiles.PNG),
                "--document", TestFiles.write(dir, "r.pdf", TestFiles.PDF),
                "--json-schema", TestFiles.write(dir, "city.json", TestFiles.SCHEMA)));
        args.addAll(List.of(more));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        return run;
    }

    private JsonNode nextRequest(String provider, String... more) {
        return JSON.readTree(run(provider, more).out());
    }

    /** The image's and the PDF's base64 appear in string values (inline, or in a data URL), the schema's properties as fields. */
    private static void assertMediaAndSchema(JsonNode body) {
        assertThat(strings(body, s -> s.contains(TestFiles.base64(TestFiles.PNG)))).as("the image's base64").isNotEmpty();
        assertThat(strings(body, s -> s.contains(TestFiles.base64(TestFiles.PDF)))).as("the PDF's base64").isNotEmpty();
        assertThat(fields(body, "population")).as("the schema's property").isNotEmpty();
        assertThat(strings(body, s -> s.contains("Which city is this?"))).isNotEmpty();
    }

    /** Every string value in a tree that matches. */
    static List<String> strings(JsonNode node, Predicate<String> match) {
        List<String> found = new ArrayList<>();
        walk(node, (name, value) -> {
            if (value.isString() && match.test(value.stringValue())) {
                found.add(value.stringValue());
            }
        });
        return found;
    }

    /** Every value of a field of this name, anywhere in a tree. */
    static List<JsonNode> fields(JsonNode node, String field) {
        List<JsonNode> found = new ArrayList<>();
        walk(node, (name, value) -> {
            if (field.equals(name)) {
                found.add(value);
            }
        });
        return found;
    }

    private static void walk(JsonNode node, BiConsumer<String, JsonNode> visit) {
        if (node.isObject()) {
            for (var e : node.properties()) {
                visit.accept(e.getKey(), e.getValue());
                walk(e.getValue(), visit);
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                visit.accept("", item);
                walk(item, visit);
            }
        }
    }

    private record Case(String option, String file, String expected) {
        @Override
        public String toString() {
            return option + " " + Path.of(file).getFileName();
        }
    }
}
