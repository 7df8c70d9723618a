package dev.ruminate.examples.webflux;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.Reduction;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.spring.ChatServerSentEvents;
import dev.ruminate.spring.RuminateProviders;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;

/**
 * Streams one answer to the page as server-sent events. Nothing is buffered: each provider event
 * goes out as it arrives, and when the browser goes away WebFlux cancels the flux, which closes
 * the provider's HTTP exchange. With a conversation id ({@code c}) the earlier turns are sent along
 * and the answer is kept for the next one, reduced on the side as its events pass.
 */
@RestController
class ChatController {

    private static final ChatReducer REDUCER = ChatReducer.defaults();

    private final RuminateProviders providers;
    private final ExampleProperties example;
    private final Conversations conversations;

    ChatController(RuminateProviders providers, ExampleProperties example, Conversations conversations) {
        this.providers = providers;
        this.example = example;
        this.conversations = conversations;
    }

    /**
     * The page's stream, in Ruminate's JSON wire format ({@code reasoning.delta}, {@code content.delta},
     * {@code response.completed}, or a final {@code response.failed}): see docs/wire-format.md.
     */
    @GetMapping(path = "/chat", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    Flux<ServerSentEvent<String>> chat(@RequestParam("q") String question,
                                       @RequestParam(name = "c", required = false) @Nullable String conversation) {
        if (conversation == null || conversation.isBlank()) {
            return ChatServerSentEvents.json(stream(question));
        }
        return ChatServerSentEvents.json(Flux.defer(() -> {
            ChatRequest request = providers.request(example.provider())
                    .messages(conversations.withQuestion(conversation, question)).build();
            Reduction turn = REDUCER.start();
            // The turn is stored when its response.completed passes, not when the flux ends: the page asks the next
            // question as soon as it sees response.completed, which would race with work done at the end of the flux
            // (the observation's, say). One response per turn here: the page asks for no structured output, whose
            // corrective attempt would complete twice.
            return providers.get(example.provider()).stream(request)
                    .doOnNext(event -> {
                        turn.accept(event);
                        if (event instanceof ResponseCompleted) {
                            conversations.completed(conversation, question, turn.finish().message());
                        }
                    });
        }));
    }

    /** The same turn as an OpenAI Responses stream, whichever provider answers. */
    @GetMapping(path = "/chat/responses", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    Flux<ServerSentEvent<String>> responses(@RequestParam("q") String question) {
        return ChatServerSentEvents.responses(stream(question));
    }

    private Flux<ChatEvent> stream(String question) {
        ChatRequest request = providers.request(example.provider()).user(question).build();
        return providers.get(example.provider()).stream(request);
    }
}
