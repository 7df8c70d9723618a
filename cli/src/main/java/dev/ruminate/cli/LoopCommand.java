package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.loop.LoopOptions;
import dev.ruminate.core.loop.Tool;
import dev.ruminate.core.loop.ToolLoop;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ProviderKind;
import java.io.PrintStream;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code ruminate loop}: a tool loop against a real endpoint with the built-in {@code clock} and
 * {@code calculator} tools ({@link BuiltinTools}), each step's reasoning, answer, calls and results
 * printed as they happen. Endpoint options and the key are as for {@code chat}.
 */
final class LoopCommand {

    private LoopCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Set<String> valued = new HashSet<>(ChatCommand.ENDPOINT_OPTIONS);
        valued.add("max-steps");
        Args parsed = Args.parse(args, valued, ChatCommand.flags());
        String provider = parsed.required("provider");
        String model = parsed.required("model");
        ProviderKind kind = Clients.kind(provider);
        if (parsed.positional().isEmpty()) {
            throw new UsageException("loop needs a PROMPT");
        }
        int maxSteps = maxSteps(parsed.option("max-steps", "10"));
        ChatRequest.Builder request = ChatRequest.builder(model)
                .system("You can call two tools: clock, for the current date and time, and calculator, for arithmetic. "
                        + "Use them instead of guessing times or computing in your head.")
                .user(String.join(" ", parsed.positional()));
        ChatCommand.effort(parsed, request);
        ChatProvider client = ChatCommand.client(parsed, kind);
        Style style = parsed.flag("no-color") ? Style.plain() : Style.detect();
        return run(loop(client, Clock.systemUTC(), maxSteps), request.build(), out, err, style);
    }

    /** A loop on a provider with the built-in tools. */
    static ToolLoop loop(ChatProvider provider, Clock clock, int maxSteps) {
        ToolLoop.Builder builder = ToolLoop.builder(provider).options(LoopOptions.builder().maxSteps(maxSteps).build());
        for (Tool tool : BuiltinTools.all(clock)) {
            builder.tool(tool);
        }
        return builder.build();
    }

    /** Runs a loop, rendering it live; a failure is reported with its type and exits {@link Main#STREAM_FAILED}. */
    static int run(ToolLoop loop, ChatRequest request, PrintStream out, PrintStream err, Style style) {
        LoopRenderer renderer = new LoopRenderer(out, style);
        try {
            loop.run(request).doOnNext(renderer::onEvent).blockLast();
            return Main.OK;
        } catch (RuminateException e) {
            renderer.finish();
            err.println(style.error("loop failed (" + e.type() + "): " + Failures.describe(e)));
            return Main.STREAM_FAILED;
        }
    }

    private static int maxSteps(String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--max-steps must be a whole number >= 1, was " + value);
    }
}
