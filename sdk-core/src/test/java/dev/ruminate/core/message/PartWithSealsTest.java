package dev.ruminate.core.message;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.Seal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Part#withSeals}: every part type keeps all but its seals, and is returned as is for equal seals. */
class PartWithSealsTest {

    private static final Seals OLD = new Seals("c2ln", "cmVk", "ZW5j", "rs_1", "f", null);
    private static final Seals NEW = OLD.without(Seal.Kind.SIGNATURE);

    @Test
    void everyPartTypeChangesItsSealsAlone() {
        List<Part> parts = List.of(
                new ReasoningPart("thought", true, "reasoning_content", OLD),
                new TextPart("answer", OLD),
                new ToolCallPart("c1", "f", "{\"a\":1}", false, OLD),
                new ServerToolPart("web_search", "s1", "search", "{\"q\":1}", OLD));

        assertThat(parts).extracting(p -> p.withSeals(NEW)).containsExactly(
                new ReasoningPart("thought", true, "reasoning_content", NEW),
                new TextPart("answer", NEW),
                new ToolCallPart("c1", "f", "{\"a\":1}", false, NEW),
                new ServerToolPart("web_search", "s1", "search", "{\"q\":1}", NEW));
        for (Part p : parts) {
            assertThat(p.withSeals(new Seals("c2ln", "cmVk", "ZW5j", "rs_1", "f", null))).isSameAs(p);
        }
    }
}
