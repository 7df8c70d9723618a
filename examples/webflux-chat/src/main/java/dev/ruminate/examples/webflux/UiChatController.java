package dev.ruminate.examples.webflux;

import dev.ruminate.core.ui.ServerTurns;
import dev.ruminate.spring.RuminateProviders;
import dev.ruminate.spring.UiMessageStreams;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;

/**
 * {@code POST /api/chat} for a page built with the Vercel AI SDK's {@code useChat}: the page streams reasoning
 * and answer, and sends the whole conversation back each turn; each turn the page was shown is swapped for the
 * server's own copy, signatures and encrypted reasoning included, which the page never receives.
 */
@RestController
class UiChatController {

    private final RuminateProviders providers;
    private final ExampleProperties example;
    private final ServerTurns turns = ServerTurns.inMemory(10_000);

    UiChatController(RuminateProviders providers, ExampleProperties example) {
        this.providers = providers;
        this.example = example;
    }

    @PostMapping(path = "/api/chat", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Flux<ServerSentEvent<String>>> chat(@RequestBody String body) {
        return UiMessageStreams.serve(body, providers.get(example.provider()),
                messages -> providers.request(example.provider()).messages(messages).build(), turns);
    }
}
