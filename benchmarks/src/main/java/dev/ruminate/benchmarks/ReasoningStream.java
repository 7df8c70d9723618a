package dev.ruminate.benchmarks;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One deterministic Chat Completions reasoning stream, as PERF.md describes it: 70 % {@code reasoning_content}
 * tokens of 3–8 characters, then content, then two tool calls streamed as argument fragments, a finish chunk, a
 * usage chunk and {@code [DONE]}; text with JSON escapes and multi-byte UTF-8. Every contender reads these bytes.
 *
 * <p>Immutable after construction; safe to share between threads.
 */
final class ReasoningStream {

    /** Token alphabet: ASCII, characters that JSON escapes, two- three- and four-byte UTF-8 (a surrogate pair). */
    private static final String[] ATOMS = {
        "a", "b", "c", "d", "e", "r", "s", "t", "o", "n", " ", " ", ",", ".", "\"", "\\", "\n", "\t",
        "é", "ü", "ß", "中", "文", "→", "😀", "x", "y", "z"
    };
    private static final String HEAD =
            "{\"id\":\"a1b2c3\",\"object\":\"chat.completion.chunk\",\"created\":1763856000,"
                    + "\"model\":\"deepseek-reasoner\",\"choices\":[";

    final int chunks;
    /** The whole SSE body. */
    final byte[] sse;
    /** The {@code data:} payload of each SSE event, {@code [DONE]} excluded. */
    final List<byte[]> payloads;
    final String reasoning;
    final String content;
    final List<String> toolArguments;
    final long promptTokens = 31;
    final long completionTokens;
    final long reasoningTokens;

    private ReasoningStream(int chunks, byte[] sse, List<byte[]> payloads, String reasoning, String content,
            List<String> toolArguments, long completionTokens, long reasoningTokens) {
        this.chunks = chunks;
        this.sse = sse;
        this.payloads = payloads;
        this.reasoning = reasoning;
        this.content = content;
        this.toolArguments = toolArguments;
        this.completionTokens = completionTokens;
        this.reasoningTokens = reasoningTokens;
    }

    /**
     * Builds the stream.
     *
     * @param chunks how many SSE events carry JSON, at least 20
     * @param seed the token generator's seed
     */
    static ReasoningStream generate(int chunks, long seed) {
        if (chunks < 20) {
            throw new IllegalArgumentException("chunks < 20: " + chunks);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int reasoningChunks = chunks * 7 / 10;
        int toolChunks = chunks / 10;
        // role chunk + reasoning + content + tool calls + finish + usage = chunks
        int contentChunks = chunks - 1 - reasoningChunks - toolChunks - 2;
        List<byte[]> payloads = new ArrayList<>(chunks);
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        StringBuilder[] args = {new StringBuilder(), new StringBuilder()};

        payloads.add(chunk("{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"\"},"
                + "\"finish_reason\":null}"));
        for (int i = 0; i < reasoningChunks; i++) {
            String token = token(random);
            reasoning.append(token);
            payloads.add(chunk("{\"index\":0,\"delta\":{\"reasoning_content\":" + json(token)
                    + "},\"finish_reason\":null}"));
        }
        for (int i = 0; i < contentChunks; i++) {
            String token = token(random);
            content.append(token);
            payloads.add(chunk("{\"index\":0,\"delta\":{\"content\":" + json(token)
                    + "},\"finish_reason\":null}"));
        }
        String[] names = {"get_weather", "search_docs"};
        for (int call = 0; call < 2; call++) {
            int n = call == 0 ? toolChunks / 2 : toolChunks - toolChunks / 2;
            List<String> fragments = argumentFragments(n, random);
            for (int i = 0; i < n; i++) {
                String fragment = fragments.get(i);
                args[call].append(fragment);
                String head = i == 0
                        ? "{\"index\":" + call + ",\"id\":\"call_" + call + "_bench\",\"type\":\"function\","
                                + "\"function\":{\"name\":\"" + names[call] + "\",\"arguments\":"
                        : "{\"index\":" + call + ",\"function\":{\"arguments\":";
                payloads.add(chunk("{\"index\":0,\"delta\":{\"tool_calls\":[" + head + json(fragment)
                        + "}}]},\"finish_reason\":null}"));
            }
        }
        payloads.add(chunk("{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}"));
        long reasoningTokens = reasoningChunks;
        long completionTokens = (long) reasoningChunks + contentChunks + toolChunks;
        byte[] usage = (HEAD + "],\"usage\":{\"prompt_tokens\":31,\"completion_tokens\":" + completionTokens
                + ",\"total_tokens\":" + (completionTokens + 31)
                + ",\"prompt_tokens_details\":{\"cached_tokens\":0},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":" + reasoningTokens + "}}}")
                .getBytes(StandardCharsets.UTF_8);
        payloads.add(usage);

        ByteArrayOutputStream body = new ByteArrayOutputStream(payloads.size() * 170);
        for (byte[] payload : payloads) {
            body.writeBytes("data: ".getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(payload);
            body.writeBytes("\n\n".getBytes(StandardCharsets.US_ASCII));
        }
        body.writeBytes("data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII));
        return new ReasoningStream(payloads.size(), body.toByteArray(), List.copyOf(payloads), reasoning.toString(),
                content.toString(), List.of(args[0].toString(), args[1].toString()), completionTokens, reasoningTokens);
    }

    /** Bytes per SSE event, on average, over the whole body. */
    double bytesPerChunk() {
        return (double) sse.length / chunks;
    }

    private static byte[] chunk(String choice) {
        return (HEAD + choice + "]}").getBytes(StandardCharsets.UTF_8);
    }

    /** A token of 3 to 8 characters (a surrogate pair counts as two). */
    private static String token(SplittableRandom random) {
        int target = 3 + random.nextInt(6);
        StringBuilder sb = new StringBuilder(target + 1);
        while (sb.length() < target) {
            String atom = ATOMS[random.nextInt(ATOMS.length)];
            if (sb.length() + atom.length() > target) {
                atom = "q";
            }
            sb.append(atom);
        }
        return sb.toString();
    }

    /** Splits a JSON object of arguments into {@code n} fragments, cut anywhere (as servers do). */
    private static List<String> argumentFragments(int n, SplittableRandom random) {
        StringBuilder json = new StringBuilder("{\"query\":\"");
        while (json.length() < n * 5) {
            String t = token(random);
            for (int i = 0; i < t.length(); i++) {
                char c = t.charAt(i);
                switch (c) {
                    case '"' -> json.append("\\\"");
                    case '\\' -> json.append("\\\\");
                    case '\n' -> json.append("\\n");
                    case '\t' -> json.append("\\t");
                    default -> json.append(c);
                }
            }
        }
        json.append("\",\"limit\":10}");
        List<String> out = new ArrayList<>(n);
        int from = 0;
        for (int i = 1; i <= n; i++) {
            int to = Math.max(from, (int) ((long) json.length() * i / n));
            if (to < json.length() && to > 0 && Character.isHighSurrogate(json.charAt(to - 1))) {
                to++;
            }
            out.add(json.substring(from, to));
            from = to;
        }
        return out;
    }

    /** A JSON string literal. */
    static String json(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
