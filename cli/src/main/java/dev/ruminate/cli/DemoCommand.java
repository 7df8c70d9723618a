package dev.ruminate.cli;

import dev.ruminate.core.ChatProvider;
import dev.ruminate.core.loop.ToolLoop;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ReasoningEffort;
import dev.ruminate.core.request.ReasoningOptions;
import dev.ruminate.core.request.ToolDefinition;
import dev.ruminate.testkit.AnthropicScript;
import dev.ruminate.testkit.BedrockScript;
import dev.ruminate.testkit.ChatCompletionsScript;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.GeminiScript;
import dev.ruminate.testkit.OllamaScript;
import dev.ruminate.testkit.ProviderEmulator;
import dev.ruminate.testkit.ResponsesScript;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ruminate demo}: multi-turn conversations with reasoning and a tool call, and a three-step
 * {@link ToolLoop} with the built-in tools, against provider emulators on loopback, through the real
 * HTTP, decoding and reduction path. No network, no key.
 */
final class DemoCommand {

    /** The demo loop's clock tool reads this, so that the demo prints the same every time. */
    private static final Clock DEMO_CLOCK = Clock.fixed(Instant.parse("2026-11-25T09:30:00Z"), ZoneOffset.UTC);
    private static final JsonMapper COMPACT = JsonMapper.builder().build();
    private static final JsonMapper PRETTY = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private static final ToolDefinition WEATHER = new ToolDefinition("get_weather",
            "Returns tomorrow's forecast for a city.",
            "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}");

    private final PrintStream out;
    private final Style style;
    private final Duration pace;

    private DemoCommand(PrintStream out, Style style, Duration pace) {
        this.out = out;
        this.style = style;
        this.pace = pace;
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Args parsed = Args.parse(args, Set.of("pace-ms"), Set.of("no-color"));
        if (!parsed.positional().isEmpty()) {
            throw new UsageException("demo takes no arguments");
        }
        Duration pace = Duration.ofMillis(paceMillis(parsed.option("pace-ms", "12")));
        Style style = parsed.flag("no-color") ? Style.plain() : Style.detect();
        DemoCommand demo = new DemoCommand(out, style, pace);
        try (ProviderEmulator emulator = ProviderEmulator.start()) {
            demo.toolLoop(emulator);
            demo.thinkTags(emulator);
            demo.responses(emulator);
            demo.anthropic(emulator);
            demo.bedrock(emulator);
            demo.gemini(emulator);
            demo.ollama(emulator);
            demo.mistral(emulator);
            demo.loop(emulator);
        }
        out.println(style.heading("demo complete"));
        return Main.OK;
    }

