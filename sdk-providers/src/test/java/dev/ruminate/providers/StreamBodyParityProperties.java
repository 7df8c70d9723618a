package dev.ruminate.providers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * <b>Parity, the contract every family keeps:</b> the same conversation served as a stream
 * ({@link ChatProvider#stream}) and as a whole body ({@link ChatProvider#completeAsEvents}) reduces
 * to the same {@link ChatResult}: the same parts in the same order with the same seals (signatures,
 * encrypted and redacted reasoning, item ids, and the provenance: one origin, the block, the model,
 * finished), the same usage, the same finish reason, raw and mapped, and the same warnings. (Not the
 * reasoning check: it compares streamed reasoning deltas with a final text, which a whole body,
 * never streamed, does not have, so there it is unavailable by design.)
 *
 * <p>Each case is a random scripted conversation of one family, written by the test kit's script
 * for that family (which renders both the streaming wire shape and the documented whole-body
 * shape), served by the emulator over real HTTP both ways through one client, the stream cut in
 * random pieces. The conversations use what the family's whole body can say: Chat Completions and
 * Ollama bodies hold one reasoning string, one content string and then the tool calls, so their
 * conversations keep that order; Anthropic, Bedrock, Responses and Gemini bodies keep every block
 * in order, so theirs interleave freely; Perplexity's {@code <think>} tags ride in one content
 * string that the stream cuts anywhere.
 *
 * <p>A new family joins the contract by adding a {@link Family} to {@link #families()} (see
 * {@code docs/adding-a-provider.md}). Fifty-two conversations (thirteen cases) per family by default; widen with
 * {@code -Druminate.property.tries=N} and rerun one with {@code -Druminate.property.seed=S} (see
 * {@link Seeds}); several conversations share one case, since each case pays for a leak check.
 */
@ExtendWith(NettyLeakCheck.class)
class StreamBodyParityProperties {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int CONVERSATIONS_PER_CASE = 4;
    private static final ChatRequest REQUEST = ChatRequest.builder("parity-model").user("Hi").build();
    // Accents, CJK, astral characters and the characters JSON escapes, beside ASCII.
    private static final int[] ALPHABET = "ab z\n\t\"\\{}<>:,éü€→中😀🧠".codePoints().toArray();
    private static final String OPAQUE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    private static ProviderEmulator emulator;

    /**
     * One family (or one profile of one), how to build a client of the emulator for it, and how to
     * draw a random conversation in its wire shapes.
     */
    record Family(String kind, Function<Random, Conversation> conversations) {

        @Override
        public String toString() {
            return kind;
        }
    }

    /** One conversation in both wire shapes, and what it was made of, for failure messages. */
    record Conversation(String description, EmulatorResponse stream, EmulatorResponse body) {
    }

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** Every family, with the profiles whose reasoning carriers differ. */
    static List<Family> families() {
        return List.of(
                new Family("openai-compatible", r -> chatCompletions(r, false, pick(r, List.of(
                        List.of("reasoning_content"), List.of("reasoning"), List.of("reasoning_text"))))),
                new Family("deepseek", r -> chatCompletions(r, false, List.of("reasoning_content"))),
                new Family("openrouter", r -> chatCompletions(r, false, List.of("reasoning"))),
                new Family("mistral", r -> chatCompletions(r, true, List.of())),
                new Family("perplexity", StreamBodyParityProperties::thinkTags),
                new Family("responses", StreamBodyParityProperties::responses),
                new Family("anthropic", StreamBodyParityProperties::anthropic),
                new Family("gemini", StreamBodyParityProperties::gemini),
                new Family("vertex", StreamBodyParityProperties::gemini),
                new Family("ollama-native", StreamBodyParityProperties::ollama),
                new Family("bedrock", StreamBodyParityProperties::bedrock));
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Family family : families()) {
            Seeds.of(13).forEach(seed -> all.add(Arguments.of(family, seed)));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void theStreamAndTheWholeBodyReduceToTheSameMessage(Family family, long seed) {
        Random random = Seeds.random(seed);
        ChatProvider client = client(family.kind());
        for (int round = 0; round < CONVERSATIONS_PER_CASE; round++) {
            Conversation c = family.conversations().apply(random);
            emulator.enqueue(c.stream().chunked(ChunkPlan.random(random.nextLong(), 1 + random.nextInt(64))));
            ChatResult streamed = reduce(client.stream(REQUEST));
            emulator.enqueue(c.body());
            ChatResult whole = reduce(client.completeAsEvents(REQUEST));

            String what = family + " seed " + seed + " round " + round + ": " + c.description();
            // both complete: every sealed part finished, one origin, the block its index
            Provenances.checked(streamed);
            Provenances.checked(whole);
            assertThat(streamed.message()).as("the stream against the body of %s", what).isEqualTo(whole.message());
            assertThat(streamed.warnings()).as("warnings of the stream against the body of %s", what).isEqualTo(whole.warnings());
        }
    }

    private static ChatResult reduce(Flux<ChatEvent> events) {
        return Objects.requireNonNull(ChatReducer.defaults().reduce(events).block(WAIT), "no result");
    }

    private static ChatProvider client(String kind) {
        ProviderKind k = ProviderKinds.get(kind);
        ProviderSettings.Builder settings = ProviderSettings.builder().baseUrl(emulator.baseUrl());
        switch (k.credential()) {
            case API_KEY, OPTIONAL_API_KEY -> settings.apiKey(ApiKey.of("sk-parity"));
            case ACCESS_TOKEN -> settings.accessToken(ApiKey.of("ya29.parity"));
            case AWS_CREDENTIALS -> settings.awsCredentials(AwsCredentials.of("AKIDPARITY", "parity-secret"));
        }
        if (k.requires().contains(ProviderSetting.REGION)) {
            settings.region("us-east-1");
        }
        if (k.requires().contains(ProviderSetting.PROJECT)) {
            settings.project("p").location("global");
        }
        return k.create(settings.build());
    }

    // ---- Chat Completions: reasoning, then content, then tool calls (the order a body can hold)

    private static Conversation chatCompletions(Random r, boolean thinkingChunks, List<String> fields) {
        ChatCompletionsScript s = ChatCompletionsScript.create().model("parity-model").tokensOf(1 + r.nextInt(6))
                .thinkingChunks(thinkingChunks).wholeToolCalls(r.nextInt(4) == 0).usageOnFinishChunk(r.nextBoolean());
        if (!fields.isEmpty()) {
            s.reasoningFields(fields.get(0), fields.subList(1, fields.size()).toArray(String[]::new));
        }
        StringBuilder d = new StringBuilder();
        boolean reasoning = r.nextInt(3) > 0;
        boolean content = !reasoning || r.nextBoolean();
        int calls = thinkingChunks ? r.nextInt(2) : r.nextInt(3);
        if (reasoning) {
            s.reasoning(text(r));
            d.append("reasoning ");
        }
        if (content || calls == 0) {
            s.content(text(r));
            d.append("content ");
        }
        for (int i = 0; i < calls; i++) {
            s.toolCall("call_" + i, "fn" + i, arguments(r));
            d.append("call ");
        }
        String finish = calls > 0 ? "tool_calls" : r.nextInt(4) == 0 ? "length" : "stop";
        s.finish(finish).usage(r.nextInt(500), r.nextInt(500) + 20, r.nextInt(20));
        return new Conversation(d + finish, s.toResponse(), s.toCompletionResponse());
    }

    // ---- think tags in the content (Perplexity sonar-reasoning): the tags cut anywhere by the stream

    private static Conversation thinkTags(Random r) {
        ChatCompletionsScript s = ChatCompletionsScript.create().model("parity-model").tokensOf(1 + r.nextInt(6));
        String reasoning = "r" + text(r).replace("<", "(").replace(">", ")");
        String answer = text(r).replace("<", "(").replace(">", ")");
        // one content string, so the body holds what the stream's deltas add up to
        s.content("<think>" + reasoning + "</think>" + (r.nextBoolean() ? "\n\n" : "") + answer);
        String finish = r.nextInt(4) == 0 ? "length" : "stop";
        s.finish(finish).usage(r.nextInt(500), r.nextInt(500) + 20, 0);
        return new Conversation("think-tags " + finish, s.toResponse(), s.toCompletionResponse());
    }

    // ---- Responses: reasoning items (summaries, encrypted content, raw text), messages, calls, any order

    private static Conversation responses(Random r) {
        ResponsesScript s = ResponsesScript.create().model("parity-model").tokensOf(1 + r.nextInt(6))
                .argumentDeltas(r.nextBoolean()).reencrypt(r.nextBoolean());
        StringBuilder d = new StringBuilder();
        int items = 1 + r.nextInt(5);
        boolean calls = false;
        for (int i = 0; i < items; i++) {
            switch (r.nextInt(4)) {
                case 0 -> {
                    String[] summaries = new String[r.nextInt(3)];
                    for (int k = 0; k < summaries.length; k++) {
                        summaries[k] = text(r);
                    }
                    String encrypted = r.nextInt(4) == 0 ? null : opaque(r);
                    s.reasoning("rs_" + i, encrypted, summaries);
                    d.append("reasoning(").append(summaries.length).append(encrypted == null ? "" : ",encrypted").append(") ");
                }
                case 1 -> {
                    s.rawReasoning("rs_raw" + i, text(r));
                    d.append("raw-reasoning ");
                }
                case 2 -> {
                    s.text(text(r));
                    d.append("text ");
                }
                default -> {
                    s.functionCall("call_" + i, "fn" + i, arguments(r));
                    d.append("call ");
                    calls = true;
                }
            }
        }
        s.usage(r.nextInt(500), r.nextInt(500) + 20, r.nextInt(20), r.nextInt(10));
        if (!calls && r.nextInt(4) == 0) {
            s.incomplete("max_output_tokens");
            d.append("incomplete");
        }
        return new Conversation(d.toString(), s.toResponse(), s.toJsonResponse());
    }

    // ---- Anthropic: thinking (signed, omitted display, redacted), text, tool use, any order

    private static Conversation anthropic(Random r) {
        AnthropicScript s = AnthropicScript.create().model("parity-model").tokensOf(1 + r.nextInt(6));
        StringBuilder d = new StringBuilder();
        int blocks = 1 + r.nextInt(5);
        boolean calls = false;
        for (int i = 0; i < blocks; i++) {
            switch (r.nextInt(7)) {
                case 0 -> {
                    s.thinking(text(r), opaque(r));
                    d.append("thinking ");
                }
                case 5 -> {
                    s.serverToolUse("srvtoolu_" + i, "web_search", arguments(r))
                            .serverToolResult("web_search_tool_result", "srvtoolu_" + i,
                                    "[{\"type\":\"web_search_result\",\"url\":\"https://example.com/" + i + "\",\"title\":\"é中\"}]");
                    d.append("server-tool-use+result ");
                }
                case 6 -> {
                    s.ping().mcpToolUse("mcptoolu_" + i, "lookup", "docs", arguments(r));
                    d.append("ping mcp-tool-use ");
                }
                case 1 -> {
                    s.omittedThinking(opaque(r));
                    d.append("omitted-thinking ");
                }
                case 2 -> {
                    s.redactedThinking(opaque(r));
                    d.append("redacted ");
                }
                case 3 -> {
                    s.text(text(r));
                    d.append("text ");
                }
                default -> {
                    s.toolUse("toolu_" + i, "fn" + i, arguments(r));
                    d.append("tool-use ");
                    calls = true;
                }
            }
        }
        String stop = calls ? "tool_use" : pick(r, List.of("end_turn", "end_turn", "max_tokens", "pause_turn", "refusal"));
        s.stopReason(stop).usage(r.nextInt(500), r.nextInt(500) + 20);
        return new Conversation(d + stop, s.toResponse(), s.toMessageResponse());
    }

    // ---- Gemini (AI Studio and Vertex AI): thoughts, text with and without signatures, calls, any order

    private static Conversation gemini(Random r) {
        GeminiScript s = GeminiScript.create().model("parity-model").tokensOf(1 + r.nextInt(6))
                .usageOnEveryChunk(r.nextBoolean());
        StringBuilder d = new StringBuilder();
        int parts = 1 + r.nextInt(5);
        boolean calls = false;
        for (int i = 0; i < parts; i++) {
            switch (r.nextInt(5)) {
                case 0 -> {
                    s.thought(text(r));
                    d.append("thought ");
                }
                case 1 -> {
                    String signature = r.nextBoolean() ? opaque(r) : null;
                    s.text(text(r), signature);
                    d.append(signature == null ? "text " : "signed-text ");
                }
                case 2 -> {
                    s.trailingSignature(opaque(r));
                    d.append("trailing-signature ");
                }
                case 3 -> {
                    s.functionCall("fn" + i, arguments(r), r.nextBoolean() ? opaque(r) : null);
                    d.append("call ");
                    calls = true;
                }
                default -> {
                    // a value, never empty: an empty one streams no fragment at all, so the stream cannot tell it
                    s.streamedFunctionCall("fn" + i, "q", "v" + text(r), r.nextBoolean() ? opaque(r) : null);
                    d.append("partial-args-call ");
                    calls = true;
                }
            }
        }
        String finish = calls || r.nextInt(4) > 0 ? "STOP" : "MAX_TOKENS";
        s.finishReason(finish).usage(r.nextInt(500), r.nextInt(500), r.nextInt(3) == 0 ? 0 : r.nextInt(300));
        return new Conversation(d + finish, s.toResponse(), s.toJsonResponse());
    }

    // ---- Ollama /api/chat: thinking, then content, then tool calls (the order a body can hold)

    private static Conversation ollama(Random r) {
        OllamaScript s = OllamaScript.create().model("parity-model").tokensOf(1 + r.nextInt(6));
        StringBuilder d = new StringBuilder();
        boolean thinking = r.nextInt(3) > 0;
        int calls = r.nextInt(3);
        if (thinking) {
            s.thinking(text(r));
            d.append("thinking ");
        }
        if (!thinking || calls == 0 || r.nextBoolean()) {
            s.content(text(r));
            d.append("content ");
        }
        for (int i = 0; i < calls; i++) {
            if (r.nextBoolean()) {
                s.toolCall("call_" + i, "fn" + i, arguments(r));
            } else {
                s.toolCall("fn" + i, arguments(r));
            }
            d.append("call ");
        }
        String done = r.nextInt(4) == 0 ? "length" : "stop";
        s.doneReason(done).usage(r.nextInt(500), r.nextInt(500) + 20);
        return new Conversation(d + done, s.toResponse(), s.toJsonResponse());
    }

    // ---- Bedrock Converse: reasoning (signed or not), redacted reasoning, text, tool use, any order

    private static Conversation bedrock(Random r) {
        BedrockScript s = BedrockScript.create().tokensOf(1 + r.nextInt(6));
        StringBuilder d = new StringBuilder();
        int blocks = 1 + r.nextInt(5);
        boolean calls = false;
        for (int i = 0; i < blocks; i++) {
            switch (r.nextInt(4)) {
                case 0 -> {
                    String signature = r.nextInt(4) == 0 ? null : opaque(r);
                    s.reasoning(text(r), signature);
                    d.append(signature == null ? "reasoning " : "signed-reasoning ");
                }
                case 1 -> {
                    s.redacted(opaque(r));
                    d.append("redacted ");
                }
                case 2 -> {
                    s.text(text(r));
                    d.append("text ");
                }
                default -> {
                    s.toolUse("tooluse_" + i, "fn" + i, arguments(r));
                    d.append("tool-use ");
                    calls = true;
                }
            }
        }
        String stop = calls ? "tool_use" : pick(r, List.of("end_turn", "end_turn", "max_tokens"));
        s.stopReason(stop).usage(r.nextInt(500), r.nextInt(500) + 20);
        return new Conversation(d + stop, s.toResponse(), jsonBody(s.toConverseJson()));
    }

    // ---- random material

    private static EmulatorResponse jsonBody(String json) {
        return EmulatorResponse.bytes("application/json", json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A text of 1 to 24 code points, now and then empty: an empty text must vanish (or not) both ways alike. */
    private static String text(Random r) {
        if (r.nextInt(12) == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        int n = 1 + r.nextInt(24);
        for (int i = 0; i < n; i++) {
            sb.appendCodePoint(ALPHABET[r.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }

    /** A JSON object of arguments, with escaped and multi-byte characters; now and then {@code {}}. */
    private static String arguments(Random r) {
        if (r.nextInt(8) == 0) {
            return "{}";
        }
        String q = text(r).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t");
        return "{\"q\":\"" + q + "\",\"n\":" + r.nextInt(100) + ",\"flag\":" + r.nextBoolean() + "}";
    }

    /** An opaque value (signature, encrypted content, redacted data) of base64 characters. */
    private static String opaque(Random r) {
        StringBuilder sb = new StringBuilder("Op");
        int n = 8 + r.nextInt(48);
        for (int i = 0; i < n; i++) {
            sb.append(OPAQUE.charAt(r.nextInt(OPAQUE.length())));
        }
        return sb.append("==").toString();
    }

    private static <T> T pick(Random r, List<T> choices) {
        return choices.get(r.nextInt(choices.size()));
    }
}
