package dev.ruminate.providers.chatcompletions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.error.ProviderStreamException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.testkit.EmulatorResponse;
import dev.ruminate.testkit.NettyLeakCheck;
import dev.ruminate.testkit.ProviderEmulator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An {@code error} object inside a chunk ends the stream with a typed
 * {@link ProviderStreamException} on every profile, whether the chunk still has {@code choices}
 * (whose delta is not taken: the server said the response failed) or holds only the error; the
 * exception carries the provider's message and the message reduced before it.
 */
@ExtendWith(NettyLeakCheck.class)
class ChatCompletionsInBandErrorTest {

    private static final String MESSAGE = "Upstream overloaded, retry in 7 seconds";
    private static final String BEFORE = "The answer so far, ";
    private static final String REASONING = "Weighing the options";

    private static ProviderEmulator emulator;

    @BeforeAll
    static void start() {
        emulator = ProviderEmulator.start();
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    static Stream<Arguments> profilesAndErrorChunks() {
        String error = "\"error\":{\"message\":\"" + MESSAGE + "\",\"type\":\"server_error\",\"code\":503}";
        String withChoices = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"never shown\"},\"finish_reason\":\"error\"}]," + error + "}";
        String errorFirst = "{" + error + ",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"never shown\"},"
                + "\"finish_reason\":null}]}";
        String plain = "{" + error + "}";
        return Profiles.names().stream().flatMap(name -> Stream.of(
                Arguments.of(name, "with choices", withChoices),
                Arguments.of(name, "error before choices", errorFirst),
                Arguments.of(name, "plain", plain)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("profilesAndErrorChunks")
    void anInBandErrorEndsTheStreamTypedWithItsMessageAndThePartialMessage(String name, String form, String errorChunk) {
        CompatProfile profile = Profiles.byName(name);
        // the reasoning rides in every plain field the profile reads, so each profile has some
        StringBuilder delta = new StringBuilder("\"content\":\"" + BEFORE + "\"");
        for (String field : profile.reasoningFields()) {
            delta.insert(0, "\"" + field + "\":\"" + REASONING + "\",");
        }
        String sse = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{" + delta.toString().replaceFirst("\"content\"", "\"role\":\"assistant\",\"content\"")
                + "},\"finish_reason\":null}]}\n\n"
                + "data: " + errorChunk + "\n\n"
                + "data: [DONE]\n\n";
        emulator.enqueue(EmulatorResponse.sse(sse));

        RuminateException error = Emulated.reduce(Emulated.provider(emulator, profile).build().stream(Emulated.REQUEST))
                .failed();

        assertThat(error).isInstanceOf(ProviderStreamException.class).hasMessageContaining(MESSAGE);
        AssistantMessage partial = error.partial();
        assertThat(partial).as("the message reduced before the error").isNotNull();
        assertThat(partial.text()).isEqualTo(BEFORE);
        assertThat(partial.parts().stream().filter(ReasoningPart.class::isInstance).map(p -> ((ReasoningPart) p).text()))
                .containsExactly(profile.reasoningFields().isEmpty() ? new String[0] : new String[] {REASONING});
    }

    static Stream<String> profileNames() {
        return Profiles.names().stream();
    }

    /** A whole (non-streaming) body holding an error beside its choices fails the same way. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("profileNames")
    void aWholeBodyWithAnErrorBesideItsChoicesFailsTyped(String name) {
        String body = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"never shown\"},\"finish_reason\":\"stop\"}],"
                + "\"error\":{\"message\":\"" + MESSAGE + "\",\"code\":503}}";

        RuminateException error = Emulated.codecCompletion(Profiles.byName(name),
                body.getBytes(java.nio.charset.StandardCharsets.UTF_8)).failed();

        assertThat(error).isInstanceOf(ProviderStreamException.class).hasMessageContaining(MESSAGE);
    }
}
