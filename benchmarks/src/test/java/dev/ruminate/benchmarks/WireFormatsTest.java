package dev.ruminate.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatResult;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every body of {@link DecodeBenchmark} carries the same message: decoded and reduced by the code the benchmark
 * measures ({@link Wire#decodeReduce}), each gives the Chat Completions stream's reasoning, answer and tool calls
 * (names and exact argument text), whether the body arrives in TCP-sized or 1-byte pieces; and framing alone sees
 * about as many wire events as the Chat Completions stream has chunks.
 */
class WireFormatsTest {

    /** The formats whose wire carries a reasoning-token count. */
    private static final Set<Wire> COUNT_REASONING_TOKENS =
            EnumSet.of(Wire.CHAT_COMPLETIONS, Wire.RESPONSES, Wire.GEMINI);

    private static ReasoningStream stream;
    private static ReasoningStream small;

    @BeforeAll
    static void generate() {
        stream = ReasoningStream.generate(2_000, 42);
        small = ReasoningStream.generate(300, 42);
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void decodesToTheChatCompletionsMessageFromTcpSizedPieces(Wire wire) {
        assertSameMessage(wire, stream, wire.decodeReduce(Pieces.cut(wire.body(stream), 1460)));
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void decodesToTheChatCompletionsMessageFromLargeReads(Wire wire) {
        assertSameMessage(wire, stream, wire.decodeReduce(Pieces.cut(wire.body(stream), 16384)));
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void decodesToTheChatCompletionsMessageFromOneBytePieces(Wire wire) {
        assertSameMessage(wire, small, wire.decodeReduce(Pieces.cut(wire.body(small), 1)));
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void hasAboutAsManyEventsAsTheChatCompletionsStream(Wire wire) {
        long events = wire.frame(Pieces.cut(wire.body(stream), 1460));
        // Gemini sends each function call whole: the tenth of the stream that is argument fragments is two parts.
        double least = wire == Wire.GEMINI ? 0.85 : 0.95;
        assertThat((double) events / stream.chunks).as("%s events per chunk", wire).isBetween(least, 1.15);
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void framingIsIndifferentToHowTheBodyIsCut(Wire wire) {
        byte[] body = wire.body(small);
        assertThat(wire.frame(Pieces.cut(body, 1))).isEqualTo(wire.frame(Pieces.cut(body, 1460)));
    }

    /** The lent framing the providers run counts the frames the owned framing makes, at every cutting. */
    @ParameterizedTest
    @EnumSource(Wire.class)
    void lentFramingMakesTheFramesOwnedFramingMakes(Wire wire) {
        byte[] body = wire.body(small);
        long owned = wire.frame(Pieces.cut(body, 1460));
        for (int piece : new int[] {1, 7, 1460, 16384}) {
            assertThat(wire.frameLent(Pieces.cut(body, piece))).as("piece %d", piece).isEqualTo(owned);
        }
    }

    /**
     * The provider's path, frames lent and decoded inside each read ({@link Wire#decodeReduce}), reduces to the same
     * result as owned frames through the public operators ({@link Wire#decodeReduceOwned}), at every cutting.
     */
    @ParameterizedTest
    @EnumSource(Wire.class)
    void lentFramesReduceToWhatOwnedFramesDo(Wire wire) {
        byte[] body = wire.body(stream);
        for (int piece : new int[] {1460, 16384, 7}) {
            assertThat(wire.decodeReduce(Pieces.cut(body, piece))).as("piece %d", piece)
                    .isEqualTo(wire.decodeReduceOwned(Pieces.cut(body, piece)));
        }
        byte[] smallBody = wire.body(small);
        assertThat(wire.decodeReduce(Pieces.cut(smallBody, 1))).isEqualTo(wire.decodeReduceOwned(Pieces.cut(smallBody, 1)));
    }

    private static void assertSameMessage(Wire wire, ReasoningStream s, ChatResult result) {
        Outcome o = Contenders.outcome(result);
        Long tokens = COUNT_REASONING_TOKENS.contains(wire) ? s.reasoningTokens : null;
        assertThat(o).as(wire.toString()).isEqualTo(new Outcome(s.reasoning, s.content, s.toolArguments, tokens));
        AssistantMessage m = result.message();
        assertThat(m.toolCalls()).extracting(ToolCallPart::name).containsExactly("get_weather", "search_docs");
        assertThat(m.toolCalls()).allSatisfy(call -> assertThat(call.argumentsValid()).isTrue());
        assertThat(m.finishReason()).as(wire.toString()).isEqualTo(FinishReason.TOOL_CALLS);
    }
}
