package dev.ruminate.core.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ruminate.core.loop.LoopEvent.StepCompleted;
import dev.ruminate.core.loop.LoopEvent.ToolFinished;
import dev.ruminate.core.loop.ScriptedProvider.Turn;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.request.ToolDefinition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Arguments are checked against the tool's JSON schema; violations go back with where and why. */
class ArgumentSchemaTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ToolDefinition WEATHER = new ToolDefinition("weather", "the forecast", """
            {"type":"object",
             "properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1}},
             "required":["city"],
             "additionalProperties":false}""");

    private final List<String> ran = new CopyOnWriteArrayList<>();

    private ToolLoop loop(ScriptedProvider provider, LoopOptions options) {
        return ToolLoop.builder(provider)
                .tool(WEATHER, call -> Mono.fromSupplier(() -> {
                    ran.add(call.arguments());
                    return "sunny";
                }))
                .options(options).build();
    }

    private static ChatRequest ask() {
        return ChatRequest.builder("m").user("weather?").build();
    }

    @Test
    void argumentsAgainstTheSchemaGoBackWithEachViolationSoTheModelCanCorrectThem() {
        ScriptedProvider provider = ScriptedProvider.of(
                Turn.create().toolCall("c1", "weather", "{\"days\":0,\"units\":\"C\"}").toolCall("c2", "weather", "{\"city\":\"Rome\",\"days\":3}"),
                Turn.create().text("ok"));

        List<LoopEvent> events = loop(provider, LoopOptions.DEFAULTS).run(ask()).collectList().block(WAIT);

        assertThat(ToolLoop.validatesSchemas()).isTrue();
        assertThat(ran).containsExactly("{\"city\":\"Rome\",\"days\":3}");
        List<ToolResultMessage> results = events.stream().filter(e -> e instanceof StepCompleted)
                .map(e -> (StepCompleted) e).findFirst().orElseThrow().toolResults();
        ToolResultMessage rejected = results.get(0);
        assertThat(rejected.error()).isTrue();
        assertThat(rejected.content()).startsWith("the arguments of weather do not satisfy its JSON schema:\n")
                .contains("\n/days: must have a minimum value of 1\n")
                .contains("\nrequired property 'city' not found\n")
                .contains("\nproperty 'units' is not defined in the schema");
        assertThat(results.get(1)).isEqualTo(new ToolResultMessage("c2", "weather", "sunny", false));
        assertThat(events).filteredOn(e -> e instanceof ToolFinished f && f.error() != null).singleElement()
                .satisfies(e -> assertThat(((ToolFinished) e).error().kind()).isEqualTo(ToolError.Kind.INVALID_ARGUMENTS));
        assertThat(provider.requests.get(1).messages()).contains(rejected);
    }

    @Test
    void underFailLoopArgumentsAgainstTheSchemaFailTheLoop() {
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "weather", "{\"city\":7}"), Turn.create().text("x"));

        StepVerifier.create(loop(provider, LoopOptions.builder().errorPolicy(ToolErrorPolicy.FAIL_LOOP).build()).run(ask()))
                .thenConsumeWhile(e -> true)
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ToolLoopException.class)
                        .hasMessageContaining("do not satisfy its JSON schema").hasMessageContaining("city")
                        .extracting(x -> ((ToolLoopException) x).toolError().kind()).isEqualTo(ToolError.Kind.INVALID_ARGUMENTS))
                .verify(WAIT);
        assertThat(ran).isEmpty();
    }

    @Test
    void validationCanBeTurnedOff() {
        ScriptedProvider provider = ScriptedProvider.of(Turn.create().toolCall("c1", "weather", "{\"city\":7}"), Turn.create().text("x"));

        loop(provider, LoopOptions.builder().validateArguments(false).build()).run(ask()).blockLast(WAIT);

        assertThat(ran).containsExactly("{\"city\":7}");
    }

    @Test
    void aSchemaThatCannotBeCompiledFailsTheBuild() {
        ToolLoop.Builder builder = ToolLoop.builder(ScriptedProvider.of(Turn.create().text("x")))
                .tool(new ToolDefinition("broken", "a broken schema", "{\"$ref\":\"#/$defs/missing\"}"), call -> Mono.just(""));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JSON schema of the tool broken");
    }
}
