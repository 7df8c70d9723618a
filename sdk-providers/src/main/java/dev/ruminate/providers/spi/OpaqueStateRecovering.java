package dev.ruminate.providers.spi;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.history.PreparedHistory;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.providers.OpaqueStateRecovery;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The pipeline's recovery step (see {@link OpaqueStateRecovery}): on a strippable
 * {@link OpaqueStateRejectedException} before any event, strips the refused opaque state from the
 * prepared request, emits a {@link Warning} and makes the call once more. Provider-neutral: it
 * removes {@link Seals} values and leaves the family's encoder to apply its rule for unsigned
 * reasoning. Stateless; each subscription tracks its own delivery.
 */
final class OpaqueStateRecovering {

    /** The opaque values a recovery removes; the format name and the provenance are descriptions, not state. */
    private static final List<Seal.Kind> STRIPPED = List.of(Seal.Kind.SIGNATURE, Seal.Kind.REDACTED, Seal.Kind.ENCRYPTED,
            Seal.Kind.ITEM_ID);

    private OpaqueStateRecovering() {
    }

    /** A stripped request and the warning that reports it. */
    record Stripped(ChatRequest request, Warning warning) {
    }

    /**
     * Runs a call with the recovery. The warning and a rejection that ends the call name the turn
     * and part as the caller gave them ({@link PreparedHistory#originalTurn},
     * {@link PreparedHistory#originalPart}), not as prepared: History may have dropped turns or parts
     * before them.
     *
     * @param mode the recovery configured
     * @param provider the provider's name, for a rejection's message
     * @param prepared the prepared request and its map back to the conversation as given
     * @param attempt makes one guarded, classified call of a prepared request
     * @return the events: the first call's, or a warning and the retried call's
     */
    static Flux<ChatEvent> apply(OpaqueStateRecovery mode, String provider, PreparedHistory prepared,
                                 Function<ChatRequest, Flux<ChatEvent>> attempt) {
        Flux<ChatEvent> first = attempt.apply(prepared.request());
        if (mode == OpaqueStateRecovery.OFF) {
            return first.onErrorMap(OpaqueStateRejectedException.class, e -> asGiven(e, provider, prepared));
        }
        return Flux.defer(() -> {
            AtomicBoolean delivered = new AtomicBoolean();
            // warnings are the SDK's own words, not the response: after one, a retry still duplicates nothing
            return first.doOnNext(e -> {
                        if (!(e instanceof Warning)) {
                            delivered.set(true);
                        }
                    })
                    .onErrorResume(OpaqueStateRejectedException.class, rejected -> {
                        // after an event a retry would duplicate output; an unstrippable refusal would repeat
                        Stripped stripped = delivered.get() || !rejected.reason().strippable() ? null
                                : strip(prepared, rejected);
                        if (stripped == null) {
                            return Flux.error(rejected);
                        }
                        return Flux.concat(Mono.just(stripped.warning()), attempt.apply(stripped.request())
                                .onErrorMap(second -> {
                                    if (second != rejected) {
                                        second.addSuppressed(rejected);
                                    }
                                    return second;
                                }));
                    });
        }).onErrorMap(OpaqueStateRejectedException.class, e -> asGiven(e, provider, prepared));
    }

    /**
     * Returns a rejection whose turn and part name the conversation as given (the same exception
     * when they already do, or are unresolved); rejections it suppresses are mapped too.
     */
    static OpaqueStateRejectedException asGiven(OpaqueStateRejectedException e, String provider, PreparedHistory prepared) {
        Integer turn = e.turn();
        if (turn == null) {
            return e;
        }
        int givenTurn = prepared.originalTurn(turn);
        Integer part = e.part();
        Integer givenPart = part == null ? null : prepared.originalPart(turn, part);
        if (givenTurn == turn && Objects.equals(givenPart, part)) {
            return e;
        }
        ProviderHttpException original = e.getCause() instanceof ProviderHttpException p ? p : e;
        OpaqueStateRejectedException mapped = new OpaqueStateRejectedException(original, provider, e.reason(),
                e.location(), givenTurn, givenPart);
        for (Throwable suppressed : e.getSuppressed()) {
            mapped.addSuppressed(suppressed instanceof OpaqueStateRejectedException r ? asGiven(r, provider, prepared)
                    : suppressed);
        }
        return mapped;
    }

    /**
     * Strips the refused state: that part's values when the rejection names a part (and every
     * part of the same Responses item), else every assistant message's. The warning names the turn
     * and part as the caller gave them.
     *
     * @param history the prepared request and its map back to the conversation as given
     * @param rejected the rejection, its turn and part in the prepared request
     * @return the stripped request and its warning, or null when there was nothing to strip
     */
    static @Nullable Stripped strip(PreparedHistory history, OpaqueStateRejectedException rejected) {
        ChatRequest prepared = history.request();
        List<Message> messages = prepared.messages();
        int turn = rejected.turn() == null ? -1 : rejected.turn();
        int part = rejected.part() == null ? -1 : rejected.part();
        boolean located = turn >= 0 && part >= 0 && turn < messages.size()
                && messages.get(turn) instanceof AssistantMessage a && part < a.parts().size();
        Set<Seal.Kind> removed = EnumSet.noneOf(Seal.Kind.class);
        List<Message> out = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            if (!(m instanceof AssistantMessage a) || (located && i != turn)) {
                out.add(m);
                continue;
            }
            String item = located ? a.parts().get(part).seals().itemId() : null;
            List<Part> parts = new ArrayList<>(a.parts().size());
            for (int j = 0; j < a.parts().size(); j++) {
                Part p = a.parts().get(j);
                boolean target = !located || j == part || (item != null && item.equals(p.seals().itemId()));
                parts.add(target ? stripped(p, removed) : p);
            }
            out.add(new AssistantMessage(parts, a.provider(), a.model(), a.finishReason(), a.rawFinishReason(), a.usage()));
        }
        if (removed.isEmpty()) {
            return null;
        }
        ChatRequest request = prepared.withMessages(out);
        int givenTurn = located ? history.originalTurn(turn) : -1;
        int givenPart = located ? history.originalPart(turn, part) : -1;
        String where = located ? "message " + givenTurn + ", part " + givenPart : "every assistant message";
        String message = "the provider rejected the opaque reasoning state sent back (" + rejected.reason()
                + (rejected.location() != null ? " at " + rejected.location() : "") + "); retried once without the "
                + names(removed) + " of " + where;
        return new Stripped(request, new Warning(Warning.OPAQUE_STATE_RECOVERED, message,
                located ? Integer.valueOf(givenTurn) : null, located ? Integer.valueOf(givenPart) : null));
    }

    private static Part stripped(Part p, Set<Seal.Kind> removed) {
        Seals seals = p.seals();
        for (Seal.Kind kind : STRIPPED) {
            if (seals.get(kind) != null) {
                removed.add(kind);
                seals = seals.without(kind);
            }
        }
        return p.withSeals(seals);
    }

    private static String names(Set<Seal.Kind> kinds) {
        List<String> names = new ArrayList<>();
        for (Seal.Kind kind : kinds) {
            names.add(switch (kind) {
                case SIGNATURE -> "signature";
                case REDACTED -> "redacted data";
                case ENCRYPTED -> "encrypted content";
                case ITEM_ID -> "item id";
                case FORMAT -> kind.name().toLowerCase(Locale.ROOT);
            });
        }
        return String.join(", ", names);
    }
}
