package dev.ruminate.examples.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The page itself, in headless Chromium driven over the DevTools protocol: reasoning renders above
 * the answer and folds away when the answer starts; closing the page cancels the SSE request all the
 * way to the provider's connection. Skipped when no Chromium is installed ({@code .ci/run} installs
 * Debian's {@code chromium}).
 */
@ExtendWith(NettyLeakCheck.class)
class ChatPageBrowserTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** Resolves when the page's stream has ended (or at once if it has), with what the page shows. */
    private static final String WHEN_DONE = """
            new Promise(resolve => {
              const report = () => {
                const reasoning = document.getElementById("reasoning");
                const answer = document.getElementById("answer");
                resolve(JSON.stringify({
                  milestones: window.ruminate.milestones,
                  reasoningOpen: reasoning.open,
                  reasoningVisible: !reasoning.hidden,
                  reasoningAboveAnswer: !!(reasoning.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING),
                  reasoning: document.getElementById("reasoning-text").textContent,
                  answer: answer.textContent,
                  status: document.getElementById("status").textContent
                }));
              };
              if (window.ruminate.done) report(); else document.addEventListener("ruminate:done", report);
            })""";

    /** Resolves once the first reasoning text is on the page. */
    private static final String WHEN_REASONING = """
            new Promise(resolve => {
              const report = () => resolve(document.getElementById("reasoning-text").textContent);
              if (window.ruminate.milestones.includes("reasoning")) report();
              else document.addEventListener("ruminate:reasoning", report);
            })""";

    private static RunningApp app;
    private static Chromium chromium;
    private static DevTools devTools;

    private static final Optional<Path> BINARY = Chromium.binary();

    @BeforeAll
    static void start() throws Exception {
        if (BINARY.isPresent()) {
            app = RunningApp.start("ruminate.example.pace=5ms");
            chromium = Chromium.launch(BINARY.get());
            devTools = new DevTools(chromium.browserUrl());
        }
    }

    /** Per test rather than per class, so that each skipped test is reported with the reason. */
    @BeforeEach
    void requireChromium() {
        Assumptions.assumeTrue(BINARY.isPresent(),
                "no Chromium binary (install Debian's chromium package, or set CHROMIUM=/path/to/chromium): "
                        + "skipping the browser test of the example page");
    }

    @AfterAll
    static void stop() throws Exception {
        if (devTools != null) {
            devTools.close();
        }
        if (chromium != null) {
            chromium.close();
        }
        if (app != null) {
            app.close();
        }
    }

    /** A page, its target id and its flattened session. */
    private record Page(String targetId, String sessionId) {
    }

    /** Opens a tab on the example page with a question, and waits for its load event. */
    private static Page open(String question) {
        String targetId = devTools.call(null, "Target.createTarget", Map.of("url", "about:blank")).get("targetId").asString();
        String sessionId = devTools.call(null, "Target.attachToTarget", Map.of("targetId", targetId, "flatten", true))
                .get("sessionId").asString();
        devTools.call(sessionId, "Page.enable", Map.of());
        String url = app.baseUrl() + "/index.html?q=" + URLEncoder.encode(question, StandardCharsets.UTF_8);
        devTools.awaitEvent(sessionId, "Page.loadEventFired", () -> devTools.call(sessionId, "Page.navigate", Map.of("url", url)),
                TIMEOUT);
        return new Page(targetId, sessionId);
    }

    @Test
    void reasoningRendersAboveTheAnswerAndFoldsAwayWhenTheAnswerStarts() {
        Page page = open("Why is the sky blue?");

        JsonNode shown = JSON.readTree(devTools.evaluate(page.sessionId(), WHEN_DONE));

        assertThat(shown.get("milestones").values()).extracting(JsonNode::asString)
                .containsExactly("reasoning", "collapsed", "answer", "done");
        assertThat(shown.get("reasoningVisible").asBoolean()).isTrue();
        assertThat(shown.get("reasoningOpen").asBoolean()).isFalse();
        assertThat(shown.get("reasoningAboveAnswer").asBoolean()).isTrue();
        assertThat(shown.get("reasoning").asString()).startsWith("The user asks why the sky is blue.");
        assertThat(shown.get("answer").asString()).startsWith("Because air scatters blue light").endsWith("reds remain.");
        assertThat(shown.get("status").asString()).isEqualTo("done (stop)");
        devTools.call(null, "Target.closeTarget", Map.of("targetId", page.targetId()));
    }

    @Test
    void aSecondQuestionContinuesTheConversationWithTheFirstTurnFoldedAbove() {
        Page page = open("Why is the sky blue?");
        devTools.evaluate(page.sessionId(), WHEN_DONE);

        JsonNode shown = JSON.readTree(devTools.evaluate(page.sessionId(), "(ask(\"And at sunset?\"), " + WHEN_DONE + ")"));
        JsonNode earlier = JSON.readTree(devTools.evaluate(page.sessionId(), """
                JSON.stringify([...document.querySelectorAll("#history .turn")].map(turn => ({
                  question: turn.querySelector(".question").textContent,
                  reasoningOpen: turn.querySelector("details").open,
                  answer: turn.querySelector(".answer").textContent
                })))"""));

        assertThat(shown.get("status").asString()).isEqualTo("done (stop)");
        assertThat(earlier.values()).hasSize(1);
        assertThat(earlier.get(0).get("question").asString()).isEqualTo("Why is the sky blue?");
        assertThat(earlier.get(0).get("reasoningOpen").asBoolean()).isFalse();
        assertThat(earlier.get(0).get("answer").asString()).startsWith("Because air scatters blue light");
        // the server kept the first turn and sent it along with the second question
        String sent = app.emulator().requests().get(app.emulator().requests().size() - 1).body();
        assertThat(sent).contains("Why is the sky blue?", "Because air scatters blue light", "And at sunset?");
        devTools.call(null, "Target.closeTarget", Map.of("targetId", page.targetId()));
    }

    @Test
    void closingThePageCancelsTheStreamUpToTheProvidersConnection() {
        String sse = ChatCompletionsScript.create().reasoning("Let me think about this for a very long time")
                .content("never shown").toSse();
        int afterFirstReasoning = sse.indexOf("\n\n", sse.indexOf("reasoning_content")) + 2;
        app.emulator().enqueue(EmulatorResponse.sse(sse).stallAfter(afterFirstReasoning));
        Page page = open("Think forever");

        assertThat(devTools.evaluate(page.sessionId(), WHEN_REASONING)).isNotEmpty();
        // The stalled exchange is the last one the emulator received: the page is waiting on it now.
        int exchange = app.emulator().requests().size() - 1;
        assertThat(app.emulator().requests().get(exchange).body()).contains("Think forever");

        devTools.call(null, "Target.closeTarget", Map.of("targetId", page.targetId()));

        StepVerifier.create(app.emulator().connectionClosed(exchange)).expectComplete().verify(TIMEOUT);
    }
}
