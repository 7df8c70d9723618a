package dev.ruminate.core.history;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A provider family's knowledge of its own opaque values, for the checks {@link History} makes
 * before a request is sent: whether a value is well formed, whether the family binds opaque state
 * to a model, how its model ids normalize, and what must hold across the parts of one turn.
 *
 * <p>{@link History} checks what holds for every family itself: a value from a block the stream
 * never finished is bad, and sealed parts must keep the order (and the distinct blocks) they were
 * made in. These rules add the family's own.
 *
 * <p>Every method has a lenient default (nothing is malformed, nothing binds to a model, ids
 * normalize with {@link ModelFamilies#normalize(String)}), which is {@link #LENIENT}: the rules
 * of a family that has no opaque state, or that is not known.
 *
 * <p>Implementations are immutable and thread-safe. A problem's text must never quote the value.
 *
 * @since 0.2
 */
public interface OpaqueRules {

    /** Checks nothing, binds nothing: for families without opaque state, or unknown ones. */
    OpaqueRules LENIENT = new OpaqueRules() {
        @Override
        public String toString() {
            return "OpaqueRules.LENIENT";
        }
    };

    /**
     * Tells why one opaque value is malformed for this provider.
     *
     * @param part the part that carries it (its kind and its other seals give context: an
     *     OpenRouter detail's {@code format}, say)
     * @param kind what the value is
     * @param value the value
     * @return the problem in words (never quoting the value), or null when the value is well formed
     */
    default @Nullable String problem(Part part, Seal.Kind kind, String value) {
        return null;
    }

    /**
     * Tells whether this provider binds opaque state to the model that made it, so that it must
     * not go back to a request for another model family.
     *
     * @return true when bound to the model
     */
    default boolean bindsToModel() {
        return false;
    }

    /**
     * Returns a model id's family key: two ids of one model compare equal. The default is
     * {@link ModelFamilies#normalize(String)}.
     *
     * @param model the model id
     * @return the key
     */
    default String modelFamily(String model) {
        return ModelFamilies.normalize(model);
    }

    /**
     * Checks what spans the parts of one turn (a Responses item's encrypted content paired with its
     * item id, say). Indices refer to the turn's parts as given.
     *
     * @param turn the assistant turn
     * @return the problems, empty when none
     */
    default List<Problem> problems(AssistantMessage turn) {
        return List.of();
    }

    /**
     * One problem of a turn's opaque value.
     *
     * <p>Immutable and thread-safe.
     *
     * @param part the index of the part in the turn
     * @param kind the value's kind
     * @param reason the problem in words, never quoting the value
     * @since 0.2
     */
    record Problem(int part, Seal.Kind kind, String reason) {

        /**
         * Creates the value, checking its components.
         *
         * @param part see {@link #part()}
         * @param kind see {@link #kind()}
         * @param reason see {@link #reason()}
         */
        public Problem {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
