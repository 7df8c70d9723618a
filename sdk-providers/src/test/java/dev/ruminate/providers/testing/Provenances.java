package dev.ruminate.providers.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.reduce.ChatResult;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Checks the provenance the reducer records on sealed parts, then takes it off, so that a message
 * reduced from the provider client (whose events carry the pipeline's origin) compares with one
 * reduced from the bare codec (whose events carry none) on everything else.
 */
public final class Provenances {

    private Provenances() {
    }

    /**
     * Checks a completed result's provenance (every sealed part has one, with one origin, its index
     * as block, finished; unsealed parts have none) and returns the result without it. A result
     * without any provenance (reduced from the codec) is returned as it is.
     */
    public static ChatResult checked(ChatResult r) {
        return new ChatResult(checked(r.message(), true), r.reasoningCheck());
    }

    /**
     * Checks a message's provenance as {@link #checked(ChatResult)} does, except that in a message
     * that did not complete (a partial) a part may be unfinished; returns it without provenance.
     */
    public static @Nullable AssistantMessage checkedPartial(@Nullable AssistantMessage m) {
        return m == null ? null : checked(m, false);
    }

    private static AssistantMessage checked(AssistantMessage m, boolean completed) {
        List<Part> parts = m.parts();
        Origin origin = null;
        boolean any = parts.stream().anyMatch(p -> p.seals().provenance() != null);
        if (!any) {
            return m;
        }
        for (int i = 0; i < parts.size(); i++) {
            Seals s = parts.get(i).seals();
            Provenance p = s.provenance();
            if (s.isEmpty()) {
                assertThat(p).as("part %d has no state, so no provenance", i).isNull();
                continue;
            }
            assertThat(p).as("sealed part %d of %s has a provenance", i, m).isNotNull();
            assertThat(p.block()).as("provenance block of part %d", i).isEqualTo(i);
            assertThat(p.model()).as("provenance model of part %d", i).isEqualTo(m.model());
            if (completed) {
                assertThat(p.finished()).as("part %d of a completed response is finished", i).isTrue();
            }
            if (origin == null) {
                origin = p.origin();
            }
            assertThat(p.origin()).as("one origin for every part").isEqualTo(origin);
            assertThat(p.origin().provider()).isEqualTo(m.provider());
        }
        return stripped(m);
    }

    /**
     * Checks that the events begin with a {@link ResponseStarted} and that every one carries the
     * origin, and returns them with the origin taken off, as the bare codec gives them.
     */
    public static List<ChatEvent> checkedEvents(List<ChatEvent> events, Origin origin) {
        assertThat(events).as("events").isNotEmpty();
        assertThat(events.get(0)).as("the first event").isInstanceOf(ResponseStarted.class);
        List<ChatEvent> out = new ArrayList<>(events.size());
        for (ChatEvent e : events) {
            if (e instanceof ResponseStarted s) {
                assertThat(s.origin()).as("the origin of %s", s).isEqualTo(origin);
                out.add(new ResponseStarted(s.provider(), s.model(), s.responseId()));
            } else {
                out.add(e);
            }
        }
        return out;
    }

    /** Returns the message with every part's provenance taken off. */
    public static AssistantMessage stripped(AssistantMessage m) {
        List<Part> out = new ArrayList<>(m.parts().size());
        for (Part p : m.parts()) {
            out.add(p.withSeals(p.seals().withProvenance(null)));
        }
        return new AssistantMessage(out, m.provider(), m.model(), m.finishReason(), m.rawFinishReason(), m.usage());
    }

}
