package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.ui.ServerTurns;
import dev.ruminate.core.ui.UiChat;
import dev.ruminate.core.ui.UiChatRequest;
import dev.ruminate.core.ui.UiMessageStream;
import java.util.List;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.server.ResponseStatusException;
import reactor.core.publisher.Flux;

/**
 * Serves the Vercel AI SDK's UI message stream from a Spring controller, so that a page built with
 * {@code useChat} (npm {@code @ai-sdk/react}) works unchanged against {@code POST /api/chat}: reasoning, answer
 * and tool calls stream to the page, while signatures and encrypted reasoning stay in a {@link ServerTurns} on
 * the server and are swapped back in when the page sends the conversation again.
 *
 * <pre>{@code
 * private final ServerTurns turns = ServerTurns.inMemory(10_000);
 *
 * @PostMapping(path = "/api/chat", consumes = MediaType.APPLICATION_JSON_VALUE)
 * ResponseEntity<Flux<ServerSentEvent<String>>> chat(@RequestBody String body) {
 *     return UiMessageStreams.serve(body, providers.get("deepseek"),
 *             messages -> providers.request("deepseek").messages(messages).build(), turns);
 * }
 * }</pre>
 *
 * <p>Needs {@code spring-web} on the class path. Stateless and thread-safe; the response bodies are cold,
 * honour backpressure, and pass cancellation (the page stopping, or going away) upstream.
 *
 * @since 0.4
 */
public final class UiMessageStreams {

    private UiMessageStreams() {
    }

    /**
     * Reads the page's request, answers it with one model call, and stores the complete answer.
     *
     * @param body the request body as the page sent it
     * @param provider the provider to call
     * @param toRequest builds the model request from the conversation
     * @param turns the server's stored turns
     * @return the streamed response, with the UI message stream headers
     * @throws ResponseStatusException 400 when the body is not a {@code useChat} request; its reason names the
     *     place in the body, never a value
     */
    public static ResponseEntity<Flux<ServerSentEvent<String>>> serve(String body, ChatProvider provider,
            Function<List<Message>, ChatRequest> toRequest, ServerTurns turns) {
        return response(UiChat.answer(read(body, turns), provider, toRequest, turns));
    }

    /**
     * Reads a {@code useChat} request, for a controller that runs a tool loop
     * ({@link UiChat#answerWithTools}) or otherwise answers on its own, then passes the data to
     * {@link #response(Flux)}.
     *
     * @param body the request body
     * @param turns the server's stored turns
     * @return the request, stored turns swapped in
     * @throws ResponseStatusException 400 when the body is not a {@code useChat} request
     */
    public static UiChatRequest read(String body, ServerTurns turns) {
        try {
            return UiChatRequest.read(body, turns);
        } catch (ProtocolException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, e.getMessage(), null);
        }
    }

    /**
     * Wraps UI message stream data (from {@link UiChat} or {@link UiMessageStream}) as the response: status
     * 200, {@code text/event-stream}, the {@code x-vercel-ai-ui-message-stream: v1} header, no caching, no
     * proxy buffering.
     *
     * @param data the data values, the last one {@link UiMessageStream#DONE}
     * @return the response
     */
    public static ResponseEntity<Flux<ServerSentEvent<String>>> response(Flux<String> data) {
        return ResponseEntity.ok()
                .contentType(MediaType.TEXT_EVENT_STREAM)
                .header(UiMessageStream.HEADER, UiMessageStream.VERSION)
                .header("Cache-Control", "no-cache")
                // a reverse proxy (nginx) must pass each chunk on at once, not buffer the stream
                .header("X-Accel-Buffering", "no")
                .body(data.map(d -> ServerSentEvent.builder(d).build()));
    }
}
