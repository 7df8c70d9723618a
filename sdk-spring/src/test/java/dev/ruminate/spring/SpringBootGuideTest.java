package dev.ruminate.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * The example of {@code docs/spring-boot.md} runs as the guide shows it: the guide's properties
 * block is the configuration this test starts the auto-configuration with (the base URL pointed at
 * an emulator), and its controller is {@link ChatController} below, called as WebFlux would call it.
 * A block in the guide is the fenced block after {@code <!-- example: NAME -->}; in this file, the
 * lines between {@code // guide:start NAME} and {@code // guide:end NAME}.
 */
@ExtendWith(NettyLeakCheck.class)
class SpringBootGuideTest {

    private static final Path GUIDE = Path.of("../docs/spring-boot.md");
    private static final Path SOURCE = Path.of("src/test/java/dev/ruminate/spring/SpringBootGuideTest.java");

    // guide:start controller
    @RestController
    static class ChatController {
        private final RuminateProviders providers;

        ChatController(RuminateProviders providers) {
            this.providers = providers;
        }

        @GetMapping(path = "/chat", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        Flux<ServerSentEvent<String>> chat(@RequestParam String q) {
            ChatRequest request = providers.request("deepseek").user(q).build();   // the configured model and reasoning
            return ChatServerSentEvents.json(providers.get("deepseek").stream(request));   // no signatures reach the browser
        }
    }
    // guide:end controller

    private ProviderEmulator emulator;

    @BeforeEach
    void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    @Test
    void theGuidesPropertiesAndControllerServeAStreamedAnswer() throws IOException {
        List<String> properties = new ArrayList<>(block(Files.readAllLines(GUIDE, StandardCharsets.UTF_8), "properties")
                .stream().filter(line -> !line.isEmpty() && !line.startsWith("#")).toList());
        properties.add("ruminate.providers.deepseek.base-url=" + emulator.baseUrl());
        emulator.enqueue(ChatCompletionsScript.create().model("deepseek-reasoner")
                .reasoning("Short wavelengths scatter more.").content("Rayleigh scattering.").usage(10, 20, 8).toResponse());

        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RuminateAutoConfiguration.class))
                .withBean(EnvironmentVariables.class, () -> Map.of("DEEPSEEK_API_KEY", "sk-guide")::get)
                .withBean(ChatController.class)
                .withPropertyValues(properties.toArray(String[]::new))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Flux<ServerSentEvent<String>> events = context.getBean(ChatController.class).chat("Why is the sky blue?");

                    StepVerifier.create(events.map(ServerSentEvent::event).collectList())
                            .assertNext(names -> assertThat(names).contains("reasoning.delta", "content.delta")
                                    .last().isEqualTo("response.completed"))
                            .expectComplete().verify(Duration.ofSeconds(10));
                });

        String sent = emulator.requests().get(0).body();
        assertThat(sent).contains("\"model\":\"deepseek-reasoner\"", "\"reasoning_effort\":\"high\"", "Why is the sky blue?");
        assertThat(emulator.requests().get(0).header("authorization")).isEqualTo("Bearer sk-guide");
    }

    @Test
    void theGuideShowsTheControllerAsWrittenHere() throws IOException {
        List<String> guide = Files.readAllLines(GUIDE, StandardCharsets.UTF_8);
        List<String> source = Files.readAllLines(SOURCE, StandardCharsets.UTF_8);

        assertThat(block(guide, "controller")).isNotEmpty()
                .isEqualTo(between(source, "// guide:start controller", "// guide:end controller"));
    }

    /** The fenced block after {@code <!-- example: name -->}, lines stripped. */
    private static List<String> block(List<String> guide, String name) {
        int at = guide.indexOf("<!-- example: " + name + " -->");
        assertThat(at).as("the guide's marker for " + name).isNotNegative();
        String fence = guide.get(at + 1).strip();
        assertThat(fence).startsWith("```").hasSizeGreaterThan(3);
        return between(guide.subList(at + 1, guide.size()), fence, "```");
    }

    private static List<String> between(List<String> lines, String start, String end) {
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (from < 0 && lines.get(i).strip().equals(start)) {
                from = i + 1;
            } else if (from >= 0 && lines.get(i).strip().equals(end)) {
                List<String> out = new ArrayList<>();
                for (String line : lines.subList(from, i)) {
                    out.add(line.strip());
                }
                return out;
            }
        }
        throw new AssertionError("no lines between " + start + " and " + end);
    }
}
