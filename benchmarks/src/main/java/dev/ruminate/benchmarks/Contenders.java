package dev.ruminate.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.core.ObjectMappers;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiStreamingResponseBuilder;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
import dev.langchain4j.model.openai.internal.chat.ChatCompletionResponse;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.spi.StreamDecoding;
import dev.ruminate.transport.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Flux;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.async.ByteArrayFeeder;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each contender of {@link ChatCompletionsReasoningBenchmark}, whole stream to final message. Kept apart from the
 * JMH class so that the equivalence test runs exactly the measured code.
 *
 * <p>Thread-safe: every call builds its own per-stream state; the shared parsers and mappers are thread-safe.
 */
final class Contenders {

    private static final ChatReducer REDUCER = ChatReducer.defaults();
    private static final ChatCompletionsCodec CODEC = ChatCompletionsCodec.of(Profiles.DEEPSEEK);
    private static final ChatRequest REQUEST = ChatRequest.builder("deepseek-reasoner")
            .user("Think, then call the tools.").build();
    private static final JsonFactory JSON = new JsonFactory();
    private static final JsonMapper NAIVE_MAPPER = JsonMapper.builder().build();
    private static final ObjectMapper OPENAI_MAPPER = ObjectMappers.jsonMapper();
    private static final MethodHandle LANGCHAIN4J_FROM_JSON = langchain4jFromJson();

    private Contenders() {
    }

    /**
     * Ruminate: SSE framing from the buffers, the Chat Completions decoder, the reducer, all as the provider runs
     * them (the codec's body decoder: each event decoded inside the read that completes it).
     */
    static ChatResult ruminate(ByteBuf[] pieces) {
        return Objects.requireNonNull(REDUCER.reduce(StreamDecoding.decode(CODEC, REQUEST, Flux.fromArray(pieces),
                WireLimits.DEFAULT)).block());
    }

    static Outcome outcome(ChatResult result) {
        AssistantMessage m = result.message();
        List<String> args = new ArrayList<>();
        for (ToolCallPart call : m.toolCalls()) {
            args.add(call.arguments());
        }
        return new Outcome(m.reasoning(), m.text(), args, m.usage().reasoningTokens());
    }

