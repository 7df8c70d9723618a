package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.WireFormat;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The order of events {@code docs/providers.md} lists for each provider family is the order its
 * client emits for a real recorded stream: each recording below is served from an emulator,
 * streamed through the client that {@code --provider NAME} builds, and its events, written one a
 * line with runs of the same line folded into one ending in {@code …}, must equal the guide's
 * block after {@code <!-- example: events-NAME -->}. A decoder that changes its order fails here
 * until the guide says so.
 */
@ExtendWith(NettyLeakCheck.class)
class ProvidersGuideTest {

    private static final String GUIDE = "providers.md";

    static Stream<Arguments> recordings() {
        return Stream.of(
                Arguments.of("deepseek", "deepseek/vercel-deepseek-reasoning-tool-call-stream.sse", false),
                Arguments.of("openrouter", "openrouter/pydantic-openrouter-claude-reasoning-details-stream.sse", false),
                Arguments.of("mistral", "mistral/vercel-magistral-thinking-chunks-stream.sse", false),
                Arguments.of("groq", "think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse", true),
                Arguments.of("xai-responses", "xai/vercel-xai-responses-reasoning-store-false-stream.sse", false),
                Arguments.of("openai-responses", "openai-responses/vercel-reasoning-summary-encrypted-tool-call-stream.sse", false),
                Arguments.of("anthropic", "anthropic/pydantic-thinking-stream.sse", false),
                Arguments.of("gemini", "gemini/vercel-gemini3-reasoning-thought-signature-stream.sse", false),
                Arguments.of("vertex", "gemini/vercel-vertex-partial-args-tool-call-stream.sse", false),
                Arguments.of("ollama-native", "ollama/attogram-generate-gpt-oss-120b-thinking-stream.ndjson", false),
                Arguments.of("bedrock", "bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void theGuideListsTheEventsInTheOrderTheClientEmitsThem(String provider, String recording, boolean thinkTags)
            throws IOException {
        byte[] body = Files.readAllBytes(Path.of("src/test/resources/fixtures", recording));
        List<ChatEvent> events;
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(EmulatorResponse.replay(body, WireFormat.recognise(body).framing().contentType()));
            ChatProvider client = Clients.forEmulator(provider, emulator.baseUrl(), thinkTags);
            events = client.stream(ChatRequest.builder("replay").user("replay").build())
                    .collectList().block(Duration.ofSeconds(30));
        }

        List<String> emitted = folded(events);
        System.out.println("events-" + provider + ":\n" + String.join("\n", emitted));

        assertThat(GuideBlocks.inGuide(GUIDE, "events-" + provider)).isEqualTo(emitted);
    }

    /** One line per event, a run of equal lines folded into its first with {@code …} appended. */
    static List<String> folded(List<ChatEvent> events) {
        List<String> lines = new ArrayList<>();
        String previous = null;
        for (ChatEvent event : events) {
            String line = line(event);
            if (line.equals(previous)) {
                String last = lines.get(lines.size() - 1);
                if (!last.endsWith(" …")) {
                    lines.set(lines.size() - 1, last + " …");
                }
            } else {
                lines.add(line);
            }
            previous = line;
        }
        return lines;
    }

    private static String line(ChatEvent event) {
        String name = event.getClass().getSimpleName();
        if (event instanceof ReasoningDelta r) {
            return name + " part " + r.part() + (r.summary() ? " summary" : "");
        } else if (event instanceof ContentDelta c) {
            return name + " part " + c.part();
        } else if (event instanceof ToolCallDelta t) {
            return name + " part " + t.part();
        } else if (event instanceof Seal s) {
            return name + " part " + s.part() + " " + s.kind();
        } else if (event instanceof PartEnded p) {
            return name + " part " + p.part();
        } else if (event instanceof ReasoningFinal f) {
            return name + " part " + f.part();
        } else if (event instanceof ServerToolBlock b) {
            return name + " part " + b.part() + " " + b.type();
        } else if (event instanceof ResponseCompleted c) {
            return name + " " + c.finishReason();
        }
        return name;
    }
}
