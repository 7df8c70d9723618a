package dev.ruminate.examples.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.testkit.NettyLeakCheck;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A chat request through the running example produces an OpenTelemetry span named and tagged per the
 * GenAI semantic conventions, through Micrometer's OpenTelemetry bridge, read from an in-memory exporter.
 */
@ExtendWith(NettyLeakCheck.class)
class TracesTest {

    private RunningApp app;

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aChatTurnIsAGenAiSpanUnderTheServerRequest() {
        List<SpanData> spans = chatSpans();

        SpanData chat = spans.stream().filter(s -> s.getName().equals("chat deepseek-reasoner")).findFirst().orElseThrow(
                () -> new AssertionError("no chat span in " + spans.stream().map(SpanData::getName).toList()));
        assertThat(chat.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo("chat");
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.provider.name"))).isEqualTo("deepseek");
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("deepseek-reasoner");
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.response.model"))).isNotBlank();
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.response.finish_reasons"))).isEqualTo("stop");
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.usage.output_tokens"))).isNotBlank();
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("error.type"))).isNull();
        // off by default: the question and the answer are not in the trace
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.input.messages"))).isNull();
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.output.messages"))).isNull();
        assertThat(chat.getAttributes().asMap().values()).noneMatch(v -> String.valueOf(v).contains("sky"));
        // the chat span is a child of the WebFlux request's span, in the same trace
        SpanData server = spans.stream().filter(s -> s.getSpanId().equals(chat.getParentSpanId())).findFirst().orElseThrow(
                () -> new AssertionError("the chat span's parent is not among " + spans.stream().map(SpanData::getName).toList()));
        assertThat(server.getTraceId()).isEqualTo(chat.getTraceId());
    }

    @Test
    void contentIsInTheSpanWhenTheApplicationOptsIn() {
        List<SpanData> spans = chatSpans("ruminate.observations.capture-content=true");

        SpanData chat = spans.stream().filter(s -> s.getName().equals("chat deepseek-reasoner")).findFirst().orElseThrow();
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.input.messages")))
                .isEqualTo("[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Why is the sky blue?\"}]}]");
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.output.messages")))
                .contains("\"role\":\"assistant\"", "Because air scatters blue light");
    }

    private List<SpanData> chatSpans(String... properties) {
        String[] all = new String[properties.length + 1];
        all[0] = "ruminate.example.log-spans=false";
        System.arraycopy(properties, 0, all, 1, properties.length);
        app = RunningApp.start(List.of(Spans.class), all);
        WebTestClient.bindToServer().baseUrl(app.baseUrl()).responseTimeout(Duration.ofSeconds(10)).build()
                .get().uri(b -> b.path("/chat").queryParam("q", "Why is the sky blue?").build())
                .accept(MediaType.TEXT_EVENT_STREAM).exchange().expectStatus().isOk()
                .returnResult(String.class).getResponseBody().blockLast(Duration.ofSeconds(10));
        // Boot batches the export; flushing hands every ended span to the exporter before the assertions
        CompletableResultCode flushed = app.bean(SdkTracerProvider.class).forceFlush().join(10, TimeUnit.SECONDS);
        assertThat(flushed.isSuccess()).isTrue();
        return app.bean(InMemorySpanExporter.class).getFinishedSpanItems();
    }

    /** The test's exporter, beside the application's. */
    @Configuration(proxyBeanMethods = false)
    static class Spans {

        @Bean
        InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }
    }
}
