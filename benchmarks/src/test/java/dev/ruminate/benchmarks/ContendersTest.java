package dev.ruminate.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contenders of {@link ChatCompletionsReasoningBenchmark} do the same work on the benchmark's stream: each
 * yields the final answer and tool-call arguments the stream carries, and the reasoning wherever it keeps any.
 */
class ContendersTest {

    private static ReasoningStream stream;

    @BeforeAll
    static void generate() {
        stream = ReasoningStream.generate(2_000, 42);
    }

    @Test
    void theStreamIsShapedLikePerfMd() {
        assertThat(stream.chunks).isEqualTo(2_000);
        assertThat(stream.reasoning).contains("\"", "\\", "\n", "😀", "中");
        assertThat(stream.bytesPerChunk()).isBetween(140.0, 200.0);
    }

    @Test
    void aLongStreamKeepsItsShape() {
        ReasoningStream longer = ReasoningStream.generate(100_000, 42);
        Outcome o = Contenders.outcome(Contenders.ruminate(Pieces.cut(longer.sse, 16384)));
        assertThat(o).isEqualTo(new Outcome(longer.reasoning, longer.content, longer.toolArguments,
                longer.reasoningTokens));
    }

    @Test
    void ruminateKeepsEverything() {
        Outcome o = Contenders.outcome(Contenders.ruminate(Pieces.cut(stream.sse, 1460)));
        assertThat(o).isEqualTo(expected(stream.reasoning, stream.reasoningTokens));
    }

    @Test
    void ruminateIsIndifferentToHowTheBodyIsCut() {
        Outcome o = Contenders.outcome(Contenders.ruminate(Pieces.cut(stream.sse, 1)));
        assertThat(o).isEqualTo(expected(stream.reasoning, stream.reasoningTokens));
    }

    @Test
    void theFloorWalksEveryPayload() {
        assertThat(Contenders.floor(stream.payloads)).isGreaterThan(20L * stream.chunks);
    }

    @Test
    void theNonBlockingFloorWalksTheSameTokens() {
        assertThat(Contenders.floorNonBlocking(stream.payloads)).isEqualTo(Contenders.floor(stream.payloads));
    }

    @Test
    void naiveKeepsEverything() {
        assertThat(Contenders.naive(stream.payloads)).isEqualTo(expected(stream.reasoning, stream.reasoningTokens));
    }

    @Test
    void openaiJavaKeepsOnlyTheLastReasoningDelta() {
        Outcome o = Contenders.outcome(Contenders.openaiJava(stream.payloads));
        assertThat(o.content()).isEqualTo(stream.content);
        assertThat(o.toolArguments()).isEqualTo(stream.toolArguments);
        assertThat(o.reasoningTokens()).isEqualTo(stream.reasoningTokens);
        assertThat(o.reasoning()).isNotNull().isNotEqualTo(stream.reasoning);
        assertThat(stream.reasoning).endsWith(o.reasoning());
    }

    @Test
    void langchain4jKeepsEverything() {
        Outcome o = Contenders.outcome(Contenders.langchain4j(stream.payloads));
        assertThat(o).isEqualTo(expected(stream.reasoning, stream.reasoningTokens));
    }

    @Test
    void springAiKeepsTextAndArgumentsButNotReasoningTokens() {
        Outcome o = SpringAiContender.outcome(new SpringAiContender(stream.sse).run());
        assertThat(o.content()).isEqualTo(stream.content);
        assertThat(o.toolArguments()).isEqualTo(stream.toolArguments);
        assertThat(o.reasoning()).isEqualTo(stream.reasoning);
        assertThat(o.reasoningTokens()).isNull();
    }

    private static Outcome expected(String reasoning, long reasoningTokens) {
        return new Outcome(reasoning, stream.content, stream.toolArguments, reasoningTokens);
    }
}
