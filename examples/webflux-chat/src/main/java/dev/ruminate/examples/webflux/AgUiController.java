package dev.ruminate.examples.webflux;

import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.ui.ServerTurns;
import dev.ruminate.spring.AgUiRuns;
import dev.ruminate.spring.RuminateProviders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;

/**
 * {@code POST /ag-ui}: the same provider as an AG-UI agent, for a front end built on {@code @ag-ui/client}'s
 * {@code HttpAgent} (or CopilotKit). Reasoning streams as AG-UI reasoning events; each turn's signatures and
 * encrypted reasoning stay in this server's memory ({@link ServerTurns}, keyed by the thread and message ids the
 * front end sends back), so the browser never holds them. The front end's tools are offered to the model.
 */
@RestController
class AgUiController {

    private final RuminateProviders providers;
    private final ExampleProperties example;
    /** The turns shown to front ends: an in-memory store is enough for an example (a restart forgets them). */
    private final ServerTurns turns = ServerTurns.inMemory(1_000);

    AgUiController(RuminateProviders providers, ExampleProperties example) {
        this.providers = providers;
        this.example = example;
    }

    @PostMapping(path = "/ag-ui", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    ResponseEntity<Flux<ServerSentEvent<String>>> run(@RequestBody String body) {
        return AgUiRuns.serve(body, turns, input -> {
            ChatRequest.Builder request = providers.request(example.provider()).messages(input.messages());
            input.tools().forEach(request::tool);
            return providers.get(example.provider()).stream(request.build());
        });
    }
}
