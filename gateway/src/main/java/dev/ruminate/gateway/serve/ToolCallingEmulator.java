package dev.ruminate.gateway.serve;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.spring.ChatProviderDecorator;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ProviderEmulator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Lets the built-in DeepSeek-like emulator of {@code ruminate serve} call tools: when a request
 * offers tools and does not end with a tool's result, the emulator's next answer is queued as
 * reasoning followed by a call of the first tool offered (arguments {@code {}}); otherwise it gives
 * its usual scripted answer. A client's tool loop therefore runs one round: call, result, answer.
 *
 * <p>The answer is queued when the request is subscribed, just before it is sent; two concurrent
 * requests may take each other's answer, which a local trial server can live with. Thread-safe.
 *
 * @since 0.2
 */
final class ToolCallingEmulator implements ChatProviderDecorator {

    private final String providerName;
    private final ProviderEmulator emulator;
    private final AtomicInteger calls = new AtomicInteger();

    ToolCallingEmulator(String providerName, ProviderEmulator emulator) {
        this.providerName = Objects.requireNonNull(providerName, "providerName");
        this.emulator = Objects.requireNonNull(emulator, "emulator");
    }

    @Override
    public ChatProvider decorate(String name, ChatProvider provider) {
        if (!providerName.equals(name)) {
            return provider;
        }
        return new ChatProvider() {
            @Override
            public String name() {
                return provider.name();
            }

            @Override
            public Flux<ChatEvent> stream(ChatRequest request) {
                return Mono.fromRunnable(() -> queueToolCall(request)).thenMany(provider.stream(request));
            }

            @Override
            public Flux<ChatEvent> completeAsEvents(ChatRequest request) {
                return Mono.fromRunnable(() -> queueToolCall(request)).thenMany(provider.completeAsEvents(request));
            }

            @Override
            public String toString() {
                return provider.toString();
            }
        };
    }

    private void queueToolCall(ChatRequest request) {
        List<Message> messages = request.messages();
        boolean afterResult = !messages.isEmpty() && messages.get(messages.size() - 1) instanceof ToolResultMessage;
        if (request.tools().isEmpty() || afterResult) {
            return;
        }
        ToolDefinition tool = request.tools().get(0);
        emulator.enqueue(ChatCompletionsScript.create()
                .model("deepseek-reasoner")
                .reasoning("The user's request needs the " + tool.name() + " tool; I will call it.")
                .toolCall("call_emulated_" + calls.incrementAndGet(), tool.name(), "{}")
                .finish("tool_calls").usage(20, 15, 10).toResponse());
    }
}
