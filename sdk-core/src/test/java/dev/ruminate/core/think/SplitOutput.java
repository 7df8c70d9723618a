package dev.ruminate.core.think;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ToolCallDelta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Reads the operator's output as parts, and checks the part rules every output must keep. */
final class SplitOutput {

    /** One output part: what kind of deltas it got and their text joined. */
    record OutPart(String kind, String text) {
        static OutPart reasoning(String text) {
            return new OutPart("reasoning", text);
        }

        static OutPart text(String text) {
            return new OutPart("text", text);
        }
    }

    private SplitOutput() {
    }

    /** Returns the delta-carrying parts in index order, after checking {@link #assertWellFormed}. */
    static List<OutPart> parts(List<ChatEvent> events) {
        assertWellFormed(events);
        List<StringBuilder> texts = new ArrayList<>();
        List<@Nullable String> kinds = new ArrayList<>();
        for (ChatEvent event : events) {
            @Nullable String kind = kindOf(event);
            if (kind == null) {
                continue;
            }
            int part = partOf(event);
            while (texts.size() <= part) {
                texts.add(new StringBuilder());
                kinds.add(null);
            }
            kinds.set(part, kind);
            texts.get(part).append(textOf(event));
        }
        List<OutPart> parts = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String kind = kinds.get(i);
            parts.add(new OutPart(kind == null ? "none" : kind, texts.get(i).toString()));
        }
        return parts;
    }

    static String reasoning(List<ChatEvent> events) {
        StringBuilder text = new StringBuilder();
        for (ChatEvent event : events) {
            if (event instanceof ReasoningDelta delta) {
                text.append(delta.text());
            }
        }
        return text.toString();
    }

    static String content(List<ChatEvent> events) {
        StringBuilder text = new StringBuilder();
        for (ChatEvent event : events) {
            if (event instanceof ContentDelta delta) {
                text.append(delta.text());
            }
        }
        return text.toString();
    }

    /**
     * Checks that part indices are dense, zero-based and first seen in increasing order; that
     * each part has one kind of delta; that no event names a part after its {@link PartEnded}
     * and no part is ended twice; and that tag-split deltas are neither empty nor summaries.
     */
    static void assertWellFormed(List<ChatEvent> events) {
        Map<Integer, String> kinds = new HashMap<>();
        Set<Integer> ended = new HashSet<>();
        int seen = 0;
        for (ChatEvent event : events) {
            int part = partOf(event);
            if (part < 0) {
                continue;
            }
            assertThat(ended).as("no event after PartEnded(%d): %s", part, event).doesNotContain(part);
            if (event instanceof PartEnded) {
                assertThat(part).as("PartEnded names a known part").isLessThan(seen);
                ended.add(part);
                continue;
            }
            if (part == seen) {
                seen++;
            }
            assertThat(part).as("parts are dense and in order of first appearance: %s", event).isLessThan(seen);
            String kind = kindOf(event);
            if (kind != null) {
                String before = kinds.putIfAbsent(part, kind);
                assertThat(before == null ? kind : before).as("part %d has one kind", part).isEqualTo(kind);
            }
            if (event instanceof ReasoningDelta delta && delta.source().equals(ThinkTagSplitter.SOURCE)) {
                assertThat(delta.text()).isNotEmpty();
                assertThat(delta.summary()).isFalse();
            }
            if (event instanceof ContentDelta delta) {
                assertThat(delta.text()).isNotEmpty();
            }
        }
    }

    private static int partOf(ChatEvent event) {
        if (event instanceof ContentDelta e) {
            return e.part();
        } else if (event instanceof ReasoningDelta e) {
            return e.part();
        } else if (event instanceof ToolCallDelta e) {
            return e.part();
        } else if (event instanceof Seal e) {
            return e.part();
        } else if (event instanceof ReasoningFinal e) {
            return e.part();
        } else if (event instanceof PartEnded e) {
            return e.part();
        }
        return -1;
    }

    private static @Nullable String kindOf(ChatEvent event) {
        if (event instanceof ContentDelta) {
            return "text";
        } else if (event instanceof ReasoningDelta) {
            return "reasoning";
        } else if (event instanceof ToolCallDelta) {
            return "tool";
        }
        return null;
    }

    private static String textOf(ChatEvent event) {
        if (event instanceof ContentDelta e) {
            return e.text();
        } else if (event instanceof ReasoningDelta e) {
            return e.text();
        } else if (event instanceof ToolCallDelta e) {
            return e.argumentsDelta();
        }
        return "";
    }
}
