package dev.ruminate.providers.spi;

import com.networknt.schema.Schema;
import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.OutputChecked;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.history.PreparedHistory;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.Reduction;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.OutputSchema;
import dev.ruminate.core.request.StructuredOutputMethod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * The pipeline's structured-output step, for a request with an
 * {@linkplain ChatRequest#output() output schema} (a request without one never reaches it: it adds
 * no operator to their flux).
 *
 * <ul>
 *   <li><b>Method.</b> The codec's {@link WireCodec#structuredOutputMethod} is asked once per
 *   attempt, before it is sent; an {@link UnsupportedInput} fails the call as an
 *   {@link dev.ruminate.core.error.UnsupportedInputException}, and a schema the validator cannot
 *   compile as an {@link InvalidRequestException}, both before any request.</li>
 *   <li><b>The output tool's call is the answer.</b> The {@link ToolCallDelta}s of the tool named
 *   after the schema (identified by the name on a part's first delta) become {@link ContentDelta}s of
 *   the same part, so the final message's text is the JSON and a history sends no call without a
 *   result back; other tools' calls stay. A {@code TOOL_CALLS} finish becomes {@code STOP} when the
 *   output tool was the only tool called.</li>
 *   <li><b>Verdict.</b> The answer checked is the output tool's arguments when it was called, else
 *   the answer text (trimmed, one surrounding {@code ```json} fence taken away, see
 *   {@link OutputValidation#unfenced}). An {@link OutputChecked} goes right before the
 *   {@link ResponseCompleted}. A response that ends in calls of other tools is a step of a tool loop
 *   with no answer yet: it gets no verdict.</li>
 *   <li><b>One corrective retry</b>, only for methods that do not
 *   {@linkplain StructuredOutputMethod#constrained() constrain} the output, only for an answer that
 *   ended normally ({@code STOP}: an answer cut off by the output limit, filtered, paused or failed
 *   would meet the same end again), and only once. The attempt's {@code ResponseCompleted} is
 *   withheld; after its last event come {@code OutputChecked(retrying)}, a
 *   {@link Warning#STRUCTURED_OUTPUT_RETRIED} warning and the corrective attempt: the prepared
 *   messages, the answer as reduced (reasoning and its signatures intact, the output tool's call as
 *   a call), and a turn saying the violations and what to do, a {@link ToolResultMessage} with
 *   {@code error} set for the output tool's call when there was one (APIs want a result for every
 *   call), else a {@link UserMessage}; the earlier messages as last sent (opaque state a recovery
 *   stripped stays stripped). It runs through the same recovery, encoding and guards as the first,
 *   its encoder's warnings included. Its verdict is final. An error (HTTP, transport,
 *   stream) ends the call as it would without a schema: it never leads to this retry.</li>
 * </ul>
 *
 * <p>Stateless; each subscription has its own {@link Attempt} state.
 */
final class StructuredOutputChecking {

    private final String provider;
    private final WireCodec<?> codec;
    private final OutputSchema output;
    private final Schema schema;
    /** Makes one guarded, recovering, encoded call of a prepared request, telling each request it sends. */
    private final BiFunction<PreparedHistory, Consumer<ChatRequest>, Flux<ChatEvent>> call;

    private StructuredOutputChecking(String provider, WireCodec<?> codec, OutputSchema output, Schema schema,
                                     BiFunction<PreparedHistory, Consumer<ChatRequest>, Flux<ChatEvent>> call) {
        this.provider = provider;
        this.codec = codec;
        this.output = output;
        this.schema = schema;
        this.call = call;
    }

    /**
     * Runs a call of a request with an output schema.
     *
     * @param provider the provider's name, for errors
     * @param codec the family's codec, which tells the method
     * @param prepared the prepared request; its {@link ChatRequest#output()} is not null
     * @param call makes one guarded, recovering, encoded call of a prepared request, and tells each
     *     request it sends (a recovery's has its opaque state stripped)
     * @return the events, checked
     */
    static Flux<ChatEvent> run(String provider, WireCodec<?> codec, PreparedHistory prepared,
                               BiFunction<PreparedHistory, Consumer<ChatRequest>, Flux<ChatEvent>> call) {
        OutputSchema output = prepared.request().output();
        if (output == null) {
            return call.apply(prepared, p -> { });
        }
        Schema schema;
        try {
            schema = OutputValidation.compile(output);
        } catch (IllegalArgumentException e) {
            return Flux.error(new InvalidRequestException(provider, String.valueOf(e.getMessage()), e));
        }
        return new StructuredOutputChecking(provider, codec, output, schema, call).attempt(prepared, 1);
    }

    private Flux<ChatEvent> attempt(PreparedHistory prepared, int number) {
        StructuredOutputMethod method;
        try {
            method = codec.structuredOutputMethod(prepared.request());
        } catch (UnsupportedInput e) {
            return Flux.error(e.toException(provider));
        } catch (IllegalArgumentException e) {
            return Flux.error(new InvalidRequestException(provider, String.valueOf(e.getMessage()), e));
        }
        if (method == null) {
            // a codec that says the request has no schema after all: nothing to check
            return call.apply(prepared, p -> { });
        }
        StructuredOutputMethod m = method;
        return Flux.defer(() -> {
            Attempt state = new Attempt(m, number, prepared);
            return call.apply(prepared, state::sent)
                    .concatMapIterable(state::onEvent)
                    .concatWith(Flux.defer(state::afterwards));
        });
    }

    /** One attempt's state: which parts are the output tool's, what was answered, the raw answer for a retry. */
    private final class Attempt {
        private final StructuredOutputMethod method;
        private final int number;
        private final PreparedHistory prepared;
        /** The raw events reduced, for the corrective turn; null when no retry can follow. */
        private final @Nullable Reduction raw;
        /** Per part index of a tool call: whether it is the output tool's. */
        private final Map<Integer, Boolean> toolParts = new HashMap<>();
        private final StringBuilder text = new StringBuilder();
        private @Nullable StringBuilder arguments;
        private int outputPart = -1;
        private boolean otherTools;
        /** Set when the answer was refused: the verdict and the corrective attempt come after the attempt's last event. */
        private @Nullable OutputChecked refused;
        /** The request last sent for this attempt: the prepared one, or a recovery's stripped copy. */
        private ChatRequest sent;

        Attempt(StructuredOutputMethod method, int number, PreparedHistory prepared) {
            this.method = method;
            this.number = number;
            this.prepared = prepared;
            this.sent = prepared.request();
            this.raw = !method.constrained() && number == 1 ? ChatReducer.defaults().start() : null;
        }

        void sent(ChatRequest request) {
            sent = request;
        }

        List<ChatEvent> onEvent(ChatEvent e) {
            if (raw != null) {
                raw.accept(e);
            }
            if (refused != null) {
                // after a withheld completion (a decoder's trailing events): passed on, before the verdict
                return List.of(e);
            }
            if (e instanceof ToolCallDelta t) {
                Boolean isOutput = toolParts.get(t.part());
                if (isOutput == null) {
                    isOutput = output.name().equals(t.name());
                    toolParts.put(t.part(), isOutput);
                    if (isOutput && outputPart < 0) {
                        outputPart = t.part();
                        arguments = new StringBuilder();
                    }
                }
                if (!isOutput) {
                    otherTools = true;
                    return List.of(e);
                }
                StringBuilder args = arguments;
                if (t.part() == outputPart && args != null) {
                    args.append(t.argumentsDelta());
                }
                return t.argumentsDelta().isEmpty() ? List.of() : List.of(new ContentDelta(t.part(), t.argumentsDelta()));
            }
            if (e instanceof ContentDelta c) {
                text.append(c.text());
                return List.of(e);
            }
            if (e instanceof ResponseCompleted c) {
                return completed(c);
            }
            return List.of(e);
        }

        private List<ChatEvent> completed(ResponseCompleted c) {
            if (otherTools) {
                // a step of a tool loop: the answer is still to come
                return List.of(c);
            }
            ResponseCompleted completed = outputPart >= 0 && c.finishReason() == FinishReason.TOOL_CALLS
                    ? new ResponseCompleted(FinishReason.STOP, c.rawFinishReason()) : c;
            StringBuilder args = arguments;
            String answer = args != null ? args.toString().strip() : OutputValidation.unfenced(text.toString());
            String missing = method == StructuredOutputMethod.TOOL_FORCED || method == StructuredOutputMethod.TOOL_AUTO
                    ? "there is no answer: the tool " + output.name() + " was not called and there is no answer text"
                    : "there is no answer text";
            OutputValidation.Verdict verdict = OutputValidation.check(schema, answer, missing);
            String json = answer.isEmpty() ? null : answer;
            if (!verdict.valid() && raw != null && completed.finishReason() == FinishReason.STOP) {
                refused = new OutputChecked(output.name(), method, false, verdict.violations(), true, json);
                return List.of();
            }
            return List.of(new OutputChecked(output.name(), method, verdict.valid(), verdict.violations(), false, json),
                    completed);
        }

        /** After the attempt's last event: nothing, or the refused verdict, the warning and the corrective attempt. */
        Flux<ChatEvent> afterwards() {
            OutputChecked verdict = refused;
            Reduction reduced = raw;
            if (verdict == null || reduced == null) {
                return Flux.empty();
            }
            AssistantMessage answer = reduced.finish().message();
            // continued from what was sent: opaque state a recovery stripped would be refused again
            PreparedHistory corrective = prepared.continuedWith(sent, correctiveTurn(answer, verdict));
            Warning warning = new Warning(Warning.STRUCTURED_OUTPUT_RETRIED, "the answer did not match the output schema "
                    + output.name() + " (" + verdict.violations().size() + (verdict.violations().size() == 1
                    ? " violation" : " violations") + ", method " + method + "); asked once more with the violations");
            return Flux.concat(Flux.just(verdict, warning), attempt(corrective, number + 1));
        }

        /** The answer as reduced and the turn that says what was wrong and what to do. */
        private List<Message> correctiveTurn(AssistantMessage answer, OutputChecked verdict) {
            String violations = "- " + String.join("\n- ", verdict.violations());
            List<Message> turn = new ArrayList<>(2);
            if (!answer.parts().isEmpty()) {
                // an empty assistant turn is refused by some APIs; without one the corrective turn follows the question
                turn.add(answer);
            }
            ToolCallPart call = outputCall(answer);
            if (call != null) {
                // a call without an id is answered by its name, as the tool loop does (Gemini matches results so)
                String id = call.id() != null ? call.id() : call.name();
                turn.add(new ToolResultMessage(id, call.name(), "These arguments do not match the schema of "
                        + output.name() + ":\n" + violations + "\nCall the tool " + output.name()
                        + " again, with arguments that match its schema.", true));
            } else if (method == StructuredOutputMethod.TOOL_AUTO || method == StructuredOutputMethod.TOOL_FORCED) {
                turn.add(new UserMessage("Your answer does not match the JSON schema " + output.name() + ":\n" + violations
                        + "\nGive the final answer by calling the tool " + output.name()
                        + " with the answer as its arguments, instead of answering in text."));
            } else {
                turn.add(new UserMessage("Your answer does not match the JSON schema " + output.name() + ":\n" + violations
                        + "\nAnswer again with one JSON value and nothing else (no code fence, no comment) that matches "
                        + "this JSON Schema:\n" + output.schema()));
            }
            return turn;
        }

        private @Nullable ToolCallPart outputCall(AssistantMessage answer) {
            for (Part p : answer.parts()) {
                if (p instanceof ToolCallPart call && call.name().equals(output.name())) {
                    return call;
                }
            }
            return null;
        }
    }
}
