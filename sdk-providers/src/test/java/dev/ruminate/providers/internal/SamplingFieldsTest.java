package dev.ruminate.providers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.request.SamplingOptions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Six APIs name the sampling options differently and take different subsets; the one writer must
 * write exactly the fields an API takes, in one order, and leave out those an extra replaces.
 */
class SamplingFieldsTest {

    private static final SamplingOptions ALL = new SamplingOptions(0.5, 0.9, 100, List.of("END", "STOP"), 7L);
    private static final SamplingFields FIVE = new SamplingFields("t", "p", "max", "stop", "seed");

    @Test
    void writesEverySetOptionInOneOrder() {
        assertThat(Json.inObject(g -> FIVE.write(g, ALL, Set.of())))
                .isEqualTo("{\"t\":0.5,\"p\":0.9,\"max\":100,\"stop\":[\"END\",\"STOP\"],\"seed\":7}");
    }

    @Test
    void leavesOutWhatTheApiDoesNotTakeAndWhatIsNotSet() {
        SamplingFields noLimitNoSeed = new SamplingFields("t", "p", null, "stop", null);
        assertThat(Json.inObject(g -> noLimitNoSeed.write(g, ALL, Set.of())))
                .isEqualTo("{\"t\":0.5,\"p\":0.9,\"stop\":[\"END\",\"STOP\"]}");
        assertThat(Json.inObject(g -> FIVE.write(g, SamplingOptions.DEFAULT, Set.of()))).isEqualTo("{}");
    }

    @Test
    void leavesOutTheFieldsTheExtrasReplace() {
        assertThat(Json.inObject(g -> FIVE.write(g, ALL, Set.of("p", "stop"))))
                .isEqualTo("{\"t\":0.5,\"max\":100,\"seed\":7}");
    }

    @Test
    void takesTheOutputLimitFieldGivenLater() {
        assertThat(Json.inObject(g -> FIVE.withMaxOutputTokens("max_completion_tokens").write(g, ALL, Set.of("max"))))
                .contains("\"max_completion_tokens\":100");
    }

    @Test
    void anySetCountsOnlyTheOptionsTheApiTakes() {
        SamplingOptions seedOnly = new SamplingOptions(null, null, null, List.of(), 7L);
        assertThat(FIVE.anySet(seedOnly)).isTrue();
        assertThat(new SamplingFields("t", "p", "max", "stop", null).anySet(seedOnly)).isFalse();
        assertThat(FIVE.anySet(SamplingOptions.DEFAULT)).isFalse();
    }
}
