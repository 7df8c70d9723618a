package dev.ruminate.cli;

import dev.ruminate.providers.ProviderKinds;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of the {@code ruminate} command.
 *
 * <p>Exit status: 0 on success, 1 on an unexpected failure, 2 on a usage error or input that cannot
 * be used (a file, or media the provider does not take; nothing is sent), 3 when a replayed or live
 * stream failed (the message reduced so far is still printed).
 */
public final class Main {

    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;
    static final int STREAM_FAILED = 3;

    private Main() {
    }

    /**
     * Runs the command and exits with its status.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /**
     * Runs the command.
     *
     * @param args the command line
     * @param out where results go
     * @param err where diagnostics go
     * @return the exit status
     */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("-h") || args.get(0).equals("help")) {
            err.print(usage());
            return args.isEmpty() ? USAGE : OK;
        }
        List<String> rest = args.subList(1, args.size());
        int separator = rest.indexOf("--");
        if ((separator < 0 ? rest : rest.subList(0, separator)).contains("--help")) {
            // COMMAND --help: the usage, which describes every command's options
            out.print(usage());
            return OK;
        }
        try {
            return switch (args.get(0)) {
                case "replay" -> ReplayCommand.run(rest, out, err);
                case "demo" -> DemoCommand.run(rest, out, err);
                case "chat" -> ChatCommand.run(rest, out, err);
                case "loop" -> LoopCommand.run(rest, out, err);
                case "next-request" -> NextRequestCommand.run(rest, out, err);
                case "providers" -> ProvidersCommand.run(rest, out, err);
                default -> throw new UsageException("unknown command '" + args.get(0) + "'");
            };
        } catch (UsageException e) {
            // the cause first, on one line; the usage is one --help away rather than 15 lines that bury it
            err.println("ruminate: " + e.getMessage());
            err.println("(ruminate --help shows every command and option)");
            return USAGE;
        } catch (InputException e) {
            // a file or input that cannot be used: the option and file named, what is wrong, nothing sent
            err.println("ruminate: " + e.getMessage());
            return USAGE;
        } catch (RuntimeException e) {
            err.println("ruminate: " + Failures.describeUnexpected(e));
            return FAILURE;
        }
    }

    static String usage() {
        return """
                usage: ruminate <command> [options]

                  demo                         multi-turn conversations with reasoning and tool calls, and a
                                               multi-step tool loop, on emulators over loopback (no network, no key)
                  replay --provider NAME [--think-tags] [--format json|text] FILE
                                               decode and reduce a recorded stream or response body
                  chat --provider NAME --model MODEL [--base-url URL] [--api-key-env VAR]
                       [--effort none|minimal|low|medium|high|xhigh|max] [--think-tags] [--recover-opaque-state]
                       [--region REGION] [--project P --location L] [the request options] PROMPT...
                       [--credentials default-chain|profile:NAME]
                                               one turn against a real endpoint, streamed live, with the
                                               warnings of what the provider ignored or coerced;
                                               --credentials: the AWS default chain or a profile (bedrock),
                                               Application Default Credentials (vertex)
                  loop --provider NAME --model MODEL [--max-steps N] [the chat options] PROMPT...
                                               a tool loop against a real endpoint with two built-in tools,
                                               clock (UTC, or an IANA zone) and calculator (+ - * / ^ ( )),
                                               each step's reasoning, calls and results streamed live;
                                               --recover-opaque-state: strip a signature or encrypted
                                               reasoning the provider refuses and retry once, with a warning
                  next-request --provider NAME [--model M] [--retention all|tool-loop|none]
                       [--foreign-reasoning drop|tagged] [--tool-result ID=CONTENT]... [--user TEXT] [--explain]
                       [the request options] [TURN_FILE...]
                                               the request the client sends after recorded turns (or for
                                               --user alone); --explain adds the send-back plan: what is
                                               kept, stripped or converted of each reasoning part and opaque
                                               value, by which rule, why; the encoder's warnings follow on
                                               stderr as "# warning CODE: MESSAGE"
                  request options (chat and next-request):
                       --json-schema FILE      ask for JSON matching the schema in FILE (one JSON object),
                                               named after FILE's base name; --schema-name NAME renames it,
                                               --schema-strategy auto|native|tool says how it is carried
                       --image FILE            an image (PNG, JPEG, GIF, WebP, HEIC by its first bytes, else
                                               its extension), repeatable; --image-url URL likewise
                       --document FILE         a PDF, or .txt .md .csv .html text, repeatable;
                                               --document-url URL likewise; in next-request media go with
                                               --user, or without it the last --tool-result
                       --cache conversation|system,tools,last,N...
                                               prompt-caching breakpoints (N: a message index);
                                               --cache-key KEY a cache routing key (prompt_cache_key)
                  providers                    every provider name, its default URL and key variable
                  serve [--provider NAME (--replay FILE | --base-url URL --api-key-env VAR)] [--port N] [--no-auth]
                                               the reasoning gateway: OpenAI Responses and Chat Completions
                                               endpoints in front of the emulators or a provider (run by the
                                               ruminate script from the gateway module; serve --help for all)

                providers: %s
                exit status: 0 ok, 1 failure, 2 usage error or unusable input (nothing sent), 3 the stream failed (partial
                result printed)
                """.formatted(String.join(", ", ProviderKinds.names()));
    }
}
