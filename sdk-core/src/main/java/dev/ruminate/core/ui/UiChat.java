package dev.ruminate.core.ui;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.loop.ToolLoop;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.Reduction;
import dev.ruminate.core.request.ChatRequest;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * Answers one {@code useChat} turn: calls the model with the conversation the page sent back (stored turns
 * swapped in by {@link UiChatRequest#read}), streams the answer as a UI message stream
 * ({@link UiMessageStream}), and once the answer is complete stores it in {@link ServerTurns} under the chat id
 * and the message id of the stream's {@code start} chunk, opaque state included, for the next turn.
 *
 * <p>Only complete turns are stored: a turn that fails or is cancelled is not, so a page that sends its
 * partial copy back has it read from its visible parts.
 *
 * <pre>{@code
 * ServerTurns turns = ServerTurns.inMemory(10_000);
 * Flux<String> data = UiChat.answer(UiChatRequest.read(body, turns), provider,
 *         messages -> ChatRequest.builder("deepseek-reasoner").messages(messages).build(), turns);
 * // write each value as "data: <value>\n\n" with the header x-vercel-ai-ui-message-stream: v1
 * }</pre>
 *
 * <p>Stateless and thread-safe; the returned fluxes are cold: each subscription calls the model once (or runs
 * the loop once) under a fresh message id. Arguments must not be null.
 *
 * @since 0.4
 */
public final class UiChat {

    private static final ChatReducer REDUCER = ChatReducer.defaults();

    private UiChat() {
    }

    /**
     * Answers with one model call.
     *
     * @param request the page's request
     * @param provider the provider to call
     * @param toRequest builds the model request from the conversation (adds the model, options, tools)
     * @param turns where the answer is stored once complete
     * @return the stream's data values, the last one {@link UiMessageStream#DONE}
     */
    public static Flux<String> answer(UiChatRequest request, ChatProvider provider,
                                      Function<List<Message>, ChatRequest> toRequest, ServerTurns turns) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(toRequest, "toRequest");
        Objects.requireNonNull(turns, "turns");
        return Flux.defer(() -> {
            String messageId = UiMessageStream.newMessageId();
            Reduction turn = REDUCER.start();
            return UiMessageStream.encode(Flux.defer(() -> provider.stream(toRequest.apply(request.messages())))
                    .doOnNext(turn::accept)
                    .doOnComplete(() -> turns.put(request.chatId(), messageId, List.of(turn.finish().message()))),
                    messageId);
        });
    }

    /**
     * Answers with a tool loop: every step of the loop is one step of the same UI message, and the whole run
     * (each step's assistant message and the tool results between them) is stored as the turn.
     *
     * @param request the page's request
     * @param loop the loop to run
     * @param toRequest builds the model request from the conversation
     * @param turns where the run is stored once complete
     * @return the stream's data values, the last one {@link UiMessageStream#DONE}
     */
    public static Flux<String> answerWithTools(UiChatRequest request, ToolLoop loop,
                                               Function<List<Message>, ChatRequest> toRequest, ServerTurns turns) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(loop, "loop");
        Objects.requireNonNull(toRequest, "toRequest");
        Objects.requireNonNull(turns, "turns");
        return Flux.defer(() -> {
            String messageId = UiMessageStream.newMessageId();
            ChatRequest model = toRequest.apply(request.messages());
            // the loop's conversation starts with the request's messages, which toRequest may have added to
            int sent = model.messages().size();
            Flux<LoopEvent> events = loop.run(model)
                    .doOnNext(e -> {
                        if (e instanceof LoopEvent.LoopCompleted done && done.conversation().size() > sent) {
                            List<Message> all = done.conversation();
                            turns.put(request.chatId(), messageId, all.subList(sent, all.size()));
                        }
                    });
            return UiMessageStream.encodeLoop(events, messageId);
        });
    }
}
