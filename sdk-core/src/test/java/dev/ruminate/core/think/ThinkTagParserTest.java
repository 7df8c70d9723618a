package dev.ruminate.core.think;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThinkTagParserTest {

    record Piece(boolean reasoning, String text) {
        static Piece r(String text) {
            return new Piece(true, text);
        }

        static Piece c(String text) {
            return new Piece(false, text);
        }
    }

    /** Feeds the fragments, finishes, and returns the pieces as emitted. */
    private static List<Piece> raw(ThinkTagOptions options, String... fragments) {
        List<Piece> pieces = new ArrayList<>();
        ThinkTagParser parser = new ThinkTagParser(options, (reasoning, text) -> pieces.add(new Piece(reasoning, text)));
        for (String fragment : fragments) {
            parser.feed(fragment);
        }
        parser.finish();
        return pieces;
    }

    /** Like {@link #raw} with adjacent pieces of one kind joined, which is what the split points may not change. */
    private static List<Piece> run(ThinkTagOptions options, String... fragments) {
        List<Piece> merged = new ArrayList<>();
        for (Piece piece : raw(options, fragments)) {
            assertThat(piece.text()).as("pieces are never empty").isNotEmpty();
            int last = merged.size() - 1;
            if (last >= 0 && merged.get(last).reasoning() == piece.reasoning()) {
                merged.set(last, new Piece(piece.reasoning(), merged.get(last).text() + piece.text()));
            } else {
                merged.add(piece);
            }
        }
        return merged;
    }

    private static List<Piece> run(String... fragments) {
        return run(ThinkTagOptions.DEFAULT, fragments);
    }

    @Test
    void tagsWholeInTheirOwnFragmentsAsInRecordings() {
        assertThat(run("<think>", "\n", "Okay", ", so", "\n", "</think>", "\n\n", "To make", " alfajores"))
                .containsExactly(Piece.r("\nOkay, so\n"), Piece.c("\n\nTo make alfajores"));
    }

    @Test
    void keepsWhitespaceAroundTagsExactly() {
        assertThat(run("  <think>\n x \n</think>\n\n y \n"))
                .containsExactly(Piece.c("  "), Piece.r("\n x \n"), Piece.c("\n\n y \n"));
    }

    @Test
    void passesAFragmentWithoutTagCharactersOnUncopied() {
        String fragment = "plain answer text";
        List<Piece> pieces = raw(ThinkTagOptions.DEFAULT, fragment);
        assertThat(pieces).hasSize(1);
        assertThat(pieces.get(0).text()).isSameAs(fragment);

        String reasoning = "still thinking";
        pieces = raw(ThinkTagOptions.startingInside(), reasoning);
        assertThat(pieces.get(0).text()).isSameAs(reasoning);
    }

    @Test
    void passesAFragmentWithAnUndecisiveLessThanOnUncopied() {
        String fragment = "if a < b then";
        List<Piece> pieces = raw(ThinkTagOptions.DEFAULT, fragment);
        assertThat(pieces).hasSize(1);
        assertThat(pieces.get(0).text()).isSameAs(fragment);
    }

    @Test
    void findsTagsSplitAtEveryPositionAcrossTwoFragments() {
        String text = "pre<think>\nthought\n</think>\n\npost";
        List<Piece> expected = List.of(Piece.c("pre"), Piece.r("\nthought\n"), Piece.c("\n\npost"));
        for (int i = 0; i <= text.length(); i++) {
            assertThat(run(text.substring(0, i), text.substring(i))).as("split at %d", i).isEqualTo(expected);
        }
    }

    @Test
    void findsTagsSplitAtEveryPositionAcrossThreeFragments() {
        String text = "<think>a</think>b";
        List<Piece> expected = List.of(Piece.r("a"), Piece.c("b"));
        for (int i = 0; i <= text.length(); i++) {
            for (int j = i; j <= text.length(); j++) {
                assertThat(run(text.substring(0, i), text.substring(i, j), text.substring(j)))
                        .as("split at %d and %d", i, j)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void findsTagsFedOneCharacterAtATime() {
        String text = "x<think>y</think>z<think>w</think>v";
        String[] chars = text.split("");
        assertThat(run(chars)).containsExactly(
                Piece.c("x"), Piece.r("y"), Piece.c("z"), Piece.r("w"), Piece.c("v"));
    }

    @Test
    void leavesLookAlikesAlone() {
        assertThat(run("<thinking>about it</thinking>")).containsExactly(Piece.c("<thinking>about it</thinking>"));
        assertThat(run("<th", "ing>")).containsExactly(Piece.c("<thing>"));
        assertThat(run("a < b and b > c")).containsExactly(Piece.c("a < b and b > c"));
        assertThat(run("< think>")).containsExactly(Piece.c("< think>"));
        assertThat(run("<<", "think", ">", "x")).containsExactly(Piece.c("<"), Piece.r("x"));
        assertThat(run(">", " quoted")).containsExactly(Piece.c("> quoted"));
    }

    @Test
    void leavesLookAlikesOfTheCloseTagAloneInsideReasoning() {
        assertThat(run("<think>", "x </thinker> y", "</thin", "x", "</think>", "z"))
                .containsExactly(Piece.r("x </thinker> y</thinx"), Piece.c("z"));
        assertThat(run("<think>", "if a<b", " > c", "</think>")).containsExactly(Piece.r("if a<b > c"));
    }

    @Test
    void treatsASecondOpenTagInsideReasoningAsReasoning() {
        assertThat(run("<think>a<think>b</think>c")).containsExactly(Piece.r("a<think>b"), Piece.c("c"));
    }

    @Test
    void treatsACloseTagOutsideReasoningAsText() {
        assertThat(run("a</think>b")).containsExactly(Piece.c("a</think>b"));
    }

    @Test
    void startsInsideWhenTheTemplateOpenedTheBlock() {
        assertThat(run(ThinkTagOptions.startingInside(), "so the user wants", " x.\n", "</th", "ink>", "\n\nanswer"))
                .containsExactly(Piece.r("so the user wants x.\n"), Piece.c("\n\nanswer"));
    }

    @Test
    void startInsideWithoutACloseTagIsAllReasoning() {
        assertThat(run(ThinkTagOptions.startingInside(), "a", "<think>", "b")).containsExactly(Piece.r("a<think>b"));
    }

    @Test
    void usesConfiguredTagNames() {
        ThinkTagOptions options = new ThinkTagOptions("<reasoning>", "</reasoning>", false);
        assertThat(run(options, "<reas", "oning>why</reason", "ing>because <think>x</think>"))
                .containsExactly(Piece.r("why"), Piece.c("because <think>x</think>"));
    }

    @Test
    void usesTagsThatDoNotStartWithALessThan() {
        ThinkTagOptions options = new ThinkTagOptions("[[T]]", "[[/T]]", false);
        assertThat(run(options, "a [x] [[", "T]]b[[/", "T]]c"))
                .containsExactly(Piece.c("a [x] "), Piece.r("b"), Piece.c("c"));
    }

    @Test
    void emitsNothingForAnEmptyThinkBlock() {
        assertThat(run("<think>", "\n\n", "</think>", "\n\n", "Hi")).containsExactly(Piece.r("\n\n"), Piece.c("\n\nHi"));
        assertThat(run("<think></think>", "Hi")).containsExactly(Piece.c("Hi"));
    }

    @Test
    void handlesTwoThinkBlocks() {
        assertThat(run("<think>one</think>", "first", "<think>", "two", "</think>", "second"))
                .containsExactly(Piece.r("one"), Piece.c("first"), Piece.r("two"), Piece.c("second"));
    }

    @Test
    void releasesAPartialTagAtTheEndAsTextOfTheCurrentMode() {
        assertThat(run("answer <thi")).containsExactly(Piece.c("answer <thi"));
        assertThat(run("<think>", "reasoning </thi")).containsExactly(Piece.r("reasoning </thi"));
        assertThat(run("<", "th")).containsExactly(Piece.c("<th"));
    }

    @Test
    void holdsBackOnlyWhatCouldStillBeTheTag() {
        List<Piece> pieces = new ArrayList<>();
        ThinkTagParser parser = new ThinkTagParser(ThinkTagOptions.DEFAULT,
                (reasoning, text) -> pieces.add(new Piece(reasoning, text)));
        parser.feed("a<b<thin");
        assertThat(pieces).containsExactly(Piece.c("a<b"));
        parser.feed("g");
        assertThat(pieces).containsExactly(Piece.c("a<b"), Piece.c("<thing"));
        parser.feed("<");
        assertThat(pieces).hasSize(2);
        parser.finish();
        assertThat(pieces).containsExactly(Piece.c("a<b"), Piece.c("<thing"), Piece.c("<"));
    }

    @Test
    void keepsAnUnclosedThinkBlockAsReasoning() {
        assertThat(run("<think>", "\nI was cut off", " mid-thought")).containsExactly(Piece.r("\nI was cut off mid-thought"));
    }

    @Test
    void keepsMultiByteCharactersIntact() {
        assertThat(run("日本<th", "ink>思考😀</think>é")).containsExactly(Piece.c("日本"), Piece.r("思考😀"), Piece.c("é"));
    }

    @Test
    void ignoresEmptyFragments() {
        assertThat(raw(ThinkTagOptions.DEFAULT, "", "<thi", "", "nk>", "", "x")).containsExactly(Piece.r("x"));
    }
}
