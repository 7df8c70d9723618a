package dev.ruminate.providers.chatcompletions;

import dev.ruminate.core.think.ThinkTagOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The Chat Completions recordings in {@code src/test/resources/fixtures} (see PROVENANCE.md), found
 * on disk so that a new one cannot be left out, each with the profile of the server it came from.
 */
final class Recordings {

    /** Hugging Face's router, which passes DeepSeek-R1's think tags through in the content. */
    static final CompatProfile HUGGING_FACE =
            Profiles.OPENAI_COMPATIBLE.toBuilder().name("hf").thinkTags(ThinkTagOptions.DEFAULT).build();

    /** Avian (Kimi K2.5): {@code reasoning_content} read and sent back, as in the accepted request. */
    static final CompatProfile AVIAN = Profiles.OPENAI_COMPATIBLE.toBuilder().name("avian")
            .reasoningFields(List.of("reasoning_content")).streamUsage(true)
            .sendBack(ReasoningSendBack.field("reasoning_content")).build();

    private Recordings() {
    }

    /** Every recorded response: {@code .sse} streams and {@code .json} bodies, not the send-back requests. */
    static List<String> all() {
        Path root = root();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .map(file -> root.relativize(file).toString().replace('\\', '/'))
                    .filter(path -> !path.startsWith("sendback/"))
                    .filter(Recordings::isChatCompletions)
                    .filter(path -> path.endsWith(".sse") || path.endsWith(".json"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Tells a Chat Completions recording from the other APIs' ones that share the fixtures folder
     * (Anthropic, Gemini, Bedrock, Cohere, Ollama's native NDJSON, and the Responses-shaped DeepSeek,
     * xAI and OpenAI streams). Mistral's are Chat Completions with thinking-chunk content.
     */
    static boolean isChatCompletions(String path) {
        int slash = path.indexOf('/');
        if (slash < 0) {
            return false;
        }
        String dir = path.substring(0, slash);
        return switch (dir) {
            case "anthropic", "gemini", "openai-responses", "bedrock", "ollama", "cohere" -> false;
            default -> !path.contains("-responses-") && !path.endsWith(".ndjson");
        };
    }

    static List<String> streams() {
        return all().stream().filter(path -> path.endsWith(".sse")).toList();
    }

    static List<String> bodies() {
        return all().stream().filter(path -> path.endsWith(".json")).toList();
    }

    /**
     * Returns the profile of the server a recording came from, as ChatCompletionsFixturesTest
     * decodes it.
     *
     * @throws IllegalArgumentException for a recording no rule covers
     */
    static CompatProfile profile(String path) {
        String dir = path.substring(0, path.indexOf('/'));
        String name = path.substring(dir.length() + 1);
        return switch (dir) {
            case "deepseek" -> Profiles.DEEPSEEK;
            case "groq" -> Profiles.GROQ;
            case "openai-chat" -> Profiles.OPENAI;
            case "openrouter" -> Profiles.OPENROUTER;
            case "xai" -> Profiles.XAI;
            case "mistral" -> Profiles.MISTRAL;
            case "openai-compatible" -> openAiCompatible(path, name);
            case "think-tags" -> name.startsWith("pydantic-hf-") ? HUGGING_FACE : groqOnly(path, name);
            default -> throw new IllegalArgumentException("no profile rule for " + path);
        };
    }

    private static CompatProfile openAiCompatible(String path, String name) {
        if (name.startsWith("pydantic-cerebras-")) {
            return Profiles.CEREBRAS;
        }
        if (name.startsWith("pydantic-snowflake-")) {
            return Profiles.SNOWFLAKE;
        }
        if (name.startsWith("pydantic-zai-")) {
            return Profiles.GLM;
        }
        if (name.startsWith("fantasy-zai-")) {
            return Profiles.GLM;
        }
        if (name.startsWith("fantasy-vercel-gateway-")) {
            return Profiles.VERCEL_GATEWAY;
        }
        if (name.startsWith("fantasy-avian-")) {
            return AVIAN;
        }
        if (name.startsWith("vercel-alibaba-qwen-")) {
            return Profiles.QWEN;
        }
        throw new IllegalArgumentException("no profile rule for " + path);
    }

    private static CompatProfile groqOnly(String path, String name) {
        if (name.startsWith("pydantic-groq-")) {
            return Profiles.GROQ;
        }
        throw new IllegalArgumentException("no profile rule for " + path);
    }

    private static Path root() {
        URL url = Objects.requireNonNull(Recordings.class.getResource("/fixtures/PROVENANCE.md"), "fixtures");
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
