package dev.ruminate.providers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

class JsonReadingTest {

    @Test
    void nextIntegerPropertyVisitsTheIntegerCountsAndSkipsEverythingElse() {
        String usage = "{\"in\":3,\"ratio\":0.5,\"nested\":{\"deep\":1},\"list\":[1,2],\"none\":null,"
                + "\"name\":\"x\",\"out\":4}";
        List<String> seen = new ArrayList<>();
        try (JsonParser p = JsonWriting.JSON.createParser(ObjectReadContext.empty(), usage + " {\"after\":1}")) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            String name;
            while ((name = JsonReading.nextIntegerProperty(p)) != null) {
                seen.add(name + "=" + p.getLongValue());
            }
            assertThat(p.currentToken()).isEqualTo(JsonToken.END_OBJECT);
            // the parser stopped at the end of this object, not of the next one
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
        }
        assertThat(seen).containsExactly("in=3", "out=4");
    }

    @Test
    void nextPropertyNamedReadsTheWholeObjectAndTheLastOfRepeatedNamesWins() {
        String details = "{\"reasoning_tokens\":1,\"other\":{\"reasoning_tokens\":9},\"reasoning_tokens\":2,\"x\":[3]}";
        List<Long> seen = new ArrayList<>();
        try (JsonParser p = JsonWriting.JSON.createParser(ObjectReadContext.empty(), details + " {}")) {
            p.nextToken();
            while (JsonReading.nextPropertyNamed(p, "reasoning_tokens")) {
                seen.add(JsonReading.number(p, p.currentToken()));
            }
            assertThat(p.currentToken()).isEqualTo(JsonToken.END_OBJECT);
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
        }
        assertThat(seen).containsExactly(1L, 2L);
    }
}
