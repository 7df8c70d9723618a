package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.providers.testing.PlanCheck;
import dev.ruminate.providers.testing.Provenances;
import dev.ruminate.providers.testing.Seeds;
import dev.ruminate.testkit.ChunkPlan;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The generic {@code openai-compatible} profile reads every reasoning carrier: a recorded stream
 * whose server sends the same text in a plain field ({@code reasoning}, {@code reasoning_content})
 * and in {@code reasoning_details} (Vercel AI Gateway, Kimi on Avian, OpenRouter, Snowflake), cut
 * at random chunk boundaries and decoded through the generic profile over HTTP, reduces to the
 * message its own profile gives: each text once, signatures and encrypted details kept as seals.
 * The generic profile still sends none of it back.
 */
@ExtendWith(NettyLeakCheck.class)
class GenericProfileCarriersProperties {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The recorded Chat Completions streams that carry {@code reasoning_details}. */
    private static final List<String> STREAMS = List.of(
            "openai-compatible/fantasy-vercel-gateway-gpt5-reasoning-details-stream.turn1.sse",
            "openai-compatible/fantasy-vercel-gateway-gemini3-reasoning-details-stream.turn1.sse",
            "openai-compatible/fantasy-avian-kimi-k25-parallel-tools-stream.turn1.sse",
            "openai-compatible/pydantic-snowflake-claude-thinking-stream.sse",
            "openrouter/rubyllm-openrouter-claude-reasoning-details-tool-stream.turn1.sse",
            "openrouter/pydantic-openrouter-claude-reasoning-details-stream.sse",
            "openrouter/pydantic-openrouter-o3-reasoning-stream.sse");

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static LongStream seeds() {
        return Seeds.of(4 * STREAMS.size());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void theGenericProfileReducesEveryCarrierOnceWithItsSeals(long seed) {
        Random random = Seeds.random(seed);
        String path = STREAMS.get(Math.floorMod(seed, STREAMS.size()));
        byte[] body = Fixtures.bytes(path);
        ChunkPlan plan = ChunkPlan.random(random.nextLong(), 1 + random.nextInt(Math.max(2, body.length / 400)));

        AssistantMessage generic = stream(Profiles.OPENAI_COMPATIBLE,
                EmulatorResponse.replay(body, "text/event-stream").chunked(plan));
        AssistantMessage own = stream(Recordings.profile(path), EmulatorResponse.replay(body, "text/event-stream"));

        // the two clients are two providers (two origins): compare what was read, then the provenance on its own
        assertThat(Provenances.stripped(generic).parts()).as("%s cut by %s", path, plan)
                .isEqualTo(Provenances.stripped(own).parts());
        generic.parts().stream().map(Part::seals).filter(x -> !x.isEmpty()).forEach(x -> assertThat(
                Objects.requireNonNull(x.provenance()).origin().provider()).isEqualTo(Profiles.OPENAI_COMPATIBLE.name()));
        Carried carried = carried(body);
        // the text once: as the plain fields carry it, or as the details do (an o3 stream carries none)
        List<String> once = java.util.stream.Stream.of(carried.plain(), carried.details()).filter(t -> !t.isEmpty()).toList();
        assertThat(generic.reasoning()).as("%s: each text once", path).isIn(once.isEmpty() ? List.of("") : once);
        assertThat(seals(generic, Seal.Kind.SIGNATURE)).as("%s: signatures kept", path).isEqualTo(carried.signatures());
        assertThat(seals(generic, Seal.Kind.ENCRYPTED)).as("%s: encrypted details kept", path).isEqualTo(carried.encrypted() > 0);
        String next = new String(ChatCompletionsCodec.of(Profiles.OPENAI_COMPATIBLE).encode(
                PlanCheck.nextTurn("m", own(generic)), false), StandardCharsets.UTF_8);
        assertThat(next).as("the generic profile sends nothing back it was not told to")
                .doesNotContain("reasoning_details").doesNotContain("\"reasoning_content\"").doesNotContain("\"reasoning\"");
        generic.parts().forEach(part -> List.of(Seal.Kind.SIGNATURE, Seal.Kind.ENCRYPTED).forEach(kind -> {
            String value = part.seals().get(kind);
            if (value != null) {
                assertThat(next).doesNotContain(value);
            }
        }));
    }

    private static AssistantMessage stream(CompatProfile profile, EmulatorResponse response) {
        emulator.enqueue(response);
        return Emulated.reduce(Emulated.provider(emulator, profile).build().stream(Emulated.REQUEST)).ok().message();
    }

    private static boolean seals(AssistantMessage m, Seal.Kind kind) {
        return m.parts().stream().map(Part::seals).anyMatch(s -> s.get(kind) != null);
    }

    private static AssistantMessage own(AssistantMessage m) {
        return new AssistantMessage(m.parts(), null, m.model(), m.finishReason(), m.rawFinishReason(), m.usage());
    }

    /**
     * What the raw stream carries, read independently of the decoder: the text of the plain fields
     * (the first present per delta), the text of the details, and whether signatures and encrypted
     * data appear.
     */
    private record Carried(String plain, String details, boolean signatures, int encrypted) {
    }

    private static Carried carried(byte[] body) {
        StringBuilder plain = new StringBuilder();
        StringBuilder details = new StringBuilder();
        boolean signatures = false;
        int encrypted = 0;
        for (String line : new String(body, StandardCharsets.UTF_8).split("\n")) {
            String data = line.startsWith("data:") ? line.substring(5).strip() : "";
            if (data.isEmpty() || data.equals("[DONE]")) {
                continue;
            }
            JsonNode delta = JSON.readTree(data).path("choices").path(0).path("delta");
            for (String field : List.of("reasoning_content", "reasoning", "reasoning_text")) {
                if (delta.path(field).isString() && !delta.path(field).asString().isEmpty()) {
                    plain.append(delta.path(field).asString());
                    break;
                }
            }
            for (JsonNode detail : delta.path("reasoning_details")) {
                details.append(detail.path("text").asString("")).append(detail.path("summary").asString(""));
                signatures |= !detail.path("signature").asString("").isEmpty();
                encrypted += detail.path("data").asString("").isEmpty() ? 0 : 1;
            }
        }
        return new Carried(plain.toString(), details.toString(), signatures, encrypted);
    }
}
