package dev.ruminate.core.ui;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.loop.LoopEvent;
import dev.ruminate.core.message.FinishReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * Encodes a response, or a tool loop, as the Vercel AI SDK's UI message stream (version {@code v1}), the
 * stream {@code useChat} and {@code readUIMessageStream} of the npm package {@code ai} read: Server-Sent
 * Events whose {@code data} is one JSON chunk, ending with {@code data: [DONE]}.
 *
 * <p>The chunks, in order: {@code start} with the message id, then per step {@code start-step}, the step's
 * parts ({@code reasoning-start}/{@code -delta}/{@code -end}, {@code text-start}/{@code -delta}/{@code -end},
 * {@code tool-input-start}/{@code tool-input-delta}/{@code tool-input-available} as dynamic tool calls, and in
 * a loop {@code tool-output-available} or {@code tool-output-error} with each tool's result) and
 * {@code finish-step}; finally {@code finish} with the finish reason. A {@link dev.ruminate.core.event.Warning}
 * goes out as a transient {@code data-ruminate-warning} chunk. An error ends the stream with one {@code error}
 * chunk whose text names the kind of failure only ({@link #errorText(Throwable)}), then {@code [DONE]}.
 *
 * <p>No opaque provider state is written: no {@code providerMetadata}, no seals (signatures, encrypted
 * reasoning, item ids), no provider tool blocks. The server keeps that state in {@link ServerTurns} under the
 * message id of the {@code start} chunk; {@link UiChatRequest#read} swaps it back in.
 *
 * <p>Stateless and thread-safe; the returned fluxes are cold (each subscription encodes on its own), honour
 * backpressure and pass cancellation upstream. Arguments must not be null.
 *
 * @since 0.4
 */
public final class UiMessageStream {

    /** The response header that marks a UI message stream: {@code x-vercel-ai-ui-message-stream}. */
    public static final String HEADER = "x-vercel-ai-ui-message-stream";

    /** The protocol version this class writes, the value of {@link #HEADER}: {@code v1}. */
    public static final String VERSION = "v1";

    /** The data of the last event of every stream. */
    public static final String DONE = "[DONE]";

    private UiMessageStream() {
    }

    /**
     * Returns a new message id: random and unguessable, since it is the key under which the server keeps the
     * turn's opaque state.
     *
     * @return an id such as {@code msg-3f2a…}
     */
    public static String newMessageId() {
        return "msg-" + UUID.randomUUID();
    }

    /**
     * Encodes one model response as one assistant message of one step.
     *
     * @param events the provider's events
     * @param messageId the id the page will know the message by (see {@link #newMessageId()})
     * @return the data of each event, in order, the last one {@link #DONE}
     */
    public static Flux<String> encode(Flux<ChatEvent> events, String messageId) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(messageId, "messageId");
        return Flux.defer(() -> {
            StepEncoder step = new StepEncoder("s1-");
            Flux<String> body = events.concatMapIterable(step::accept);
            Flux<String> end = Flux.defer(() -> {
                List<String> out = new ArrayList<>();
                step.closeAll(out);
                out.add(ChunkWriter.chunk("finish-step", g -> { }));
                out.add(finish(step.finishReason()));
                out.add(DONE);
                return Flux.fromIterable(out);
            });
            return Flux.just(start(messageId), ChunkWriter.chunk("start-step", g -> { }))
                    .concatWith(body)
                    .concatWith(end)
                    .onErrorResume(e -> failure(e, step));
        });
    }

    /**
     * Encodes a tool loop's run as one assistant message with one step per model call, each tool's result
     * inside the step that called it. Calls left unanswered in the starting conversation (step 0) are run
     * without chunks: their calls belong to an earlier message.
     *
     * @param events the loop's events, from {@code ToolLoop.run}
     * @param messageId the id the page will know the message by (see {@link #newMessageId()})
     * @return the data of each event, in order, the last one {@link #DONE}
     */
    public static Flux<String> encodeLoop(Flux<LoopEvent> events, String messageId) {
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(messageId, "messageId");
        return Flux.defer(() -> {
            LoopState state = new LoopState();
            return Flux.just(start(messageId))
                    .concatWith(events.concatMapIterable(state::accept))
                    .concatWith(Flux.defer(() -> Flux.fromIterable(state.end())))
                    .onErrorResume(e -> {
                        List<String> out = new ArrayList<>();
                        if (state.step != null) {
                            state.step.closeAll(out);
                        }
                        out.add(ChunkWriter.chunk("error", "errorText", errorText(e)));
                        out.add(DONE);
                        return Flux.fromIterable(out);
                    });
        });
    }

    /**
     * The text of the {@code error} chunk for a failure: the kind of failure, never its message, which may
     * quote a provider's response body.
     *
     * @param error the failure
     * @return a short sentence safe to show in a browser
     */
    public static String errorText(Throwable error) {
        if (error instanceof RuminateException r) {
            return "The model call failed (" + r.type() + ").";
        }
        return "The answer failed on the server.";
    }

    /**
     * Frames one event's data as Server-Sent Events text, for servers that write bytes themselves.
     *
     * @param data one value of {@link #encode} or {@link #encodeLoop}
     * @return {@code data: <data>\n\n}
     */
    public static String sse(String data) {
        return "data: " + data + "\n\n";
    }

    private static Flux<String> failure(Throwable e, StepEncoder step) {
        List<String> out = new ArrayList<>();
        step.closeAll(out);
        out.add(ChunkWriter.chunk("error", "errorText", errorText(e)));
        out.add(DONE);
        return Flux.fromIterable(out);
    }

    private static String start(String messageId) {
        return ChunkWriter.chunk("start", "messageId", messageId);
    }

    private static String finish(@Nullable FinishReason reason) {
        return ChunkWriter.chunk("finish", g -> g.writeStringProperty("finishReason", finishReason(reason)));
    }

    /** The AI SDK's finish reasons: stop, length, content-filter, tool-calls, error, other. */
    static String finishReason(@Nullable FinishReason reason) {
        if (reason == null) {
            return "other";
        }
        return switch (reason) {
            case STOP -> "stop";
            case LENGTH -> "length";
            case TOOL_CALLS -> "tool-calls";
            case CONTENT_FILTER -> "content-filter";
            case ERROR -> "error";
            default -> "other";
        };
    }

    /** Per subscription of {@link #encodeLoop}: the step in progress. Reactor delivers one event at a time. */
    private static final class LoopState {
        @Nullable StepEncoder step;
        int stepNumber;
        @Nullable FinishReason finish;

        List<String> accept(LoopEvent e) {
            List<String> out = new ArrayList<>(2);
            if (e.step() == 0) {
                return out;
            }
            if (e instanceof LoopEvent.StepChatEvent s) {
                StepEncoder current = step;
                if (current == null || stepNumber != s.step()) {
                    if (current != null) {
                        current.closeAll(out);
                        out.add(ChunkWriter.chunk("finish-step", g -> { }));
                    }
                    current = new StepEncoder("s" + s.step() + "-");
                    step = current;
                    stepNumber = s.step();
                    out.add(ChunkWriter.chunk("start-step", g -> { }));
                }
                out.addAll(current.accept(s.event()));
            } else if (e instanceof LoopEvent.ToolFinished f) {
                if (f.error() == null) {
                    out.add(ChunkWriter.chunk("tool-output-available", g -> {
                        g.writeStringProperty("toolCallId", f.call().id());
                        ChunkWriter.jsonOrString(g, "output", f.result().content());
                        g.writeBooleanProperty("dynamic", true);
                    }));
                } else {
                    out.add(ChunkWriter.chunk("tool-output-error", g -> {
                        g.writeStringProperty("toolCallId", f.call().id());
                        g.writeStringProperty("errorText", f.result().content());
                        g.writeBooleanProperty("dynamic", true);
                    }));
                }
            } else if (e instanceof LoopEvent.StepCompleted) {
                StepEncoder current = step;
                if (current != null) {
                    current.closeAll(out);
                    out.add(ChunkWriter.chunk("finish-step", g -> { }));
                }
                step = null;
            } else if (e instanceof LoopEvent.LoopCompleted c) {
                finish = c.finalMessage().finishReason();
            }
            // approval and tool-start events: the page learns the outcome from the tool's output
            return out;
        }

        List<String> end() {
            List<String> out = new ArrayList<>();
            StepEncoder current = step;
            if (current != null) {
                current.closeAll(out);
                out.add(ChunkWriter.chunk("finish-step", g -> { }));
            }
            out.add(finish(finish));
            out.add(DONE);
            return out;
        }
    }
}
