package dev.ruminate.core.wire;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/** Text generators for the framing properties: multi-byte UTF-8 of every length, and look-alikes of line ends. */
final class Texts {

    private Texts() {
    }

    /**
     * Generates text mixing ASCII, field punctuation, and 2-, 3- and 4-byte UTF-8 characters
     * (emoji included), plus characters that must not count as line ends or byte order marks
     * there (NEL, LINE SEPARATOR, a BOM inside text, NUL).
     *
     * @param maxLength the most code points
     * @param extra further code points to mix in, such as {@code \r} for NDJSON
     */
    static Arbitrary<String> text(int maxLength, int... extra) {
        Arbitrary<Integer> ascii = Arbitraries.integers().between(0x20, 0x7E);
        Arbitrary<Integer> punctuation = Arbitraries.of((int) ':', (int) ' ', (int) '{', (int) '"', (int) '\t');
        Arbitrary<Integer> twoBytes = Arbitraries.integers().between(0x80, 0x7FF);
        Arbitrary<Integer> threeBytes = Arbitraries.integers().between(0x800, 0xFFFF).filter(c -> c < 0xD800 || c > 0xDFFF);
        Arbitrary<Integer> fourBytes = Arbitraries.oneOf(
                Arbitraries.integers().between(0x1F300, 0x1FAFF), Arbitraries.integers().between(0x10000, 0x10FFFF));
        Arbitrary<Integer> lookAlikes = Arbitraries.of(0x85, 0x2028, 0xFEFF, 0);
        Arbitrary<Integer> codePoints = Arbitraries.frequencyOf(
                Tuple.of(8, ascii),
                Tuple.of(3, punctuation),
                Tuple.of(2, twoBytes),
                Tuple.of(2, threeBytes),
                Tuple.of(3, fourBytes),
                Tuple.of(1, lookAlikes));
        if (extra.length > 0) {
            codePoints = Arbitraries.frequencyOf(
                    Tuple.of(12, codePoints), Tuple.of(1, Arbitraries.of(Arrays.stream(extra).boxed().toList())));
        }
        return codePoints.list().ofMaxSize(maxLength).map(Texts::fromCodePoints);
    }

    private static String fromCodePoints(List<Integer> codePoints) {
        StringBuilder text = new StringBuilder();
        codePoints.forEach(text::appendCodePoint);
        return text.toString();
    }

    /** Generates buffer sizes for {@link Bodies#split}: small, with empty buffers among them. */
    static Arbitrary<List<Integer>> bufferSizes() {
        return Arbitraries.frequencyOf(
                        Tuple.of(6, Arbitraries.integers().between(1, 7)),
                        Tuple.of(2, Arbitraries.integers().between(8, 64)),
                        Tuple.of(1, Arbitraries.just(0)))
                .list()
                .ofMinSize(1)
                .ofMaxSize(8);
    }
}
