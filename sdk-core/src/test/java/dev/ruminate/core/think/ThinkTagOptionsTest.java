package dev.ruminate.core.think;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThinkTagOptionsTest {

    @Test
    void defaultsToThinkTagsStartingOutside() {
        assertThat(ThinkTagOptions.DEFAULT).isEqualTo(new ThinkTagOptions("<think>", "</think>", false));
    }

    @Test
    void startingInsideUsesTheDefaultTags() {
        assertThat(ThinkTagOptions.startingInside()).isEqualTo(new ThinkTagOptions("<think>", "</think>", true));
    }

    @Test
    void rejectsEmptyTags() {
        assertThatThrownBy(() -> new ThinkTagOptions("", "</think>", false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> new ThinkTagOptions("<think>", "", false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
    }

    @Test
    void rejectsEqualTags() {
        assertThatThrownBy(() -> new ThinkTagOptions("<t>", "<t>", false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("<t>");
    }

    @Test
    void rejectsNullTags() {
        assertThatThrownBy(() -> new ThinkTagOptions(null, "</think>", false))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("openTag");
        assertThatThrownBy(() -> new ThinkTagOptions("<think>", null, false))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("closeTag");
    }
}
