package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.reduce.ReasoningCheck;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.ApiFamily;
import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.ProviderKinds;
import dev.ruminate.providers.WireFormat;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.ProviderEmulator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * {@code ruminate replay}: serves a recorded response body byte for byte from an emulator on
 * loopback and runs it through the real provider client, decoder and reducer. The body's framing
 * (SSE, NDJSON, AWS event stream, a streamed JSON array, a whole JSON body) is told by its content
 * ({@link WireFormat}), and so is its family: a recording of another family than the provider's is
 * named as such on stderr, with the providers that read it.
 */
final class ReplayCommand {

    private ReplayCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Args parsed = Args.parse(args, Set.of("provider", "format"), Set.of("think-tags", "no-color"));
        String provider = parsed.required("provider");
        String format = parsed.option("format", "json");
        if (!format.equals("json") && !format.equals("text")) {
            throw new UsageException("--format must be json or text, was " + format);
        }
        if (parsed.positional().size() != 1) {
            throw new UsageException("replay needs exactly one FILE");
        }
        ProviderKind kind = Clients.kind(provider);
        String file = parsed.positional().get(0);
        byte[] body = read(Path.of(file));
        WireFormat wire = WireFormat.recognise(body);
        Replayed replayed = replay(provider, body, wire, parsed.flag("think-tags"));
        ChatResult result = replayed.result();
        RuminateException failure = replayed.failure();
        String hint = hint(kind, wire, file, failure != null);
        if (hint != null) {
            err.println("ruminate: " + hint);
        }

        AssistantMessage message;
        ReasoningCheck check;
        if (result != null) {
            message = result.message();
            check = result.reasoningCheck();
        } else {
            AssistantMessage partial = failure != null ? failure.partial() : null;
            message = partial != null ? partial
                    : new AssistantMessage(List.of(), provider, null, FinishReason.ERROR, null, Usage.UNKNOWN);
            check = ReasoningCheck.UNAVAILABLE;
        }
        Style style = parsed.flag("no-color") ? Style.plain() : Style.detect();
        out.print(format.equals("json") ? ResultJson.render(message, check.verdict(), failure) + "\n"
                : TextRendering.render(message, check, failure, style));
        out.flush();
        return failure != null ? Main.STREAM_FAILED : Main.OK;
    }

    /**
     * What a recording reduced to: the result, or the typed failure (with its partial message).
     *
     * @param result the result, when the stream completed
     * @param failure the failure, when it did not
     */
    record Replayed(@Nullable ChatResult result, @Nullable RuminateException failure) {
    }

    /** Serves a recording from an emulator and reduces it through the real client. */
    static Replayed replay(String provider, byte[] body, boolean thinkTags) {
        return replay(provider, body, WireFormat.recognise(body), thinkTags);
    }

    /**
     * Serves a recording from an emulator, with the content type its framing has, and reduces it
     * through the real client: a stream through a streaming call, a whole body through a whole one.
     */
    static Replayed replay(String provider, byte[] body, WireFormat format, boolean thinkTags) {
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(EmulatorResponse.replay(body, format.framing().contentType()));
            ChatProvider client = Clients.forEmulator(provider, emulator.baseUrl(), thinkTags);
            ChatRequest request = ChatRequest.builder("replay").user("replay").build();
            Flux<ChatEvent> events = format.framing().streaming() ? client.stream(request) : client.completeAsEvents(request);
            try {
                return new Replayed(ChatReducer.defaults().reduce(events).block(), null);
            } catch (RuminateException e) {
                return new Replayed(null, e);
            }
        }
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new UsageException("no such file: " + file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * Says, when it helps, what the recording is: when its content is another family's than the
     * provider's (the usual reason a valid recording "ends early"), which family and which
     * providers read it; when the replay failed on a body of no known format, what it looks like.
     *
     * @return the line, or null when there is nothing to add
     */
    static @Nullable String hint(ProviderKind kind, WireFormat format, String file, boolean failed) {
        ApiFamily family = format.family();
        if (family != null && family != kind.api()) {
            return file + " is " + format.describe() + ", which --provider " + kind.name() + " ("
                    + WireFormat.familyName(kind.api()) + ") does not read; try --provider " + readers(family);
        }
        if (family == null && failed) {
            return file + " is " + format.describe() + ": is it a recorded response body?";
        }
        return null;
    }

    /** The providers of a family, a few named. */
    private static String readers(ApiFamily family) {
        List<String> names = ProviderKinds.all().stream().filter(k -> k.api() == family).map(ProviderKind::name).toList();
        return names.size() <= 4 ? String.join(" or ", names) : String.join(", ", names.subList(0, 4)) + " (or another "
                + WireFormat.familyName(family) + " provider: ruminate providers lists them)";
    }
}
