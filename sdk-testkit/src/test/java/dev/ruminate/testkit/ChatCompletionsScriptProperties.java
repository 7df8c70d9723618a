package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

class ChatCompletionsScriptProperties {

    static LongStream seeds() {
        return Seeds.of(200);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void deltasConcatenateToTheTextsAndHoldAtMostNCodePoints(long seed) {
        Random random = Seeds.random(seed);
        String reasoning = Seeds.text(random, 40);
        String content = Seeds.text(random, 40);
        String arguments = Seeds.text(random, 40);
        int n = 1 + random.nextInt(12);
        List<JsonNode> chunks = ChatCompletionsScriptTest.parse(ChatCompletionsScriptTest.dataWithoutDone(
                ChatCompletionsScript.create()
                        .reasoning(reasoning).content(content).toolCall("call_1", "f", arguments)
                        .tokensOf(n).toSse()));

        List<String> reasoningPieces = ChatCompletionsScriptTest.strings(chunks, "reasoning_content");
        List<String> contentPieces = ChatCompletionsScriptTest.strings(chunks.subList(1, chunks.size()), "content");
        List<String> argumentPieces = ChatCompletionsScriptTest.toolCalls(chunks).stream()
                .map(call -> call.get("function").get("arguments").stringValue())
                .toList();
        assertThat(String.join("", reasoningPieces)).isEqualTo(reasoning);
        assertThat(String.join("", contentPieces)).isEqualTo(content);
        assertThat(String.join("", argumentPieces)).isEqualTo(arguments);
        for (List<String> pieces : List.of(reasoningPieces, contentPieces, argumentPieces.subList(1, argumentPieces.size()))) {
            assertThat(pieces).allSatisfy(piece -> {
                assertThat(piece.codePointCount(0, piece.length())).isLessThanOrEqualTo(n);
                if (!piece.isEmpty()) {
                    assertThat(Character.isLowSurrogate(piece.charAt(0))).as("starts inside a pair").isFalse();
                    assertThat(Character.isHighSurrogate(piece.charAt(piece.length() - 1))).as("ends inside a pair")
                            .isFalse();
                }
            });
        }
    }
}