    /** The floor: Jackson 3's streaming parser over every token of every payload, a new parser each. */
    static long floor(List<byte[]> payloads) {
        long tokens = 0;
        for (byte[] payload : payloads) {
            try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), payload)) {
                while (p.nextToken() != null) {
                    tokens++;
                }
            }
        }
        return tokens;
    }

    /**
     * The floor's token walk with the parser Ruminate's decoders use: one Jackson 3 non-blocking parser for the
     * whole stream, fed one payload at a time, building nothing. Not a contender: it measures what Jackson's
     * non-blocking tokenizer alone costs against the blocking one of the floor.
     */
    static long floorNonBlocking(List<byte[]> payloads) {
        long tokens = 0;
        try (JsonParser p = JSON.createNonBlockingByteArrayParser(ObjectReadContext.empty())) {
            ByteArrayFeeder feeder = (ByteArrayFeeder) p.nonBlockingInputFeeder();
            for (byte[] payload : payloads) {
                feeder.feedInput(payload, 0, payload.length);
                while (p.nextToken() != JsonToken.NOT_AVAILABLE) {
                    tokens++;
                }
            }
        }
        return tokens;
    }

    /** Naive: a Jackson tree per chunk, text appended to builders. */
    static Outcome naive(List<byte[]> payloads) {
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        List<StringBuilder> args = new ArrayList<>(2);
        Long reasoningTokens = null;
        for (byte[] payload : payloads) {
            JsonNode chunk = NAIVE_MAPPER.readTree(payload);
            for (JsonNode choice : chunk.path("choices")) {
                JsonNode delta = choice.path("delta");
                JsonNode r = delta.get("reasoning_content");
                if (r != null && r.isString()) {
                    reasoning.append(r.asString());
                }
                JsonNode c = delta.get("content");
                if (c != null && c.isString()) {
                    content.append(c.asString());
                }
                for (JsonNode call : delta.path("tool_calls")) {
                    int index = call.path("index").asInt();
                    while (args.size() <= index) {
                        args.add(new StringBuilder());
                    }
                    JsonNode a = call.path("function").get("arguments");
                    if (a != null && a.isString()) {
                        args.get(index).append(a.asString());
                    }
                }
            }
            JsonNode tokens = chunk.path("usage").path("completion_tokens_details").get("reasoning_tokens");
            if (tokens != null && tokens.isNumber()) {
                reasoningTokens = tokens.asLong();
            }
        }
        List<String> arguments = new ArrayList<>(args.size());
        for (StringBuilder a : args) {
            arguments.add(a.toString());
        }
        return new Outcome(reasoning.toString(), content.toString(), arguments, reasoningTokens);
    }

    /** openai-java: its mapper reads each chunk into a {@code ChatCompletionChunk}; its accumulator builds the result. */
    static ChatCompletion openaiJava(List<byte[]> payloads) {
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try {
            for (byte[] payload : payloads) {
                accumulator.accumulate(OPENAI_MAPPER.readValue(payload, ChatCompletionChunk.class));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return accumulator.chatCompletion();
    }

    // openai-java has no reasoning field: reasoning_content survives only among the message's additional
    // properties, an accessor it marks deprecated; reading it is the point here.
    @SuppressWarnings("deprecation")
    static Outcome outcome(ChatCompletion completion) {
        ChatCompletionMessage m = completion.choices().get(0).message();
        var reasoning = m._additionalProperties().get("reasoning_content");
        List<String> args = new ArrayList<>();
        for (ChatCompletionMessageToolCall call : m.toolCalls().orElse(List.of())) {
            args.add(call.asFunction().function().arguments());
        }
        Long tokens = completion.usage().flatMap(u -> u.completionTokensDetails()).flatMap(d -> d.reasoningTokens())
                .orElse(null);
        return new Outcome(reasoning == null ? null : reasoning.convert(String.class), m.content().orElse(""), args,
                tokens);
    }

    /**
     * LangChain4j: each SSE line's text parsed by its own mapper (what its streaming client does), then its
     * {@code OpenAiStreamingResponseBuilder} with {@code returnThinking} on.
     */
    static ChatResponse langchain4j(List<byte[]> payloads) {
        OpenAiStreamingResponseBuilder builder = new OpenAiStreamingResponseBuilder(true);
        for (byte[] payload : payloads) {
            builder.append(parseLangchain4j(new String(payload, StandardCharsets.UTF_8)));
        }
        return builder.build();
    }

    static Outcome outcome(ChatResponse response) {
        List<String> args = new ArrayList<>();
        for (ToolExecutionRequest request : response.aiMessage().toolExecutionRequests()) {
            args.add(request.arguments());
        }
        Long tokens = null;
        if (response.tokenUsage() instanceof OpenAiTokenUsage usage && usage.outputTokensDetails() != null
                && usage.outputTokensDetails().reasoningTokens() != null) {
            tokens = usage.outputTokensDetails().reasoningTokens().longValue();
        }
        String text = response.aiMessage().text();
        return new Outcome(response.aiMessage().thinking(), text == null ? "" : text, args, tokens);
    }

    private static ChatCompletionResponse parseLangchain4j(String data) {
        try {
            return (ChatCompletionResponse) LANGCHAIN4J_FROM_JSON.invokeExact(data, ChatCompletionResponse.class);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * LangChain4j's streaming client parses each event with {@code Json.fromJson}, a package-private helper over
     * its configured mapper; it is reached by reflection so that the benchmark measures that very mapper.
     */
    private static MethodHandle langchain4jFromJson() {
        try {
            Class<?> json = Class.forName("dev.langchain4j.model.openai.internal.Json");
            Method fromJson = json.getDeclaredMethod("fromJson", String.class, Class.class);
            fromJson.setAccessible(true);
            return MethodHandles.lookup().unreflect(fromJson)
                    .asType(java.lang.invoke.MethodType.methodType(ChatCompletionResponse.class, String.class,
                            Class.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("LangChain4j's Json helper moved", e);
        }
    }

}
