package dev.ruminate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.StreamTimeoutException;
import dev.ruminate.core.error.TransportException;
import dev.ruminate.testkit.NettyLeakCheck;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The command line says what went wrong, cause first, in one line: a recording replayed with the wrong
 * {@code --provider} is named as the family it is, with the providers that read it; a usage error is
 * its cause and a pointer to {@code --help}, not the whole usage; a failed connection is what failed
 * and where, never a Netty exception's class name.
 */
@ExtendWith(NettyLeakCheck.class)
class ErrorReportingTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String GEMINI_ARRAY = "gemini/llmg-gemini3-flash-signed-call-json-array-stream.turn1.json";

    @Test
    void aGeminiJsonArrayStreamIsRecognisedByItsContentAndReplayed() {
        CliRun run = CliRun.of("replay", "--provider", "gemini", CliRun.fixture(GEMINI_ARRAY));

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        JsonNode root = JSON.readTree(run.out());
        assertThat(root.get("finishReason").stringValue()).isEqualTo("tool_calls");
        JsonNode parts = root.get("parts");
        assertThat(parts).hasSize(1);
        assertThat(parts.get(0).get("name").stringValue()).isEqualTo("multiply");
        assertThat(parts.get(0).get("arguments").get("x").intValue()).isEqualTo(5);
        assertThat(parts.get(0).get("signature").stringValue()).startsWith("Et0BCtoBAXLI2nwM");
    }

    @Test
    void anAnthropicStreamReplayedAsGeminiNamesItsFamilyFirst() {
        CliRun run = CliRun.of("replay", "--provider", "gemini", "--format", "text", "--no-color",
                CliRun.fixture("anthropic/pydantic-thinking-web-search-stream.sse"));

        assertThat(run.status()).isEqualTo(Main.STREAM_FAILED);
        assertThat(run.err().lines().findFirst()).hasValueSatisfying(line -> assertThat(line)
                .startsWith("ruminate: ")
                .contains("an SSE stream in the Anthropic Messages format (event: message_start)")
                .contains("--provider gemini (Google Gemini) does not read", "try --provider anthropic"));
    }

    @Test
    void aGeminiArrayReplayedAsChatCompletionsNamesGemini() {
        CliRun run = CliRun.of("replay", "--provider", "deepseek", CliRun.fixture(GEMINI_ARRAY));

        assertThat(run.status()).isEqualTo(Main.STREAM_FAILED);
        assertThat(run.err()).contains("a streamed JSON array in the Google Gemini format", "try --provider gemini or vertex");
        assertThat(run.err() + run.out()).doesNotContain("io.netty", "Exception");
    }

    @Test
    void theBinaryBedrockStreamReplayedAsOllamaNamesBedrock() {
        CliRun run = CliRun.of("replay", "--provider", "ollama-native",
                CliRun.fixture("bedrock/pydantic-bedrock-claude-redacted-reasoning-stream.eventstream"));

        assertThat(run.status()).isEqualTo(Main.STREAM_FAILED);
        assertThat(run.err()).contains("an AWS event stream in the Amazon Bedrock Converse format (binary :event-type frames)",
                "try --provider bedrock");
    }

    @Test
    void aChatCompletionsStreamReplayedAsResponsesSuggestsSeveralProviders() {
        CliRun run = CliRun.of("replay", "--provider", "openai-responses",
                CliRun.fixture("deepseek/vercel-deepseek-reasoning-tool-call-stream.sse"));

        assertThat(run.status()).isEqualTo(Main.STREAM_FAILED);
        assertThat(run.err()).contains("the OpenAI Chat Completions format", "ruminate providers lists them");
    }

    @Test
    void aRightProviderGivesNoHint() {
        CliRun run = CliRun.of("replay", "--provider", "anthropic", CliRun.fixture("anthropic/pydantic-thinking-web-search-stream.sse"));

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
    }

    @Test
    void aUsageErrorIsItsCauseAndAPointerToHelpNotTheWholeUsage() {
        CliRun run = CliRun.of("replay", "--provider", "nope", "x.sse");

        assertThat(run.status()).isEqualTo(Main.USAGE);
        assertThat(run.err().lines().toList()).hasSize(2);
        assertThat(run.err()).startsWith("ruminate: unknown provider 'nope'").contains("--help").doesNotContain("usage:");
    }

    @Test
    void aRefusedConnectionSaysSoAndWhereWithoutNettyNames() {
        // port 1 on loopback: nothing listens there
        CliRun run = CliRun.of("chat", "--provider", "deepseek", "--model", "m", "--base-url", "http://127.0.0.1:1",
                "--api-key-env", "PATH", "--no-color", "hi");

        assertThat(run.status()).isEqualTo(Main.STREAM_FAILED);
        assertThat(run.err().strip()).startsWith("stream failed (transport_error): cannot connect: connection refused")
                .contains("POST http://127.0.0.1:1/chat/completions")
                .doesNotContain("io.netty", "Exception", "\n");
    }

    @Test
    void transportCausesAndTimeoutsReadAsWords() {
        TransportException unknownHost = new TransportException("POST https://api.example.invalid/v1/chat failed: "
                + "java.net.UnknownHostException: api.example.invalid: Name or service not known",
                new UnknownHostException("api.example.invalid: Name or service not known"));
        assertThat(Failures.describe(unknownHost))
                .isEqualTo("unknown host api.example.invalid (POST https://api.example.invalid/v1/chat)");
        TransportException closed = new TransportException("POST http://h/x failed: x", new ClosedChannelException());
        assertThat(Failures.describe(closed)).isEqualTo("the server closed the connection before answering (POST http://h/x)");
        assertThat(Failures.describe(new StreamTimeoutException(StreamTimeoutException.Phase.FIRST_EVENT, Duration.ofSeconds(30))))
                .isEqualTo("first event timeout after PT30S (the server sent nothing back)");
        assertThat(Failures.describeUnexpected(new IllegalStateException())).isEqualTo("an unexpected IllegalStateException");
    }
}
