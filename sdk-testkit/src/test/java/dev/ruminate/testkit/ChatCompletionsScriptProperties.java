package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import tools.jackson.databind.JsonNode;

class ChatCompletionsScriptProperties {

    @Property(tries = 200)
    void deltasConcatenateToTheTextsAndHoldAtMostNCodePoints(@ForAll("texts") String reasoning,
                                                             @ForAll("texts") String content,
                                                             @ForAll("texts") String arguments,
                                                             @ForAll @IntRange(min = 1, max = 12) int n) {
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

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<Integer> codePoint = Arbitraries.oneOf(
                Arbitraries.integers().between(0x20, 0x7E),
                Arbitraries.integers().between(0x00, 0x1F),
                Arbitraries.integers().between(0xA0, 0xD7FF),
                Arbitraries.integers().between(0x1F300, 0x1FAFF));
        return codePoint.list().ofMaxSize(40)
                .map(points -> new String(points.stream().mapToInt(Integer::intValue).toArray(), 0, points.size()));
    }
}
