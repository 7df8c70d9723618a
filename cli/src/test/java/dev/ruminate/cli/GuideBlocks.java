package dev.ruminate.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the code a guide shows and the code a test runs, so a test can check they are the same.
 *
 * <p>In a test source, a block is the lines between {@code // guide:start NAME} and
 * {@code // guide:end NAME}; in a guide, it is the fenced block that follows the line
 * {@code <!-- example: NAME -->}. Indentation is ignored: a method body and a guide's block are
 * indented differently.
 */
final class GuideBlocks {

    private GuideBlocks() {
    }

    /** The lines of block {@code name} in a test's source file under {@code src/test/java/dev/ruminate/cli}. */
    static List<String> inSource(String testClass, String name) {
        List<String> lines = read(Path.of("src/test/java/dev/ruminate/cli/" + testClass + ".java"));
        return stripped(between(lines, "// guide:start " + name, "// guide:end " + name));
    }

    /** The lines of the fenced block after {@code <!-- example: name -->} in {@code docs/<guide>}. */
    static List<String> inGuide(String guide, String name) {
        List<String> lines = read(Path.of("../docs/" + guide));
        String marker = "<!-- example: " + name + " -->";
        int at = lines.indexOf(marker);
        if (at < 0) {
            throw new AssertionError(guide + " has no line " + marker);
        }
        String fence = lines.get(at + 1).strip();
        if (!fence.startsWith("```") || fence.length() == 3) {
            throw new AssertionError(guide + ": the line after " + marker + " is not an opening fence with a language: " + fence);
        }
        return stripped(between(lines.subList(at + 1, lines.size()), fence, "```"));
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> between(List<String> lines, String start, String end) {
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (from < 0 && lines.get(i).strip().equals(start)) {
                from = i + 1;
            } else if (from >= 0 && lines.get(i).strip().equals(end)) {
                return lines.subList(from, i);
            }
        }
        throw new AssertionError("no lines between " + start + " and " + end);
    }

    private static List<String> stripped(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            out.add(line.strip());
        }
        return out;
    }
}
