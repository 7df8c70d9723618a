package dev.ruminate.providers.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.Usage;
import dev.ruminate.testkit.GeminiScript;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * A random Gemini stream written by the test kit's {@link GeminiScript} (thought summaries, answer
 * text with and without signatures, trailing signatures, whole function calls and Vertex AI's
 * {@code partialArgs} calls, with multi-byte and escaped characters, in random piece sizes), and
 * what it must reduce to, read off the script rather than the decoder: the reasoning and the text
 * in order, every call with its arguments and its own signature, every text signature on a text
 * part, usage and the finish reason.
 */
final class GeminiRandomScript {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    // Accents, CJK and astral characters (four UTF-8 bytes, a surrogate pair in Java), beside ASCII
    // and the characters JSON escapes.
    private static final int[] ALPHABET = "ab z\n\t\"\\{}<>:,éüßñ€→中文😀🧠𝄞🎉".codePoints().toArray();
    private static final String SIGNATURE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /** A scripted call: its name, its arguments as a JSON object, its signature. */
    record Call(String name, String arguments, @Nullable String signature) {
    }

    final byte[] body;
    final String description;
    private final StringBuilder reasoning = new StringBuilder();
    private final StringBuilder text = new StringBuilder();
    private final List<String> textSignatures = new ArrayList<>();
    private final List<Call> calls = new ArrayList<>();
    private final Usage usage;
    private final String finishReason;

    private GeminiRandomScript(Random random) {
        GeminiScript script = GeminiScript.create().model("gemini-3-pro-preview")
                .tokensOf(1 + random.nextInt(6)).usageOnEveryChunk(random.nextBoolean());
        StringBuilder steps = new StringBuilder();
        int count = 1 + random.nextInt(6);
        for (int i = 0; i < count; i++) {
            switch (random.nextInt(5)) {
                case 0 -> {
                    String t = text(random, 1 + random.nextInt(30));
                    script.thought(t);
                    reasoning.append(t);
                    steps.append("thought ");
                }
                case 1 -> {
                    String t = text(random, 1 + random.nextInt(30));
                    String signature = random.nextBoolean() ? signature(random, i) : null;
                    script.text(t, signature);
                    text.append(t);
                    if (signature != null) {
                        textSignatures.add(signature);
                    }
                    steps.append(signature == null ? "text " : "signed-text ");
                }
                case 2 -> {
                    String signature = signature(random, i);
                    script.trailingSignature(signature);
                    textSignatures.add(signature);
                    steps.append("trailing-signature ");
                }
                case 3 -> {
                    String arguments = "{\"q\":\"" + escape(text(random, random.nextInt(20))) + "\",\"n\":" + random.nextInt(100) + "}";
                    String signature = random.nextBoolean() ? signature(random, i) : null;
                    script.functionCall("fn" + i, arguments, signature);
                    calls.add(new Call("fn" + i, arguments, signature));
                    steps.append("call ");
                }
                default -> {
                    String value = text(random, 1 + random.nextInt(20));
                    String signature = random.nextBoolean() ? signature(random, i) : null;
                    script.streamedFunctionCall("fn" + i, "q", value, signature);
                    calls.add(new Call("fn" + i, "{\"q\":\"" + escape(value) + "\"}", signature));
                    steps.append("partial-args-call ");
                }
            }
        }
        if (StandardCharsets.US_ASCII.newEncoder().canEncode(reasoning.toString() + text + calls)) {
            // every script holds multi-byte characters for the cuts to split
            String t = text(random, 1 + random.nextInt(10)) + "ü中😀";
            script.text(t);
            text.append(t);
            steps.append("text");
        }
        long prompt = random.nextInt(999);
        long candidates = random.nextInt(999);
        long thoughts = random.nextInt(3) == 0 ? 0 : random.nextInt(999);
        script.usage(prompt, candidates, thoughts);
        this.usage = new Usage(prompt, candidates + thoughts, thoughts > 0 ? thoughts : null, null);
        this.finishReason = random.nextInt(4) == 0 ? "MAX_TOKENS" : "STOP";
        script.finishReason(finishReason);
        this.body = script.toSse().getBytes(StandardCharsets.UTF_8);
        this.description = steps.toString().trim() + " / " + finishReason;
    }

    static GeminiRandomScript of(Random random) {
        return new GeminiRandomScript(random);
    }

    /** Checks a reduced message against the script. */
    void assertReducedTo(AssistantMessage m) {
        assertThat(m.reasoning()).as("reasoning of %s", description).isEqualTo(reasoning.toString());
        assertThat(m.text()).as("text of %s", description).isEqualTo(text.toString());
        List<ToolCallPart> reduced = m.toolCalls();
        assertThat(reduced).as("calls of %s", description).hasSameSizeAs(calls);
        for (int i = 0; i < calls.size(); i++) {
            Call call = calls.get(i);
            ToolCallPart part = reduced.get(i);
            assertThat(part.name()).isEqualTo(call.name());
            assertThat(JSON.readTree(part.arguments())).as("arguments of %s", call.name())
                    .isEqualTo(JSON.readTree(call.arguments()));
            assertThat(part.seals().signature()).as("signature of %s", call.name()).isEqualTo(call.signature());
        }
        for (String signature : textSignatures) {
            List<Part> sealed = m.parts().stream().filter(p -> signature.equals(p.seals().signature())).toList();
            assertThat(sealed).as("parts signed %s in %s", signature, description).hasSize(1);
            assertThat(sealed.get(0)).isInstanceOf(TextPart.class);
        }
        assertThat(m.parts()).filteredOn(ReasoningPart.class::isInstance).allSatisfy(p -> assertThat(p.seals().isEmpty()).isTrue());
        assertThat(m.usage()).isEqualTo(usage);
        assertThat(m.rawFinishReason()).isEqualTo(finishReason);
        assertThat(m.finishReason()).isEqualTo(finishReason.equals("MAX_TOKENS") ? FinishReason.LENGTH
                : calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS);
    }

    @Override
    public String toString() {
        return description;
    }

    static String text(Random random, int codePoints) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            sb.appendCodePoint(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }

    private static String signature(Random random, int step) {
        StringBuilder sb = new StringBuilder("Sig").append(step).append('/');
        int n = 4 + random.nextInt(60);
        for (int i = 0; i < n; i++) {
            sb.append(SIGNATURE_CHARS.charAt(random.nextInt(SIGNATURE_CHARS.length())));
        }
        return sb.append("==").toString();
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t");
    }
}
