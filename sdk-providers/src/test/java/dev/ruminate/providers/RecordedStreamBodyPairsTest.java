package dev.ruminate.providers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.transport.http.ApiKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;

/**
 * Parity on the recordings: every recorded pair of one request made streamed ({@code X-stream.sse})
 * and not ({@code X.json}) in the same folder of {@code fixtures/}, and the pairs of one test run
 * both ways whose names do not say so ({@link #NAMED_PAIRS}: pydantic-ai's Anthropic and Bedrock
 * redacted-thinking tests), served over HTTP through one client of the folder's kind, streamed
 * and whole.
 *
 * <p>A pair is two calls, so two answers: the texts, the signatures, the ids and the token counts
 * differ, and some pairs were not even made with the same model (the Responses pairs of vercel/ai:
 * {@code gpt-5.1-codex-max} streamed, {@code gpt-5-mini} whole). Content parity cannot be asserted
 * on them; what is asserted is the <em>structure</em> both paths must give alike: the kinds of part
 * in order (reasoning, summary or raw, its source, text, tool call), which kinds of seal each part
 * carries, that both complete with every sealed part finished under one origin, the finish reason
 * (raw and mapped), and which usage fields are known. Where a pair's two answers differ in
 * structure themselves (the model chose another shape, or the server reported other usage fields),
 * that is named in {@link #EXPECTED_DIFFERENT} with what the recordings hold, the test checks that
 * they still differ, and compares what is left. Scripted conversations, where the
 * answer is the same both ways, are held to full parity by {@link StreamBodyParityProperties}.
 */
