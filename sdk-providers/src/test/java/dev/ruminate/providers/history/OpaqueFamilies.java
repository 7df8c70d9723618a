package dev.ruminate.providers.history;

import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.reduce.ChatReducer;
import dev.ruminate.core.reduce.ChatResult;
import dev.ruminate.providers.anthropic.AnthropicCodec;
import dev.ruminate.providers.bedrock.BedrockCodec;
import dev.ruminate.providers.chatcompletions.ChatCompletionsCodec;
import dev.ruminate.providers.chatcompletions.CompatProfile;
import dev.ruminate.providers.chatcompletions.Profiles;
import dev.ruminate.providers.gemini.GeminiCodec;
import dev.ruminate.providers.responses.ResponsesCodec;
import dev.ruminate.providers.responses.ResponsesProfile;
import dev.ruminate.providers.responses.ResponsesProfiles;
import dev.ruminate.providers.spi.WireCodec;
import dev.ruminate.providers.testing.Recorded;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * The provider families with opaque state, for the boundary and integrity tests: each with its
 * codec, how its recordings decode, which recordings are its own, and an endpoint identity its
 * recorded turns are stamped with (the reducer records provenance; these tests build it by hand).
 */
final class OpaqueFamilies {

    private OpaqueFamilies() {
    }

    /**
     * One family.
     *
     * @param name the provider name its turns carry
     * @param codec its codec
     * @param decode decodes a recording path, streamed or whole
     * @param recordings its recordings (paths under {@code fixtures/})
     * @param samples two recorded turns whose parts, one after the other, make the sample turn
     *     (two recordings, so that the sample holds at least two values of reasoning state)
     * @param home the endpoint identity the tests say its turns came from
     */
    record Family(String name, WireCodec<?> codec, Function<String, Flux<ChatEvent>> decode, List<String> recordings,
                  List<String> samples, Origin home) {

        /** Reduces a recording into the turn it holds (what was reduced before a failure, for error streams). */
        @Nullable AssistantMessage turn(String path) {
            try {
                ChatResult result = ChatReducer.defaults().reduce(decode.apply(path)).block(Duration.ofSeconds(30));
                return result == null ? null : result.message();
            } catch (RuminateException e) {
                return e.partial();
            }
        }

        /** The sample turn: the parts of the sample recordings' turns, in order, as one turn of the first's model. */
        AssistantMessage sample() {
            List<Part> parts = new ArrayList<>();
            AssistantMessage first = null;
            for (String path : samples) {
                AssistantMessage turn = turn(path);
                if (turn == null) {
                    throw new AssertionError("no turn in " + path);
                }
                first = first == null ? turn : first;
                parts.addAll(turn.parts());
            }
            return new AssistantMessage(parts, first.provider(), first.model(), first.finishReason(), first.rawFinishReason(),
                    first.usage());
        }

        /** The sample turn, its sealed parts stamped as made at {@link #home()}, each block finished. */
        AssistantMessage stampedSample() {
            return stamp(sample(), home);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Family> all() {
        return Stream.of(ANTHROPIC, BEDROCK, GEMINI, RESPONSES, OPENROUTER);
    }

    static final Family ANTHROPIC = new Family(AnthropicCodec.PROVIDER, AnthropicCodec.of(AnthropicCodec.DEFAULT_MAX_TOKENS),
            path -> path.endsWith(".sse") ? Flux.fromIterable(Recorded.sse(path)).transform(AnthropicCodec.streamDecoder())
                    : AnthropicCodec.decodeMessage(Recorded.bytes(path)),
            Recorded.under("anthropic", ".sse", ".json"), List.of("anthropic/pydantic-redacted-thinking-multiturn.turn1.json", "anthropic/pydantic-thinking-tool-use.turn1.json"),
            new Origin(AnthropicCodec.PROVIDER, "anthropic-messages", "api.anthropic.com/v1", "a1b2c3d4e5f60718"));

    static final Family BEDROCK = new Family("bedrock", BedrockCodec.of("bedrock"),
            path -> BedrockCodec.decodeResponse("bedrock", "us.anthropic.claude-sonnet-4-20250514-v1:0", Recorded.bytes(path)),
            Recorded.under("bedrock", ".json"), List.of("bedrock/pydantic-bedrock-claude-reasoning-tool-use.turn1.json",
                    "bedrock/pydantic-bedrock-claude-redacted-reasoning-multiturn.turn1.json"),
            new Origin("bedrock", "bedrock-converse", "bedrock-runtime.us-east-1.amazonaws.com", "0f1e2d3c4b5a6978"));

    static final Family GEMINI = new Family("gemini", GeminiCodec.of("gemini", false),
            path -> path.endsWith(".sse") ? Flux.fromIterable(Recorded.sse(path)).transform(GeminiCodec.streamDecoder("gemini"))
                    : GeminiCodec.decodeResponse("gemini", Recorded.bytes(path)),
            Recorded.under("gemini", ".sse", ".json"), List.of("gemini/rubyllm-gemini31-pro-thought-signed-call.turn1.json",
                    "gemini/fantasy-gemini31-pro-parallel-calls-signature.turn1.json"),
            new Origin("gemini", "gemini", "generativelanguage.googleapis.com/v1beta", "1122334455667788"));

    static final Family RESPONSES = responses(ResponsesProfiles.OPENAI, concat(Recorded.under("openai-responses", ".sse", ".json"),
            Recorded.under("deepseek").stream().filter(p -> p.contains("responses-api")).toList(),
            Recorded.under("bedrock", ".sse")), List.of("openai-responses/pydantic-gpt5-reasoning-tool-calls.turn1.json",
            "openai-responses/llm-gpt55-encrypted-reasoning-roundtrip.turn1.json"));

    static final Family OPENROUTER = chat(Profiles.OPENROUTER, concat(Recorded.under("openrouter", ".sse", ".json"),
            Recorded.under("openai-compatible").stream().filter(p -> p.contains("reasoning-details")).toList()),
            List.of("openrouter/rubyllm-openrouter-claude-reasoning-details-roundtrip.turn1.json",
            "openrouter/rubyllm-openrouter-claude-reasoning-details-tool-stream.turn1.sse"));

    private static Family responses(ResponsesProfile profile, List<String> recordings, List<String> sample) {
        return new Family(profile.name(), ResponsesCodec.of(profile),
                path -> path.endsWith(".sse") ? Flux.fromIterable(Recorded.sse(path)).transform(ResponsesCodec.streamDecoder(profile))
                        : ResponsesCodec.decodeResponse(profile, Recorded.bytes(path)),
                recordings, sample, new Origin(profile.name(), "responses", "api.openai.com/v1", "99aa88bb77cc66dd"));
    }

    private static Family chat(CompatProfile profile, List<String> recordings, List<String> sample) {
        return new Family(profile.name(), ChatCompletionsCodec.of(profile),
                path -> path.endsWith(".sse")
                        ? Flux.fromIterable(Recorded.sse(path)).transform(ChatCompletionsCodec.streamDecoder(profile))
                        : ChatCompletionsCodec.decodeCompletion(profile, Recorded.bytes(path)),
                recordings, sample, new Origin(profile.name(), "chat-completions", "openrouter.ai/api/v1", "5566778899aabbcc"));
    }

    @SafeVarargs
    private static List<String> concat(List<String>... lists) {
        List<String> out = new ArrayList<>();
        for (List<String> l : lists) {
            out.addAll(l);
        }
        return out;
    }

    /** Stamps every sealed part of a turn with a provenance: made at the origin, block = its index, finished. */
    static AssistantMessage stamp(AssistantMessage turn, Origin origin) {
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < turn.parts().size(); i++) {
            Part p = turn.parts().get(i);
            parts.add(p.seals().isEmpty() ? p : p.withSeals(p.seals().withProvenance(
                    new Provenance(origin, turn.model(), i, true))));
        }
        return new AssistantMessage(parts, turn.provider(), turn.model(), turn.finishReason(), turn.rawFinishReason(), turn.usage());
    }

    /** The indices of a turn's parts that carry opaque state. */
    static List<Integer> sealedParts(AssistantMessage turn) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < turn.parts().size(); i++) {
            if (!turn.parts().get(i).seals().isEmpty()) {
                out.add(i);
            }
        }
        return out;
    }
}
