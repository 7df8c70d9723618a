package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.error.UnsupportedInputException;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.history.ForeignReasoning;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Media;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ruminate next-request}: prints the request body a client would send after recorded
 * assistant turns, followed by the given tool results or user message, so a user can see (and
 * debug) exactly what goes back to the provider.
 *
 * <p>Each turn file is a recorded response, streamed or not, reduced as {@code replay} does. The
 * conversation is: a placeholder user message, the turns in order, then the {@code --tool-result}s
 * and the {@code --user} message. The request is sent through the real client to an emulator on
 * loopback, which records it; nothing leaves the machine.
 *
 * <p>With no TURN_FILE, the conversation is the {@code --user} message alone. The request options
 * of {@link RequestInputs} ({@code --json-schema}, {@code --image}, {@code --document},
 * {@code --cache} …) shape the request as {@code chat} does; images and documents go with the
 * {@code --user} message or, without one, with the last {@code --tool-result}. The warnings the
 * encoder reports (an option ignored or coerced) follow on stderr, one {@code # warning CODE: MESSAGE}
 * line each, so that stdout stays the body; input the provider does not take
 * ({@link UnsupportedInputException}) is a one-line error before anything is sent.
 *
 * <p>With {@code --explain}, the send-back plan follows the body after a blank line and a heading:
 * one line per reasoning part and opaque value of the earlier turns, with what is done with it, the
 * rule ({@code docs/send-back-rules.md}) and why ({@link HttpChatProvider#explain}). Its turn numbers
 * count the conversation above: turn 0 is the placeholder user message, turn {@code n} the answer of
 * the {@code n}th TURN_FILE.
 */
final class NextRequestCommand {

    private static final JsonMapper PRETTY = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    static final String FIRST_USER = "(the user message that started the conversation)";

    private NextRequestCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Set<String> valued = new HashSet<>(Set.of("provider", "model", "retention", "foreign-reasoning", "user",
                "tool-result"));
        valued.addAll(RequestInputs.OPTIONS);
        Args parsed = Args.parse(args, valued, Set.of("think-tags", "explain"));
        String provider = parsed.required("provider");
        Clients.kind(provider);
        String user = parsed.option("user");
        if (parsed.positional().isEmpty() && user == null) {
            throw new UsageException("next-request needs a TURN_FILE or --user TEXT");
        }
        HistoryPolicy policy = policy(parsed);
        // every file is read and checked here, before any turn is replayed or request made
        RequestInputs inputs = RequestInputs.parse(parsed);

        List<Message> conversation = new ArrayList<>();
        String model = "model";
        if (!parsed.positional().isEmpty()) {
            conversation.add(Message.user(FIRST_USER));
        }
        for (String file : parsed.positional()) {
            ReplayCommand.Replayed replayed = ReplayCommand.replay(provider, ReplayCommand.read(Path.of(file)),
                    parsed.flag("think-tags"));
            RuminateException failure = replayed.failure();
            if (failure != null || replayed.result() == null) {
                err.println("ruminate: " + file + " does not reduce to a complete turn"
                        + (failure != null ? " (" + failure.type() + "): " + Failures.describe(failure) : ""));
                return Main.STREAM_FAILED;
            }
            AssistantMessage turn = replayed.result().message();
            conversation.add(turn);
            if (turn.model() != null) {
                model = turn.model();
            }
        }
        List<String> results = parsed.options("tool-result");
        if (!results.isEmpty() && parsed.positional().isEmpty()) {
            throw new UsageException("--tool-result needs the TURN_FILE whose calls it answers");
        }
        if (inputs.hasMedia() && user == null && results.isEmpty()) {
            throw new UsageException("--image and --document go with the --user message (or, without one, the last "
                    + "--tool-result): give one");
        }
        for (int i = 0; i < results.size(); i++) {
            AssistantMessage last = (AssistantMessage) conversation.get(parsed.positional().size());
            boolean carriesMedia = user == null && i == results.size() - 1;
            conversation.add(toolResult(results.get(i), last, carriesMedia ? inputs.media() : List.of()));
        }
        if (user != null) {
            conversation.add(new UserMessage(user, inputs.media()));
        }
        ChatRequest request = ChatRequest.builder(parsed.option("model", model))
                .messages(conversation).output(inputs.output()).caching(inputs.caching()).build();

        List<Warning> warnings = new ArrayList<>();
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            // The answer does not matter: the request the client made is what this command prints.
            emulator.enqueue(EmulatorResponse.httpError(500, "{\"error\":{\"message\":\"next-request records only\"}}"));
            ChatProvider client = Clients.forEmulator(provider, emulator.baseUrl(), parsed.flag("think-tags"), policy);
            if (client instanceof HttpChatProvider http) {
                // each turn was replayed from its own emulator; it stands for a turn this endpoint made
                request = madeAt(request, http.origin());
            }
            RuminateException failure = null;
            try {
                client.stream(request).doOnNext(e -> {
                    if (e instanceof Warning w) {
                        warnings.add(w);
                    }
                }).blockLast(Duration.ofSeconds(30));
            } catch (RuminateException e) {
                // the emulator's 500, or a request the client refused to make
                failure = e;
            }
            List<RecordedRequest> sent = emulator.requests();
            if (sent.isEmpty()) {
                if (failure instanceof UnsupportedInputException unsupported) {
                    // input the provider does not take, given on the command line: nothing was sent
                    throw new InputException(Failures.describe(unsupported));
                }
                err.println("ruminate: the client sent no request" + (failure != null ? ": " + Failures.describe(failure) : ""));
                return Main.FAILURE;
            }
            out.println(PRETTY.writeValueAsString(PRETTY.readTree(sent.get(0).body())));
            if (parsed.flag("explain")) {
                if (!(client instanceof HttpChatProvider http)) {
                    err.println("ruminate: provider " + provider + " cannot explain its send-back plan");
                    return Main.FAILURE;
                }
                printPlan(out, http.explain(request));
            }
        }
        // on stderr, so that stdout stays the body (and the plan): what `| jq` reads
        for (Warning w : warnings) {
            err.println(warningLine(w));
        }
        return Main.OK;
    }

    /**
     * One line for a warning the encoder reported: {@code # warning CODE: MESSAGE}, then the message
     * and part it concerns, numbered as the plan numbers turns.
     */
    static String warningLine(Warning w) {
        String where = w.turn() == null ? "" : " (turn " + w.turn() + (w.part() != null ? ", part " + w.part() : "") + ")";
        return "# warning " + w.code() + ": " + LiveRenderer.printable(w.message()) + where;
    }

    /**
     * Returns the request with the provenance of every sealed part moved to the origin it is sent to,
     * for the model it asks for: a recording replayed through an emulator of its own would otherwise
     * be another endpoint's, and the endpoint boundary would strip all its opaque state.
     */
    static ChatRequest madeAt(ChatRequest request, Origin origin) {
        List<Message> out = new ArrayList<>(request.messages().size());
        for (Message m : request.messages()) {
            if (!(m instanceof AssistantMessage a)) {
                out.add(m);
                continue;
            }
            List<Part> parts = new ArrayList<>(a.parts().size());
            for (Part p : a.parts()) {
                Provenance pv = p.seals().provenance();
                parts.add(pv == null ? p : p.withSeals(p.seals().withProvenance(
                        new Provenance(origin, pv.model(), pv.block(), pv.finished(), request.model()))));
            }
            out.add(new AssistantMessage(parts, a.provider(), a.model(), a.finishReason(), a.rawFinishReason(), a.usage()));
        }
        // everything else (output schema, caching) as built
        return request.withMessages(out);
    }

    /** The heading of the plan, which says how to read its indices. */
    static final String PLAN_HEADING = "Send-back plan (turn 0 is the first user message, turn N the answer of the "
            + "Nth TURN_FILE; rules in docs/send-back-rules.md):";

    private static void printPlan(PrintStream out, SendBackPlan plan) {
        out.println();
        out.println(PLAN_HEADING);
        if (plan.entries().isEmpty()) {
            out.println("  (nothing to decide: the earlier turns hold no reasoning and no opaque state)");
            return;
        }
        for (String line : plan.render().split("\n")) {
            out.println("  " + line);
        }
    }

    private static HistoryPolicy policy(Args parsed) {
        HistoryPolicy policy = HistoryPolicy.DEFAULT;
        String retention = parsed.option("retention");
        if (retention != null) {
            policy = policy.withRetention(switch (retention) {
                case "all" -> Retention.ALL;
                case "tool-loop" -> Retention.TOOL_LOOP;
                case "none" -> Retention.NONE;
                default -> throw new UsageException("--retention must be all, tool-loop or none, was " + retention);
            });
        }
        String foreign = parsed.option("foreign-reasoning");
        if (foreign != null) {
            policy = policy.withForeignReasoning(switch (foreign.toLowerCase(Locale.ROOT)) {
                case "drop" -> ForeignReasoning.DROP;
                case "tagged" -> ForeignReasoning.AS_TAGGED_TEXT;
                default -> throw new UsageException("--foreign-reasoning must be drop or tagged, was " + foreign);
            });
        }
        return policy;
    }

    /** Parses {@code ID=CONTENT}; the call's name comes from the turn that made it. */
    private static ToolResultMessage toolResult(String spec, AssistantMessage turn, List<Media> media) {
        int eq = spec.indexOf('=');
        if (eq <= 0) {
            throw new UsageException("--tool-result takes ID=CONTENT, was " + spec);
        }
        String id = spec.substring(0, eq);
        String name = null;
        for (ToolCallPart call : turn.toolCalls()) {
            if (id.equals(call.id()) || (call.id() == null && id.equals(call.name()))) {
                name = call.name();
            }
        }
        return new ToolResultMessage(id, name, spec.substring(eq + 1), false, media);
    }
}