@ExtendWith(NettyLeakCheck.class)
class RecordedStreamBodyPairsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ChatRequest REQUEST = ChatRequest.builder("recorded-model").user("Hi").build();
    private static final String STREAM_SUFFIX = "-stream.sse";
    /** The client kind that reads each folder's recordings. */
    private static final Map<String, String> KIND_OF_FOLDER = Map.of(
            "anthropic", "anthropic",
            "deepseek", "deepseek",
            "groq", "groq",
            "openai-responses", "responses",
            "think-tags", "groq");
    /** Pairs of one test run streamed and not, whose names do not follow {@code X-stream.sse}/{@code X.json}. */
    private static final Map<String, String> NAMED_PAIRS = Map.of(
            "anthropic/pydantic-redacted-thinking-stream.sse", "anthropic/pydantic-redacted-thinking-multiturn.turn1.json",
            "bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream",
            "bedrock/pydantic-bedrock-claude-redacted-reasoning-multiturn.turn1.json");
    /**
     * Pairs whose two answers differ in structure, not only in content: what the recordings hold,
     * and the part of the structure that is still compared.
     */
    private static final Map<String, Difference> EXPECTED_DIFFERENT = Map.of(
            "openai-responses/vercel-reasoning-summary-encrypted-tool-call-stream.sse", new Difference(
                    "gpt-5.1-codex-max streamed a function_call; gpt-5-mini answered the body with a message",
                    Structure::reasoningOnly),
            "openai-responses/vercel-azure-reasoning-summary-encrypted-tool-call-stream.sse", new Difference(
                    "gpt-5.1-codex-max streamed a function_call; gpt-5-mini answered the body with a message",
                    Structure::reasoningOnly),
            "anthropic/pydantic-redacted-thinking-stream.sse", new Difference(
                    "the streamed answer has two redacted_thinking blocks, the body's one",
                    Structure::collapsed),
            "bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream", new Difference(
                    "the streamed answer has two redactedContent blocks, the body's one; the body's usage has"
                            + " cacheReadInputTokens (0), the stream's metadata none",
                    s -> s.collapsed().withoutCachedTokens()));

    /** How a pair's two answers differ, and what is compared nonetheless. */
    record Difference(String recorded, Function<Structure, Structure> compared) {
    }

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /** The stream recordings that have a whole-body twin, read off the folders. */
    static List<String> pairs() {
        List<String> pairs = new ArrayList<>();
        for (String folder : KIND_OF_FOLDER.keySet()) {
            for (String stream : Recorded.under(folder, STREAM_SUFFIX)) {
                String body = bodyOf(stream);
                if (Recorded.root().resolve(body).toFile().isFile()) {
                    pairs.add(stream);
                }
            }
        }
        pairs.addAll(NAMED_PAIRS.keySet());
        return pairs.stream().sorted().toList();
    }

    private static String bodyOf(String stream) {
        String named = NAMED_PAIRS.get(stream);
        return named != null ? named : stream.substring(0, stream.length() - STREAM_SUFFIX.length()) + ".json";
    }

    @Test
    void thePairsAreAllThere() {
        assertThat(pairs()).hasSizeGreaterThanOrEqualTo(9).allSatisfy(stream -> assertThat(Recorded.bytes(bodyOf(stream))).isNotEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void aRecordedStreamAndItsBodyHaveTheSameStructure(String stream) {
        String folder = stream.substring(0, stream.indexOf('/'));
        ChatProvider client = client(folder.equals("bedrock") ? "bedrock" : Objects.requireNonNull(KIND_OF_FOLDER.get(folder)));
        String contentType = stream.endsWith(".eventstream") ? "application/vnd.amazon.eventstream" : "text/event-stream";
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(stream), contentType));
        ChatResult streamed = reduce(client.stream(REQUEST));
        emulator.enqueue(EmulatorResponse.replay(Recorded.bytes(bodyOf(stream)), "application/json"));
        ChatResult whole = reduce(client.completeAsEvents(REQUEST));

        // both complete: every sealed part finished, one origin, the block its index
        Provenances.checked(streamed);
        Provenances.checked(whole);
        Structure s = structureOf(streamed.message());
        Structure w = structureOf(whole.message());
        Difference different = EXPECTED_DIFFERENT.get(stream);
        if (different == null) {
            assertThat(s).as(stream).isEqualTo(w);
        } else {
            // the answers really differ (if a recording is replaced, its exception must go)
            assertThat(s).as("%s: %s", stream, different.recorded()).isNotEqualTo(w);
            assertThat(different.compared().apply(s)).as(stream).isEqualTo(different.compared().apply(w));
        }
    }

    /** The structure of a message: what both paths must give alike even when the answers differ. */
    record Structure(List<String> parts, String finishReason, @Nullable String rawFinishReason, List<Boolean> usageKnown) {

        /** This structure without the answer: the reasoning parts, the raw finish reason, the usage known. */
        Structure reasoningOnly() {
            return new Structure(parts.stream().filter(p -> p.startsWith("reasoning")).toList(), "-", rawFinishReason, usageKnown);
        }

        /** This structure with runs of alike parts taken as one (two redacted blocks in a row as one). */
        Structure collapsed() {
            List<String> runs = new ArrayList<>();
            for (String p : parts) {
                if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(p)) {
                    runs.add(p);
                }
            }
            return new Structure(runs, finishReason, rawFinishReason, usageKnown);
        }

        /** This structure without telling whether cached tokens are known. */
        Structure withoutCachedTokens() {
            return new Structure(parts, finishReason, rawFinishReason, usageKnown.isEmpty() ? usageKnown : usageKnown.subList(0, 3));
        }
    }

    static Structure structureOf(AssistantMessage m) {
        List<String> parts = new ArrayList<>();
        for (Part p : m.parts()) {
            String kind = p instanceof ReasoningPart r
                    ? "reasoning(" + (r.summary() ? "summary" : "raw") + "," + r.source() + ")"
                    : p.getClass().getSimpleName();
            parts.add(kind + sealKinds(p.seals()));
        }
        Usage u = m.usage();
        List<Boolean> known = u == null ? List.of()
                : List.of(u.inputTokens() != null, u.outputTokens() != null, u.reasoningTokens() != null, u.cachedTokens() != null);
        return new Structure(parts, m.finishReason().name(), m.rawFinishReason(), known);
    }

    private static Set<Seal.Kind> sealKinds(Seals s) {
        Set<Seal.Kind> kinds = EnumSet.noneOf(Seal.Kind.class);
        for (Seal.Kind kind : Seal.Kind.values()) {
            if (s.get(kind) != null) {
                kinds.add(kind);
            }
        }
        return kinds;
    }

    private static ChatResult reduce(Flux<ChatEvent> events) {
        return Objects.requireNonNull(ChatReducer.defaults().reduce(events).block(WAIT), "no result");
    }

    private static ChatProvider client(String kind) {
        ProviderSettings.Builder settings = ProviderSettings.builder().baseUrl(emulator.baseUrl());
        if (kind.equals("bedrock")) {
            settings.region("us-east-1").awsCredentials(AwsCredentials.of("AKIDRECORDED", "recorded-secret"));
        } else {
            settings.apiKey(ApiKey.of("sk-recorded-pairs"));
        }
        return ProviderKinds.get(kind).create(settings.build());
    }
}
