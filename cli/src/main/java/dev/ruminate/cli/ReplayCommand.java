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
 * loopback and runs it through the real provider client, decoder and reducer.
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
        Clients.kind(provider);
        byte[] body = read(Path.of(parsed.positional().get(0)));
        Replayed replayed = replay(provider, body, parsed.flag("think-tags"));
        ChatResult result = replayed.result();
        RuminateException failure = replayed.failure();

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
        BodyKind kind = BodyKind.detect(body);
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            emulator.enqueue(EmulatorResponse.replay(body, kind.contentType()));
            ChatProvider client = Clients.forEmulator(provider, emulator.baseUrl(), thinkTags);
            ChatRequest request = ChatRequest.builder("replay").user("replay").build();
            Flux<ChatEvent> events = kind.streaming() ? client.stream(request) : client.completeAsEvents(request);
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

    /** What a recording holds, told from its content rather than its name. */
    enum BodyKind {
        SSE("text/event-stream", true),
        NDJSON("application/x-ndjson", true),
        EVENT_STREAM("application/vnd.amazon.eventstream", true),
        JSON("application/json", false);

        private final String contentType;
        private final boolean streaming;

        BodyKind(String contentType, boolean streaming) {
            this.contentType = contentType;
            this.streaming = streaming;
        }

        String contentType() {
            return contentType;
        }

        boolean streaming() {
            return streaming;
        }

        /**
         * Tells the framing from the bytes: an AWS event-stream frame opens with a prelude whose
         * CRC matches; a body of several lines that each hold one JSON object is NDJSON; one JSON
         * object is a non-streaming response; anything else is SSE.
         */
        static BodyKind detect(byte[] body) {
            if (isEventStream(body)) {
                return EVENT_STREAM;
            }
            int start = 0;
            while (start < body.length && isSpace(body[start])) {
                start++;
            }
            if (start == body.length || body[start] != '{') {
                return SSE;
            }
            return isJsonLines(body, start) ? NDJSON : JSON;
        }

        private static boolean isEventStream(byte[] body) {
            if (body.length < 16) {
                return false;
            }
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(body, 0, 8);
            long prelude = ((body[8] & 0xffL) << 24) | ((body[9] & 0xffL) << 16) | ((body[10] & 0xffL) << 8) | (body[11] & 0xffL);
            return crc.getValue() == prelude;
        }

        /** More than one non-blank line, each starting with an object: the body is a sequence of JSON lines. */
        private static boolean isJsonLines(byte[] body, int start) {
            String text = new String(body, start, body.length - start, java.nio.charset.StandardCharsets.UTF_8);
            String[] lines = text.strip().split("\n");
            if (lines.length < 2) {
                return false;
            }
            for (String line : lines) {
                String t = line.strip();
                if (!t.isEmpty() && (!t.startsWith("{") || !t.endsWith("}"))) {
                    return false;
                }
            }
            return true;
        }

        private static boolean isSpace(byte b) {
            return b == ' ' || b == '\n' || b == '\r' || b == '\t';
        }
    }
}
