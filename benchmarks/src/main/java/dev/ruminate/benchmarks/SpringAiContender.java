package dev.ruminate.benchmarks;

import com.openai.client.OpenAIClientAsyncImpl;
import com.openai.client.OpenAIClientImpl;
import com.openai.core.ClientOptions;
import com.openai.core.RequestOptions;
import com.openai.core.http.Headers;
import com.openai.core.http.HttpClient;
import com.openai.core.http.HttpRequest;
import com.openai.core.http.HttpResponse;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.model.MessageAggregator;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/**
 * Spring AI 2's OpenAI chat model, driven without a network: it is built on openai-java's client, whose HTTP
 * transport is pluggable, so the transport here answers every request with the benchmark's SSE bytes. What runs
 * is Spring AI's own streaming path: openai-java's SSE reader and chunk mapper, Spring AI's chunk-to-response
 * conversion, then {@link MessageAggregator}.
 *
 * <p>Thread-safe: the model is stateless between calls; each call reads its own copy of the bytes.
 */
final class SpringAiContender {

    private final OpenAiChatModel model;
    private final Prompt prompt;

    SpringAiContender(byte[] sse) {
        ClientOptions options = ClientOptions.builder()
                .httpClient(new CannedHttpClient(sse))
                .baseUrl("http://127.0.0.1:9/v1")
                .apiKey("not-a-key")
                .maxRetries(0)
                .build();
        OpenAiChatOptions chatOptions = OpenAiChatOptions.builder().model("deepseek-reasoner").build();
        this.model = OpenAiChatModel.builder()
                .openAiClient(new OpenAIClientImpl(options))
                .openAiClientAsync(new OpenAIClientAsyncImpl(options))
                .options(chatOptions)
                .build();
        this.prompt = new Prompt("Think, then call the tools.", chatOptions);
    }

    /** Streams the canned response through the model and the aggregator; returns the aggregated response. */
    ChatResponse run() {
        AtomicReference<ChatResponse> aggregated = new AtomicReference<>();
        new MessageAggregator().aggregate(model.stream(prompt), aggregated::set).blockLast();
        ChatResponse response = aggregated.get();
        if (response == null) {
            throw new IllegalStateException("Spring AI produced no aggregated response");
        }
        return response;
    }

    static Outcome outcome(ChatResponse response) {
        Generation result = response.getResult();
        if (result == null) {
            throw new IllegalStateException("Spring AI's response has no generation");
        }
        AssistantMessage m = result.getOutput();
        List<String> args = new ArrayList<>();
        for (AssistantMessage.ToolCall call : m.getToolCalls()) {
            args.add(call.arguments());
        }
        Object reasoning = m.getMetadata().get("reasoningContent");
        String text = m.getText();
        // Spring AI's Usage has prompt and completion counts only: reasoning tokens are not kept.
        return new Outcome(reasoning == null ? null : reasoning.toString(), text == null ? "" : text, args, null);
    }

    /** An openai-java transport that answers each request with the same SSE body, from memory. */
    private static final class CannedHttpClient implements HttpClient {

        private final byte[] body;

        CannedHttpClient(byte[] body) {
            this.body = body;
        }

        @Override
        public HttpResponse execute(HttpRequest request, RequestOptions requestOptions) {
            return new CannedResponse(body);
        }

        @Override
        public CompletableFuture<HttpResponse> executeAsync(HttpRequest request, RequestOptions requestOptions) {
            return CompletableFuture.completedFuture(new CannedResponse(body));
        }

        @Override
        public void close() {
            // Nothing is held open.
        }
    }

    private static final class CannedResponse implements HttpResponse {

        private static final Headers HEADERS = Headers.builder().put("content-type", "text/event-stream").build();
        private final InputStream body;

        CannedResponse(byte[] body) {
            this.body = new ByteArrayInputStream(body);
        }

        @Override
        public int statusCode() {
            return 200;
        }

        @Override
        public Headers headers() {
            return HEADERS;
        }

        @Override
        public InputStream body() {
            return body;
        }

        @Override
        public void close() {
            // A byte array needs no closing.
        }
    }
}