    private static long paceMillis(String value) {
        try {
            long millis = Long.parseLong(value);
            if (millis >= 0) {
                return millis;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--pace-ms must be a whole number of milliseconds >= 0, was " + value);
    }

    /** DeepSeek's thinking mode: reasoning, a tool call, and reasoning carried back inside the tool loop. */
    private void toolLoop(ProviderEmulator emulator) {
        section("1. DeepSeek (thinking mode), a tool loop: reasoning_content streams, then a tool call");
        ChatProvider deepseek = Clients.forEmulator("deepseek", emulator.baseUrl(), false);
        emulator.enqueue(paced(ChatCompletionsScript.create()
                .id("demo-turn-1").model("deepseek-v4-flash")
                .reasoning("The user is going to Paris tomorrow and asks about an umbrella. "
                        + "I can't know the weather myself; I'll call get_weather for Paris.")
                .toolCall("call_00_paris", "get_weather", "{\"city\":\"Paris\"}")
                .finish("tool_calls")
                .usage(412, 61, 38).usageOnFinishChunk(true)
                .toResponse()));
        List<Message> history = new ArrayList<>();
        history.add(Message.system("You are a concise travel assistant."));
        history.add(Message.user("I'm in Paris tomorrow. Should I pack an umbrella?"));
        ChatResult first = turn(deepseek, request("deepseek-v4-flash", history));

        AssistantMessage assistant = first.message();
        history.add(assistant);
        for (ToolCallPart call : assistant.toolCalls()) {
            String result = "{\"city\":\"Paris\",\"forecast\":\"light rain after 14:00\",\"chance_of_rain\":0.8,\"high_c\":14}";
            out.println(style.tool("  ← the application runs " + call.name() + call.arguments() + " = " + result));
            history.add(Message.toolResult(call.id() != null ? call.id() : call.name(), result));
        }

        emulator.enqueue(paced(ChatCompletionsScript.create()
                .id("demo-turn-2").model("deepseek-v4-flash")
                .reasoning("Forecast: light rain after 14:00, 80% chance. So yes, an umbrella is worth it.")
                .content("Yes — pack a small umbrella. Paris expects light rain after 2 pm tomorrow "
                        + "(80% chance), with a high of 14 °C.")
                .finish("stop")
                .usage(498, 52, 19).usageOnFinishChunk(true)
                .toResponse()));
        int before = emulator.requests().size();
        turn(deepseek, request("deepseek-v4-flash", history));
        out.println(style.heading("  the request History built for turn 2 (reasoning_content travels back "
                + "on the assistant turn that called the tool, as DeepSeek's thinking mode requires):"));
        out.println(style.tool(indent(PRETTY.writeValueAsString(PRETTY.readTree(emulator.requests().get(before).body())))));
    }

    /** Perplexity-style reasoning written into the content between think tags. */
    private void thinkTags(ProviderEmulator emulator) {
        section("2. Perplexity sonar-reasoning: reasoning inside <think> tags in the content, split out as it streams");
        ChatProvider perplexity = Clients.forEmulator("perplexity", emulator.baseUrl(), false);
        emulator.enqueue(paced(ChatCompletionsScript.create()
                .id("demo-think").model("sonar-reasoning-pro")
                .content("<think>\nThe question is how far the Moon is. Mean distance is about 384,400 km."
                        + "\n</think>\n\nThe Moon is about **384,400 km** from Earth on average.")
                .tokensOf(3)
                .finish("stop")
                .usage(20, 41, 0)
                .toResponse()));
        turn(perplexity, ChatRequest.builder("sonar-reasoning-pro").user("How far away is the Moon?").build());
    }

    /** OpenAI Responses, stateless: summaries stream, the encrypted reasoning item goes back before its call. */
    private void responses(ProviderEmulator emulator) {
        section("3. OpenAI Responses (store: false): reasoning summaries stream, the encrypted reasoning item goes back "
                + "before its function call");
        ChatProvider openai = Clients.forEmulator("openai-responses", emulator.baseUrl(), false);
        String model = "gpt-5-mini";
        emulator.enqueue(paced(ResponsesScript.create().model(model)
                .reasoning("rs_demo_1", "gAAAAABpDemoEncryptedReasoningState=",
                        "**Checking the forecast**\n\nThe user wants to know about rain in Berlin; I'll call get_weather.")
                .functionCall("call_berlin", "get_weather", "{\"city\":\"Berlin\"}")
                .usage(310, 95, 64, 0).tokensOf(6)
                .toResponse()));
        List<Message> history = new ArrayList<>();
        history.add(Message.user("Will it rain in Berlin tomorrow?"));
        AssistantMessage assistant = turn(openai, ChatRequest.builder(model).messages(history).tool(WEATHER)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MEDIUM)).build()).message();
        history.add(assistant);
        for (ToolCallPart call : assistant.toolCalls()) {
            String result = "{\"city\":\"Berlin\",\"forecast\":\"showers\",\"chance_of_rain\":0.7}";
            out.println(style.tool("  ← the application runs " + call.name() + call.arguments() + " = " + result));
            history.add(Message.toolResult(call.id() != null ? call.id() : call.name(), result));
        }
        emulator.enqueue(paced(ResponsesScript.create().model(model)
                .reasoning("rs_demo_2", "gAAAAABpDemoEncryptedReasoningStat2=", "**Answering**\n\n70% chance of showers.")
                .text("Probably: showers are likely in Berlin tomorrow (70% chance). Take an umbrella.")
                .usage(420, 60, 22, 256).tokensOf(6)
                .toResponse()));
        int before = emulator.requests().size();
        turn(openai, ChatRequest.builder(model).messages(history).tool(WEATHER)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.MEDIUM)).build());
        out.println(style.heading("  turn 2's input items as sent: the reasoning item with its id and encrypted_content, "
                + "immediately before its function_call:"));
        JsonNode input = PRETTY.readTree(emulator.requests().get(before).body()).get("input");
        for (int i = 1; i < input.size(); i++) {
            out.println(style.tool(indent(PRETTY.writeValueAsString(input.get(i)))));
        }
    }

    /** Anthropic with interleaved thinking: signed thinking around a tool call, sent back unmodified in the loop. */
    private void anthropic(ProviderEmulator emulator) {
        section("4. Anthropic Messages: a signed thinking block and a tool call, sent back unmodified inside the tool loop");
        ChatProvider claude = Clients.forEmulator("anthropic", emulator.baseUrl(), false);
        String model = "claude-sonnet-4-5";
        emulator.enqueue(paced(AnthropicScript.create().model(model)
                .thinking("The user asks about Oslo tomorrow. I need the forecast first.", "EuYBCkQYAiJALWRlbW8tc2lnbmF0dXJlLTE=")
                .toolUse("toolu_oslo", "get_weather", "{\"city\":\"Oslo\"}")
                .stopReason("tool_use").usage(402, 88).tokensOf(6)
                .toResponse()));
        List<Message> history = new ArrayList<>();
        history.add(Message.user("Will it snow in Oslo tomorrow?"));
        AssistantMessage assistant = turn(claude, ChatRequest.builder(model).messages(history).tool(WEATHER)
                .reasoning(ReasoningOptions.budget(2048)).build()).message();
        history.add(assistant);
        for (ToolCallPart call : assistant.toolCalls()) {
            String result = "{\"city\":\"Oslo\",\"forecast\":\"snow showers\",\"low_c\":-4}";
            out.println(style.tool("  ← the application runs " + call.name() + call.arguments() + " = " + result));
            history.add(Message.toolResult(call.id() != null ? call.id() : call.name(), result));
        }
        emulator.enqueue(paced(AnthropicScript.create().model(model)
                .thinking("Snow showers and -4 °C: yes, snow is likely.", "EuYBCkQYAiJALWRlbW8tc2lnbmF0dXJlLTI=")
                .text("Yes — snow showers are expected in Oslo tomorrow, with a low of −4 °C.")
                .usage(540, 61).tokensOf(6)
                .toResponse()));
        int before = emulator.requests().size();
        turn(claude, ChatRequest.builder(model).messages(history).tool(WEATHER).reasoning(ReasoningOptions.budget(2048)).build());
        out.println(style.heading("  turn 2's assistant message as sent: the thinking block with its signature, "
                + "unmodified and first, then the tool_use (the API rejects a tool loop without it):"));
        out.println(style.tool(indent(PRETTY.writeValueAsString(
                PRETTY.readTree(emulator.requests().get(before).body()).get("messages").get(1)))));
    }

    /** Claude on Bedrock: signed reasoning in binary event-stream frames, sent back byte for byte in the tool loop. */
    private void bedrock(ProviderEmulator emulator) {
        section("5. Claude on Amazon Bedrock (ConverseStream): binary event-stream frames, a SigV4-signed request, "
                + "a signed reasoning block");
        ChatProvider bedrock = Clients.forEmulator("bedrock", emulator.baseUrl(), false);
        String model = "us.anthropic.claude-sonnet-4-20250514-v1:0";
        emulator.enqueue(paced(BedrockScript.create()
                .reasoning("Tomorrow's forecast for Lisbon decides this; I'll call get_weather.", "EqQBCkYIBxABLWRlbW8tc2lnbmF0dXJl")
                .toolUse("tooluse_lisbon", "get_weather", "{\"city\":\"Lisbon\"}")
                .stopReason("tool_use").usage(388, 72).tokensOf(6)
                .toResponse()));
        List<Message> history = new ArrayList<>();
        history.add(Message.user("Do I need sunscreen in Lisbon tomorrow?"));
        ChatRequest.Builder first = ChatRequest.builder(model).messages(history).tool(WEATHER)
                .reasoning(ReasoningOptions.budget(2048));
        AssistantMessage assistant = turn(bedrock, first.build()).message();
        out.println(style.note("  signed with: " + signatureScheme(emulator.requests().get(emulator.requests().size() - 1)
                .header("Authorization"))));
        history.add(assistant);
        for (ToolCallPart call : assistant.toolCalls()) {
            String result = "{\"city\":\"Lisbon\",\"uv_index\":8,\"sky\":\"clear\"}";
            out.println(style.tool("  ← the application runs " + call.name() + call.arguments() + " = " + result));
            history.add(Message.toolResult(call.id() != null ? call.id() : call.name(), result));
        }
        emulator.enqueue(paced(BedrockScript.create()
                .reasoning("UV index 8 is very high.", "EqQBCkYIBxABLWRlbW8tc2lnbmF0dXJlLTI=")
                .text("Yes: the UV index in Lisbon tomorrow is 8 (very high) under clear skies. Use SPF 30+.")
                .usage(503, 44).tokensOf(6)
                .toResponse()));
        int before = emulator.requests().size();
        turn(bedrock, ChatRequest.builder(model).messages(history).tool(WEATHER).reasoning(ReasoningOptions.budget(2048)).build());
        out.println(style.heading("  turn 2's assistant message as sent: the reasoning text and its signature, unmodified, "
                + "before the toolUse (Bedrock rejects a tool loop without them):"));
        out.println(style.tool(indent(PRETTY.writeValueAsString(
                PRETTY.readTree(emulator.requests().get(before).body()).get("messages").get(1)))));
    }

    /** Gemini 3: a thought summary, a function call carrying the thought signature, sent back on the same part. */
    private void gemini(ProviderEmulator emulator) {
        section("6. Google Gemini 3 (streamGenerateContent): a thought summary, the thought signature on the function call, "
                + "and back on that same part");
        ChatProvider gemini = Clients.forEmulator("gemini", emulator.baseUrl(), false);
        String model = "gemini-3-pro-preview";
        emulator.enqueue(paced(GeminiScript.create().model(model)
                .thought("**Checking Madrid's forecast**\n\nI'll call get_weather before answering.")
                .functionCall("get_weather", "{\"city\":\"Madrid\"}", "EpwICpkIAXLIMm4tZGVtby1zaWduYXR1cmU=")
                .usage(41, 12, 180).tokensOf(6)
                .toResponse()));
        List<Message> history = new ArrayList<>();
        history.add(Message.user("Is it hot in Madrid tomorrow?"));
        AssistantMessage assistant = turn(gemini, ChatRequest.builder(model).messages(history).tool(WEATHER)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build()).message();
        history.add(assistant);
        for (ToolCallPart call : assistant.toolCalls()) {
            String result = "{\"city\":\"Madrid\",\"high_c\":34}";
            out.println(style.tool("  ← the application runs " + call.name() + call.arguments() + " = " + result));
            history.add(Message.toolResult(call.id() != null ? call.id() : call.name(), result));
        }
        emulator.enqueue(paced(GeminiScript.create().model(model)
                .text("Yes: Madrid reaches 34 °C tomorrow. Stay in the shade at midday.")
                .trailingSignature("EpAICo0IAb4-demo-signature-2")
                .usage(260, 18, 95).tokensOf(6)
                .toResponse()));
        int before = emulator.requests().size();
        turn(gemini, ChatRequest.builder(model).messages(history).tool(WEATHER)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build());
        out.println(style.heading("  turn 2's model content as sent: the function call with its thoughtSignature "
                + "(the thought summary is not sent back):"));
        out.println(style.tool(indent(PRETTY.writeValueAsString(
                PRETTY.readTree(emulator.requests().get(before).body()).get("contents").get(1)))));
    }

    /** Ollama's native API: NDJSON lines, thinking beside the content, a whole tool call, thinking sent back. */
    private void ollama(ProviderEmulator emulator) {
        section("7. Ollama native API (/api/chat, NDJSON): message.thinking streams, the tool call arrives whole");
        ChatProvider ollama = Clients.forEmulator("ollama-native", emulator.baseUrl(), false);
        String model = "gpt-oss:20b";
        emulator.enqueue(paced(OllamaScript.create().model(model)
                .thinking("Rome tomorrow: I should check the forecast with get_weather.")
                .toolCall("get_weather", "{\"city\":\"Rome\"}")
                .usage(96, 41).tokensOf(6)
                .toResponse()));
        List<Message> history = new ArrayList<>();
        history.add(Message.user("Is it warm in Rome tomorrow?"));
        AssistantMessage assistant = turn(ollama, ChatRequest.builder(model).messages(history).tool(WEATHER)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build()).message();
        history.add(assistant);
        for (ToolCallPart call : assistant.toolCalls()) {
            String result = "{\"city\":\"Rome\",\"high_c\":24}";
            out.println(style.tool("  ← the application runs " + call.name() + call.arguments() + " = " + result));
            history.add(Message.toolResult(call.id() != null ? call.id() : call.name(), result));
        }
        emulator.enqueue(paced(OllamaScript.create().model(model)
                .thinking("24 °C is warm.").content("Yes, warm: Rome reaches 24 °C tomorrow.")
                .usage(140, 22).tokensOf(6).toResponse()));
        int before = emulator.requests().size();
        turn(ollama, ChatRequest.builder(model).messages(history).tool(WEATHER)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build());
        out.println(style.heading("  turn 2's assistant message as sent: its thinking beside the tool call:"));
        out.println(style.tool(indent(PRETTY.writeValueAsString(
                PRETTY.readTree(emulator.requests().get(before).body()).get("messages").get(1)))));
    }

    /** Magistral: reasoning as thinking chunks inside the content array. */
    private void mistral(ProviderEmulator emulator) {
        section("8. Mistral Magistral: reasoning in \"thinking\" chunks of the content array, and back the same way");
        ChatProvider mistral = Clients.forEmulator("mistral", emulator.baseUrl(), false);
        String model = "magistral-medium-latest";
        emulator.enqueue(paced(ChatCompletionsScript.create().model(model).thinkingChunks(true)
                .reasoning("17 × 3: 10 × 3 = 30, 7 × 3 = 21, so 51.")
                .content("17 × 3 = 51.")
                .usage(12, 30, 0).tokensOf(6)
                .toResponse()));
        List<Message> history = new ArrayList<>();
        history.add(Message.user("What is 17 × 3?"));
        history.add(turn(mistral, ChatRequest.builder(model).messages(history)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build()).message());
        history.add(Message.user("And 17 × 4?"));
        emulator.enqueue(paced(ChatCompletionsScript.create().model(model).thinkingChunks(true)
                .reasoning("51 + 17 = 68.").content("17 × 4 = 68.").usage(40, 16, 0).tokensOf(6).toResponse()));
        int before = emulator.requests().size();
        turn(mistral, ChatRequest.builder(model).messages(history).reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH)).build());
        out.println(style.heading("  turn 2's assistant message as sent:"));
        out.println(style.tool(indent(PRETTY.writeValueAsString(
                PRETTY.readTree(emulator.requests().get(before).body()).get("messages").get(1)))));
    }

    /** A ToolLoop on Anthropic: three steps of signed thinking, the clock and two parallel calculator calls. */
    private void loop(ProviderEmulator emulator) {
        section("9. A ToolLoop on Anthropic Messages: three steps, interleaved signed thinking, the built-in clock and "
                + "calculator tools (two calls in parallel), each step's thinking sent back with its signature");
        ChatProvider claude = Clients.forEmulator("anthropic", emulator.baseUrl(), false);
        String model = "claude-sonnet-4-5";
        emulator.enqueue(paced(AnthropicScript.create().model(model)
                .thinking("The user is flying out of Tokyo; I need the current time there first.", "EuYBCkQYAiJALWxvb3Atc2lnbmF0dXJlLTE=")
                .toolUse("toolu_clock", "clock", "{\"timezone\":\"Asia/Tokyo\"}")
                .stopReason("tool_use").usage(612, 74).tokensOf(6)
                .toResponse()));
        emulator.enqueue(paced(AnthropicScript.create().model(model)
                .thinking("It is 18:30 in Tokyo. The flight is 11 h 45 min, and 2 × 23 kg of luggage at 1.25 per kg: "
                        + "two sums, both for the calculator.", "EuYBCkQYAiJALWxvb3Atc2lnbmF0dXJlLTI=")
                .toolUse("toolu_hours", "calculator", "{\"expression\":\"18.5 + 11.75 - 24\"}")
                .toolUse("toolu_fee", "calculator", "{\"expression\":\"2 * 23 * 1.25\"}")
                .stopReason("tool_use").usage(801, 96).tokensOf(6)
                .toResponse()));
        emulator.enqueue(paced(AnthropicScript.create().model(model)
                .thinking("6.25 h past midnight is 06:15 Tokyo time the next day; the fee is 57.5.", "EuYBCkQYAiJALWxvb3Atc2lnbmF0dXJlLTM=")
                .text("You land at about 06:15 (Tokyo time) tomorrow morning, and the luggage fee is 57.50.")
                .usage(955, 41).tokensOf(6)
                .toResponse()));
        int before = emulator.requests().size();
        ChatRequest request = ChatRequest.builder(model)
                .user("It's evening in Tokyo and my flight takes 11h45. When do I land, Tokyo time? "
                        + "And what do 2 bags of 23 kg cost at 1.25 per kg?")
                .reasoning(ReasoningOptions.budget(2048)).build();
        int status = LoopCommand.run(LoopCommand.loop(claude, DEMO_CLOCK, 5), request, out, out, style);
        if (status != Main.OK) {
            throw new IllegalStateException("the demo loop failed");
        }
        out.println(style.heading("  step 3's request as sent, after the user message: each assistant turn with its "
                + "thinking and signature first, then its tool_use blocks; the tool results in call order:"));
        JsonNode messages = PRETTY.readTree(emulator.requests().get(before + 2).body()).get("messages");
        for (int i = 1; i < messages.size(); i++) {
            out.println(style.tool("    " + LiveRenderer.printable(COMPACT.writeValueAsString(messages.get(i)))));
        }
    }

    /** The scheme and scope of an AWS Authorization header, without its signature. */
    private static String signatureScheme(@Nullable String authorization) {
        if (authorization == null) {
            return "(none)";
        }
        int signature = authorization.indexOf(", Signature=");
        return signature < 0 ? authorization : authorization.substring(0, signature) + ", Signature=…";
    }

    private ChatResult turn(ChatProvider provider, ChatRequest request) {
        LiveRenderer live = new LiveRenderer(out, style);
        ChatResult result = ChatReducer.defaults().reduce(provider.stream(request).doOnNext(live::onEvent)).block();
        live.finish();
        if (result == null) {
            throw new IllegalStateException("the reduction completed without a result");
        }
        out.println(style.note("  finish: " + result.message().finishReason().wireName()
                + " · " + TextRendering.usage(result.message().usage())));
        out.println(style.note("  " + TextRendering.verdict(result.reasoningCheck())));
        return result;
    }

    private static ChatRequest request(String model, List<Message> history) {
        return ChatRequest.builder(model)
                .messages(history)
                .tool(WEATHER)
                .reasoning(ReasoningOptions.effort(ReasoningEffort.HIGH))
                .build();
    }

    private EmulatorResponse paced(EmulatorResponse response) {
        // About one SSE event per chunk, so reasoning visibly streams before the answer.
        return pace.isZero() ? response : response.chunked(ChunkPlan.fixed(96)).delay(pace);
    }

    private void section(String title) {
        out.println();
        out.println(style.heading(title));
    }

    private static String indent(String text) {
        return "    " + text.replace("\n", "\n    ");
    }
}
