package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.history.ForeignReasoning;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.spi.HttpChatProvider;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.RecordedRequest;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
        Args parsed = Args.parse(args, Set.of("provider", "model", "retention", "foreign-reasoning", "user", "tool-result"),
                Set.of("think-tags", "explain"));
        String provider = parsed.required("provider");
        Clients.kind(provider);
        if (parsed.positional().isEmpty()) {
            throw new UsageException("next-request needs at least one TURN_FILE");
        }
        HistoryPolicy policy = policy(parsed);

        List<Message> conversation = new ArrayList<>();
        conversation.add(Message.user(FIRST_USER));
        String model = "model";
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
        AssistantMessage last = (AssistantMessage) conversation.get(conversation.size() - 1);
        for (String result : parsed.options("tool-result")) {
            conversation.add(toolResult(result, last));
        }
        String user = parsed.option("user");
        if (user != null) {
            conversation.add(Message.user(user));
        }
        ChatRequest request = ChatRequest.builder(parsed.option("model", model))
                .messages(conversation).build();

        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            // The answer does not matter: the request the client made is what this command prints.
            emulator.enqueue(EmulatorResponse.httpError(500, "{\"error\":{\"message\":\"next-request records only\"}}"));
            ChatProvider client = Clients.forEmulator(provider, emulator.baseUrl(), parsed.flag("think-tags"), policy);
            if (client instanceof HttpChatProvider http) {
                // each turn was replayed from its own emulator; it stands for a turn this endpoint made
                request = madeAt(request, http.origin());
            }
            try {
                client.stream(request).blockLast(Duration.ofSeconds(30));
            } catch (RuminateException expected) {
                // the emulator's 500
            }
            List<RecordedRequest> sent = emulator.requests();
            if (sent.isEmpty()) {
                err.println("ruminate: the client sent no request");
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
        return Main.OK;
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
        // the request holds its model and messages only (built above)
        return ChatRequest.builder(request.model()).messages(out).build();
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
    private static ToolResultMessage toolResult(String spec, AssistantMessage turn) {
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
        return new ToolResultMessage(id, name, spec.substring(eq + 1), false);
    }
}
