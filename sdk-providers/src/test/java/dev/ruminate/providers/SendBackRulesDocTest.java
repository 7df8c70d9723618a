package dev.ruminate.providers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/send-back-rules.md} from rotting: every row of its rule tables has an "as of"
 * date and names at least one test ({@code Class#method}), and every test named exists as a test
 * method in some module's test sources. Rows of the "Not applied yet" section name none.
 */
class SendBackRulesDocTest {

    private static final Path DOC = Path.of("../docs/send-back-rules.md");
    private static final Path REPO = Path.of("..");
    private static final String NOT_APPLIED = "Not applied yet";
    private static final Pattern TEST_REF = Pattern.compile("`([A-Z][A-Za-z0-9]*)#([a-z][A-Za-z0-9]*)`");
    private static final Pattern DATE = Pattern.compile("\\| (\\d{4}-\\d{2}-\\d{2}) \\|");

    @Test
    void everyRuleNamesATestMethodThatExists() {
        List<String> problems = problems(read(DOC), SendBackRulesDocTest::testSource);

        assertThat(problems).isEmpty();
    }

    @Test
    void theDocHasRulesForEveryFamilyAndASectionOfRulesNotAppliedYet() {
        String doc = read(DOC);
        Map<String, List<String>> sections = rows(doc);

        assertThat(sections.keySet()).contains("Anthropic Messages", "Amazon Bedrock Converse", "Google Gemini",
                "Ollama native (`/api/chat`)", NOT_APPLIED);
        assertThat(sections.keySet()).anyMatch(s -> s.startsWith("OpenAI Responses"))
                .anyMatch(s -> s.startsWith("Chat Completions"));
        assertThat(sections.get(NOT_APPLIED)).isNotEmpty()
                .allSatisfy(row -> assertThat(TEST_REF.matcher(row).find()).as(row).isFalse());
    }

    /** {@code docs/wire-additions-2026.md} too: every table row names a test, and each one exists. */
    @Test
    void everyWireAdditionNamesATestMethodThatExists() {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> sections = rows(read(Path.of("../docs/wire-additions-2026.md")));
        for (Map.Entry<String, List<String>> section : sections.entrySet()) {
            for (String row : section.getValue()) {
                Matcher ref = TEST_REF.matcher(row);
                if (!ref.find()) {
                    problems.add(section.getKey() + ": names no test: " + row);
                    continue;
                }
                do {
                    Optional<String> source = testSource(ref.group(1));
                    if (source.isEmpty() || !declaresTest(source.get(), ref.group(2))) {
                        problems.add(section.getKey() + ": no test method " + ref.group(1) + "#" + ref.group(2));
                    }
                } while (ref.find());
            }
        }

        assertThat(sections.keySet()).contains("Anthropic Messages", "OpenAI Responses", "Gemini Interactions API");
        assertThat(problems).isEmpty();
    }

    @Test
    void aRowNamingAMissingMethodOrNoTestOrNoDateIsReported() {
        String doc = "## Family\n\n| # | rule | as of | source | proven by |\n|---|---|---|---|---|\n"
                + "| X1 | a rule | 2026-11-25 | a doc | `SendBackRulesDocTest#noSuchMethod` |\n"
                + "| X2 | another | 2026-11-25 | a doc | nothing |\n"
                + "| X3 | dated badly | soon | a doc | `SendBackRulesDocTest#everyRuleNamesATestMethodThatExists` |\n"
                + "| X4 | fine | 2026-11-25 | a doc | `SendBackRulesDocTest#everyRuleNamesATestMethodThatExists` |\n"
                + "| X5 | unknown class | 2026-11-25 | a doc | `NoSuchTest#someMethod` |\n";

        assertThat(problems(doc, SendBackRulesDocTest::testSource)).containsExactly(
                "Family: no test method SendBackRulesDocTest#noSuchMethod",
                "Family: a rule row names no test: | X2 | another | 2026-11-25 | a doc | nothing |",
                "Family: a row has no \"as of\" date: | X3 | dated badly | soon | a doc | "
                        + "`SendBackRulesDocTest#everyRuleNamesATestMethodThatExists` |",
                "Family: no test class NoSuchTest");
    }

    /** Lists what is wrong with a doc: rows without a date or a test, and tests that do not exist. */
    static List<String> problems(String doc, Function<String, Optional<String>> sources) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, List<String>> section : rows(doc).entrySet()) {
            String name = section.getKey();
            for (String row : section.getValue()) {
                if (!DATE.matcher(row).find()) {
                    problems.add(name + ": a row has no \"as of\" date: " + row);
                }
                if (name.equals(NOT_APPLIED)) {
                    continue;
                }
                Matcher ref = TEST_REF.matcher(row);
                boolean any = false;
                while (ref.find()) {
                    any = true;
                    String type = ref.group(1);
                    String method = ref.group(2);
                    Optional<String> source = sources.apply(type);
                    if (source.isEmpty()) {
                        problems.add(name + ": no test class " + type);
                    } else if (!declaresTest(source.get(), method)) {
                        problems.add(name + ": no test method " + type + "#" + method);
                    }
                }
                if (!any) {
                    problems.add(name + ": a rule row names no test: " + row);
                }
            }
        }
        return problems;
    }

    /** The table rows of each {@code ##} section, header and separator rows left out. */
    private static Map<String, List<String>> rows(String doc) {
        Map<String, List<String>> sections = new HashMap<>();
        String section = "";
        boolean header = false;
        for (String line : doc.split("\n")) {
            if (line.startsWith("## ")) {
                section = line.substring(3).strip();
                sections.put(section, new ArrayList<>());
                header = true;
            } else if (line.startsWith("|")) {
                if (header) {
                    header = false; // the column names
                } else if (!line.startsWith("|---")) {
                    sections.computeIfAbsent(section, s -> new ArrayList<>()).add(line);
                }
            } else if (line.isBlank()) {
                header = true;
            }
        }
        return sections;
    }

    /** Whether a source declares a test method of that name (annotated in the lines just above it). */
    private static boolean declaresTest(String source, String method) {
        Matcher m = Pattern.compile("\\bvoid\\s+" + Pattern.quote(method) + "\\s*\\(").matcher(source);
        while (m.find()) {
            // the annotations and comments right above the method, up to the blank line before them
            int start = source.lastIndexOf("\n\n", m.start());
            String above = source.substring(Math.max(0, start), m.start());
            if (above.contains("@Test") || above.contains("@ParameterizedTest")) {
                return true;
            }
        }
        return false;
    }

    /** Finds a test class's source in any module of the repository. */
    private static Optional<String> testSource(String type) {
        try (Stream<Path> modules = Files.list(REPO)) {
            for (Path module : modules.filter(Files::isDirectory).toList()) {
                Path tests = module.resolve("src/test/java");
                if (!Files.isDirectory(tests)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(tests)) {
                    Optional<Path> file = files.filter(f -> f.getFileName().toString().equals(type + ".java")).findFirst();
                    if (file.isPresent()) {
                        return Optional.of(read(file.get()));
                    }
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        assertThat(file).as("run from the sdk-providers module").exists();
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
