package dev.ruminate.providers.provenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.anthropic.AnthropicProvider;
import dev.ruminate.providers.bedrock.AwsCredentials;
import dev.ruminate.providers.bedrock.BedrockProvider;
import dev.ruminate.providers.chatcompletions.ChatCompletionsProvider;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiProvider;
import dev.ruminate.providers.ollama.OllamaProvider;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.responses.ResponsesProvider;
import dev.ruminate.providers.spi.ApiIds;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.providers.spi.ProviderPipeline;
import dev.ruminate.providers.testing.Recorded;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.ResponsesScript;
import dev.ruminate.transport.http.ApiKey;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Provenance end to end: recorded and scripted streams of every family served by the emulator,
 * read by the real provider client, reduced; each sealed part must say where it was made (provider,
 * API, endpoint, account fingerprint), with which model, at which block, and whether its block
 * closed, also when the connection is reset at any frame boundary.
 */
@ExtendWith(NettyLeakCheck.class)
class ProvenanceOverHttpTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String REQUESTED = "m";
    private static final ChatRequest REQUEST = ChatRequest.builder(REQUESTED).user("x").build();
    private static final String SSE = "text/event-stream";
    private static final String EVENT_STREAM = "application/vnd.amazon.eventstream";

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    /**
     * One family's case: a body with opaque state, how it is framed, the client pointed at a base URL.
     *
     * @param basePath the path the client's base URL has below the emulator's root
     * @param key the API key the client sends, or null when the family's origin has no account
     * @param stateBeforeEnd whether the API sends opaque state before the block's end, so that a cut
     *     can leave a sealed block open (Responses sends it only with {@code output_item.done}; the
     *     Vertex recording's one signature is on a whole call, which its chunk also ends)
     */
    record Family(String label, byte[] body, String contentType, String api, String basePath, @Nullable String key,
                  boolean stateBeforeEnd, Function<String, HttpChatProvider> client) {

        HttpChatProvider provider() {
            return client.apply(emulator.baseUrl() + basePath);
        }

        @Override
        public String toString() {
            return label;
        }
    }

    static Stream<Family> families() {
        return Stream.of(
                new Family("openrouter reasoning_details", Recorded.bytes("openrouter/pydantic-openrouter-claude-reasoning-details-stream.sse"),
                        SSE, ApiIds.CHAT_COMPLETIONS, "/v1", "sk-or-v1-provenance-0001", true,
                        base -> ChatCompletionsProvider.builder(Profiles.OPENROUTER).baseUrl(base)
                                .apiKey(ApiKey.of("sk-or-v1-provenance-0001")).build()),
                new Family("responses encrypted reasoning", Recorded.bytes("openai-responses/vercel-reasoning-summary-encrypted-tool-call-stream.sse"),
                        SSE, ApiIds.RESPONSES, "/v1", "sk-proj-provenance-0002", false,
                        base -> ResponsesProvider.builder(ResponsesProfiles.OPENAI).baseUrl(base)
                                .apiKey(ApiKey.of("sk-proj-provenance-0002")).build()),
                new Family("anthropic thinking", Recorded.bytes("anthropic/pydantic-thinking-stream.sse"),
                        SSE, ApiIds.ANTHROPIC_MESSAGES, "", "sk-ant-provenance-0003", true,
                        base -> AnthropicProvider.builder().baseUrl(base).apiKey(ApiKey.of("sk-ant-provenance-0003")).build()),
                new Family("gemini thought signatures", Recorded.bytes("gemini/vercel-gemini3-reasoning-thought-signature-stream.sse"),
                        SSE, ApiIds.GEMINI, "/v1beta", "AIzaSy-provenance-0004", true,
                        base -> GeminiProvider.builder().baseUrl(base).apiKey(ApiKey.of("AIzaSy-provenance-0004")).build()),
                new Family("vertex thought signatures", Recorded.bytes("gemini/vercel-vertex-gemini3-thought-text-partial-args-tool-calls-stream.sse"),
                        SSE, ApiIds.GEMINI, "", null, false,
                        base -> GeminiProvider.vertex("p", "global").baseUrl(base).accessToken(ApiKey.of("ya29.provenance")).build()),
                new Family("bedrock redacted reasoning", Recorded.bytes("bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream"),
                        EVENT_STREAM, ApiIds.BEDROCK_CONVERSE, "", null, true,
                        base -> BedrockProvider.builder("us-east-1").baseUrl(base)
                                .credentials(new AwsCredentials("AKIDPROVENANCE", ApiKey.of("aws-secret-provenance-0005"), null)).build()));
    }

    /** The fingerprint as the contract defines it, computed here independently of the pipeline. */
    static String fingerprint(String material) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update("ruminate-account-v1\0".getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(sha.digest(material.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
    }

    static String emulatorHostPort() {
        URI base = emulator.baseUrl();
        return base.getHost() + ":" + base.getPort();
    }

    // ---- (a) every family, a whole recorded stream

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void everySealedPartSaysWhereItWasMadeWhichModelAndThatItsBlockFinished(Family f) throws Exception {
        HttpChatProvider provider = f.provider();
        emulator.enqueue(EmulatorResponse.replay(f.body(), f.contentType()));

        ChatResult result = ChatReducer.defaults().reduce(provider.stream(REQUEST)).block(WAIT);

        AssistantMessage m = Objects.requireNonNull(result).message();
        Origin expected = new Origin(provider.name(), f.api(), emulatorHostPort() + f.basePath(),
                f.key() == null ? null : fingerprint(f.key()));
        assertThat(provider.origin()).isEqualTo(expected);
        List<Part> parts = m.parts();
        assertThat(parts).as("the recording has opaque state").anyMatch(p -> !p.seals().isEmpty());
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            Provenance provenance = p.seals().provenance();
            if (p.seals().isEmpty()) {
                assertThat(provenance).as("part %d has no state", i).isNull();
                continue;
            }
            assertThat(provenance).as("part %d", i).isEqualTo(new Provenance(expected, m.model(), i, true, REQUESTED));
        }
        assertThat(m.model()).as("the model the provider reported").isNotBlank();
        if (f.key() != null) {
            assertThat(expected.account()).matches("[0-9a-f]{16}").doesNotContain(f.key()).isNotEqualTo(f.key());
            assertThat(m.toString()).doesNotContain(f.key());
        }
    }

    @Test
    void aWholeBodyCallStampsTheOriginToo() throws Exception {
        AnthropicProvider provider = AnthropicProvider.builder().baseUrl(emulator.baseUrl().toString())
                .apiKey(ApiKey.of("sk-ant-body")).build();
        emulator.enqueue(AnthropicScript.create().thinking("Plan.", "sig-1").text("Done.").toMessageResponse());

        AssistantMessage m = Objects.requireNonNull(
                ChatReducer.defaults().reduce(provider.completeAsEvents(REQUEST)).block(WAIT)).message();

        assertThat(m.parts().get(0).seals().provenance())
                .isEqualTo(new Provenance(provider.origin(), m.model(), 0, true, REQUESTED));
        assertThat(provider.origin().account()).isEqualTo(fingerprint("sk-ant-body"));
    }

    @Test
    void ollamaMakesNoOpaqueStateSoNoPartCarriesProvenanceButBothEndpointsNameTheirApi() throws Exception {
        OllamaProvider provider = OllamaProvider.builder().baseUrl(emulator.baseUrl().toString())
                .apiKey(ApiKey.of("ollama-cloud-key")).build();
        emulator.enqueue(OllamaScript.create().thinking("Let me think.").content("Four.").toResponse());

        List<ChatEvent> events = provider.stream(REQUEST).collectList().block(WAIT);
        AssistantMessage m = Objects.requireNonNull(
                ChatReducer.defaults().reduce(reactor.core.publisher.Flux.fromIterable(events)).block(WAIT)).message();

        assertThat(m.parts()).hasSize(2).allSatisfy(p -> {
            assertThat(p.seals().isEmpty()).isTrue();
            assertThat(p.seals().provenance()).isNull();
        });
        Origin chat = new Origin(provider.name(), ApiIds.OLLAMA_CHAT, emulatorHostPort(), fingerprint("ollama-cloud-key"));
        assertThat(provider.origin()).isEqualTo(chat);
        assertThat(((ResponseStarted) events.get(0)).origin()).isEqualTo(chat);

        emulator.enqueue(OllamaScript.create().endpoint(OllamaScript.Endpoint.GENERATE).content("Four.").toResponse());
        ChatEvent first = provider.generate(REQUEST).blockFirst(WAIT);
        assertThat(first).isInstanceOf(ResponseStarted.class);
        assertThat(((ResponseStarted) first).origin())
                .isEqualTo(new Origin(provider.name(), ApiIds.OLLAMA_GENERATE, emulatorHostPort(), chat.account()));
    }

    // ---- (b) streams cut at every frame boundary

    /** What one cut gave: the events delivered before the failure (or all), and the message. */
    record Cut(int at, List<ChatEvent> events, @Nullable AssistantMessage message, boolean completed) {
    }

    private static Cut cutAt(HttpChatProvider provider, String contentType, byte[] body, int at) {
        emulator.enqueue(EmulatorResponse.bytes(contentType, body).resetAfter(at));
        List<ChatEvent> events = new ArrayList<>();
        try {
            ChatResult r = ChatReducer.defaults().reduce(provider.stream(REQUEST).doOnNext(events::add)).block(WAIT);
            return new Cut(at, events, Objects.requireNonNull(r).message(), true);
        } catch (RuminateException e) {
            return new Cut(at, events, e.partial(), false);
        }
    }

    /** The byte offsets just after each frame: SSE's blank lines, AWS event-stream's length-prefixed messages. */
    static List<Integer> frameEnds(byte[] body, String contentType) {
        List<Integer> ends = new ArrayList<>();
        if (contentType.equals(EVENT_STREAM)) {
            int at = 0;
            while (at + 4 <= body.length) {
                int length = ((body[at] & 0xff) << 24) | ((body[at + 1] & 0xff) << 16) | ((body[at + 2] & 0xff) << 8)
                        | (body[at + 3] & 0xff);
                at += length;
                ends.add(at);
            }
        } else {
            for (int i = 0; i + 1 < body.length; i++) {
                if (body[i] == '\n' && body[i + 1] == '\n') {
                    ends.add(i + 2);
                } else if (body[i] == '\n' && body[i + 1] == '\r' && i + 2 < body.length && body[i + 2] == '\n') {
                    ends.add(i + 3);
                }
            }
        }
        return ends;
    }

    /**
     * Checks one cut: every sealed part has the provider's origin and its block, and is finished iff
     * its {@link PartEnded} was among the delivered events or the response completed.
     *
     * @return for each sealed part in order, whether it is finished
     */
    private static List<Boolean> checkFinishedIffEnded(HttpChatProvider provider, Cut cut) {
        List<Boolean> finished = new ArrayList<>();
        AssistantMessage m = cut.message();
        if (m == null) {
            assertThat(cut.events()).as("no message only when no event came, cut at %d", cut.at()).isEmpty();
            return finished;
        }
        // the message's parts are the events' part indices in order
        TreeSet<Integer> indices = new TreeSet<>();
        List<Integer> ended = new ArrayList<>();
        boolean completed = false;
        for (ChatEvent e : cut.events()) {
            Integer part = partOf(e);
            if (part != null) {
                indices.add(part);
            }
            if (e instanceof PartEnded p) {
                ended.add(p.part());
            }
            completed |= e instanceof ResponseCompleted;
        }
        List<Integer> eventIndex = new ArrayList<>(indices);
        for (int i = 0; i < m.parts().size(); i++) {
            Part p = m.parts().get(i);
            if (p.seals().isEmpty()) {
                continue;
            }
            Provenance provenance = p.seals().provenance();
            assertThat(provenance).as("cut at %d, part %d", cut.at(), i).isNotNull();
            assertThat(provenance.origin()).isEqualTo(provider.origin());
            assertThat(provenance.block()).isEqualTo(i);
            boolean blockEnded = ended.contains(eventIndex.get(i));
            assertThat(provenance.finished()).as("cut at %d, part %d: finished iff its end came (%s) or the response completed (%s)",
                    cut.at(), i, blockEnded, completed).isEqualTo(blockEnded || completed);
            finished.add(provenance.finished());
        }
        return finished;
    }

    private static @Nullable Integer partOf(ChatEvent e) {
        if (e instanceof dev.ruminate.core.event.ReasoningDelta d) {
            return d.part();
        } else if (e instanceof dev.ruminate.core.event.ContentDelta d) {
            return d.part();
        } else if (e instanceof dev.ruminate.core.event.ToolCallDelta d) {
            return d.part();
        } else if (e instanceof dev.ruminate.core.event.ServerToolBlock b) {
            return b.part();
        } else if (e instanceof dev.ruminate.core.event.Seal s) {
            return s.part();
        } else if (e instanceof dev.ruminate.core.event.ReasoningFinal f) {
            return f.part();
        }
        return null;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void aRecordingCutAtEveryFrameLeavesFinishedExactlyTheBlocksThatEnded(Family f) {
        HttpChatProvider provider = f.provider();
        boolean sawUnfinished = false;
        List<Integer> ends = frameEnds(f.body(), f.contentType());
        assertThat(ends).as("frames found").hasSizeGreaterThan(1);
        for (int at : ends) {
            // a cut inside a frame delivers what the cut at its start does: frame ends cover every outcome
            List<Boolean> finished = checkFinishedIffEnded(provider, cutAt(provider, f.contentType(), f.body(), at));
            sawUnfinished |= finished.contains(false);
        }
        assertThat(sawUnfinished).as("some cut leaves a sealed block open").isEqualTo(f.stateBeforeEnd());
    }

    /** Cuts a scripted body everywhere; returns, per cut that left sealed parts, their finished flags. */
    private static List<List<Boolean>> cutEverywhere(HttpChatProvider provider, String contentType, byte[] body) {
        List<List<Boolean>> all = new ArrayList<>();
        for (int at : frameEnds(body, contentType)) {
            List<Boolean> finished = checkFinishedIffEnded(provider, cutAt(provider, contentType, body, at));
            if (!finished.isEmpty()) {
                all.add(finished);
            }
        }
        return all;
    }

    @Test
    void anthropicThinkingSignedButNeverClosedIsUnfinishedWhileTheClosedBlockBeforeIsFinished() {
        AnthropicProvider provider = AnthropicProvider.builder().baseUrl(emulator.baseUrl().toString())
                .apiKey(ApiKey.of("sk-ant-cut")).build();
        String sse = AnthropicScript.create().thinking("First.", "sig-a").toolUse("toolu_1", "f", "{}")
                .thinking("Second.", "sig-b").text("Done.").toSse();
        byte[] body = sse.getBytes(StandardCharsets.UTF_8);

        List<List<Boolean>> cuts = cutEverywhere(provider, SSE, body);
        assertThat(cuts).as("a cut with the first block closed and the second signed but open")
                .contains(List.of(true, false));

        // the exact case: cut right after the second signature_delta, before its content_block_stop
        int second = sse.indexOf("sig-b");
        int cut = sse.indexOf("\n\n", second) + 2;
        assertThat(sse.substring(second, sse.indexOf("\n\n", cut))).doesNotContain("content_block_stop\n\n")
                .contains("content_block_stop");
        AssistantMessage partial = Objects.requireNonNull(cutAt(provider, SSE, body, cut).message());
        Part open = partial.parts().get(2);
        assertThat(open.seals().signature()).isEqualTo("sig-b");
        assertThat(open.seals().provenance()).isEqualTo(new Provenance(provider.origin(), partial.model(), 2, false, REQUESTED));
        assertThat(partial.parts().get(0).seals().provenance()).isEqualTo(new Provenance(provider.origin(), partial.model(), 0, true, REQUESTED));
    }

    @Test
    void aResponsesReasoningItemAddedButNeverDoneHasNoStateAndTheDoneOneBeforeIsFinished() {
        ResponsesProvider provider = ResponsesProvider.builder(ResponsesProfiles.OPENAI).baseUrl(emulator.baseUrl() + "/v1")
                .apiKey(ApiKey.of("sk-proj-cut")).build();
        String sse = ResponsesScript.create().reasoning("rs_1", "ENC-1", "First.").functionCall("call_1", "f", "{}")
                .reasoning("rs_2", "ENC-2", "Second.").text("Done.").toSse();
        byte[] body = sse.getBytes(StandardCharsets.UTF_8);

        List<List<Boolean>> cuts = cutEverywhere(provider, SSE, body);

        // Responses sends an item's id and encrypted content only with output_item.done, which also
        // closes it: an open reasoning item has no state at all, so none of it can go back
        assertThat(cuts).as("the first item done, the second not yet").contains(List.of(true));
        assertThat(cuts).allSatisfy(flags -> assertThat(flags).doesNotContain(false));
        // the exact case: after the second item's summary began, before the item is done
        int open = sse.indexOf("Second.");
        int cut = sse.indexOf("\n\n", open) + 2;
        // (the emulator, as OpenAI, sends a provisional encrypted_content with output_item.added; the decoder keeps the done one)
        assertThat(sse.substring(0, cut)).contains("ENC-2-added").doesNotContain("\"encrypted_content\":\"ENC-2\"");
        AssistantMessage partial = Objects.requireNonNull(cutAt(provider, SSE, body, cut).message());
        Part last = partial.parts().get(partial.parts().size() - 1);
        assertThat(last).isInstanceOf(dev.ruminate.core.message.ReasoningPart.class);
        assertThat(last.seals().isEmpty()).isTrue();
        assertThat(last.seals().provenance()).isNull();
        assertThat(partial.parts().get(0).seals().provenance())
                .isEqualTo(new Provenance(provider.origin(), partial.model(), 0, true, REQUESTED));
    }

    @Test
    void aBedrockReasoningBlockSignedButNeverStoppedIsUnfinished() {
        BedrockProvider provider = BedrockProvider.builder("us-east-1").baseUrl(emulator.baseUrl().toString())
                .credentials(new AwsCredentials("AKIDCUT", ApiKey.of("aws-secret-cut"), null)).build();
        byte[] body = BedrockScript.create().reasoning("First.", "sig-a").toolUse("tooluse_1", "f", "{}")
                .reasoning("Second.", "sig-b").text("Done.").stopReason("end_turn").toEventStream();

        List<List<Boolean>> cuts = cutEverywhere(provider, EVENT_STREAM, body);

        assertThat(cuts).as("a cut with the first block stopped and the second signed but open").contains(List.of(true, false));
        assertThat(cuts).as("and the whole stream, completed").contains(List.of(true, true));
        assertThat(provider.origin().account()).isNull();
    }

    // ---- (c) the account fingerprint

    @Test
    void differentKeysGiveDifferentAccountsTheSameKeyTheSameAndNeverTheKey() throws Exception {
        String base = emulator.baseUrl() + "/v1";
        Origin a = ChatCompletionsProvider.builder(Profiles.DEEPSEEK).baseUrl(base).apiKey(ApiKey.of("sk-key-a-1234567890")).build().origin();
        Origin a2 = ChatCompletionsProvider.builder(Profiles.DEEPSEEK).baseUrl(base).apiKey(ApiKey.of("sk-key-a-1234567890")).build().origin();
        Origin b = ChatCompletionsProvider.builder(Profiles.DEEPSEEK).baseUrl(base).apiKey(ApiKey.of("sk-key-b-1234567890")).build().origin();

        assertThat(a).isEqualTo(a2);
        assertThat(a.account()).isNotEqualTo(b.account());
        for (Origin o : List.of(a, b)) {
            assertThat(o.account()).matches("[0-9a-f]{16}");
            assertThat(o.toString()).doesNotContain("sk-key").doesNotContain("1234567890");
        }
        assertThat(a.account()).isEqualTo(fingerprint("sk-key-a-1234567890"));
    }

    @Test
    void theEndpointIsHostPortAndPathWithoutSchemeQueryOrTrailingSlash() {
        URI root = emulator.baseUrl();
        String base = "http://" + root.getHost().toUpperCase(java.util.Locale.ROOT) + ":" + root.getPort()
                + "/openai/deployments/d1/?api-version=2025-01-01";
        Origin o = ChatCompletionsProvider.builder(Profiles.OPENAI).baseUrl(base).apiKey(ApiKey.of("azure-key")).build().origin();

        assertThat(o.endpoint()).isEqualTo(emulatorHostPort() + "/openai/deployments/d1");
        assertThat(o.api()).isEqualTo(ApiIds.CHAT_COMPLETIONS);
        assertThat(o.provider()).isEqualTo("openai");
    }

    @Test
    void defaultEndpointsNameWhatTheStateIsBoundToAndRotatingCredentialsGiveNoAccount() throws Exception {
        Origin vertex = GeminiProvider.vertex("my-proj", "us-central1").accessToken(ApiKey.of("ya29.token")).build().origin();
        Origin bedrock = BedrockProvider.builder("eu-west-1")
                .credentials(new AwsCredentials("AKIDDEFAULT", ApiKey.of("aws-secret-default"), null)).build().origin();
        Origin anthropic = AnthropicProvider.builder().apiKey(ApiKey.of("sk-ant-default")).build().origin();

        assertThat(vertex).isEqualTo(new Origin("vertex", ApiIds.GEMINI,
                "us-central1-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-central1/publishers/google", null));
        assertThat(bedrock).isEqualTo(new Origin("bedrock", ApiIds.BEDROCK_CONVERSE, "bedrock-runtime.eu-west-1.amazonaws.com", null));
        assertThat(anthropic).isEqualTo(new Origin("anthropic", ApiIds.ANTHROPIC_MESSAGES, "api.anthropic.com",
                fingerprint("sk-ant-default")));
    }

    @Test
    void aLocalServerWithoutAKeyHasNoAccount() {
        Origin o = ChatCompletionsProvider.builder(Profiles.VLLM).baseUrl(emulator.baseUrl() + "/v1").build().origin();
        assertThat(o.account()).isNull();
    }

    @Test
    void anExplicitAccountReplacesTheKeyAsTheIdentity() throws Exception {
        ProviderPipeline<?> pipeline = ProviderPipeline.builder("anthropic", AnthropicCodec.of(1024),
                        AnthropicProvider.builder().baseUrl(emulator.baseUrl().toString()), null)
                .account("org-7f3c")
                .auth("x-api-key", "", ApiKey.of("sk-ant-other"))
                .build();

        assertThat(pipeline.origin().account()).isEqualTo(fingerprint("org-7f3c")).isNotEqualTo(fingerprint("sk-ant-other"));
        assertThat(pipeline.withCodec(AnthropicCodec.of(2048)).origin()).isEqualTo(pipeline.origin());
        assertThat(pipeline.toString()).doesNotContain("org-7f3c").doesNotContain("sk-ant-other");
    }
}
