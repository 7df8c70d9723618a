package dev.ruminate.core.loop;

import java.util.Objects;

/**
 * A human's decision on a tool call that requires approval: run it, or answer the model with a
 * reason instead.
 *
 * <p>Sealed, so a {@code switch} over it is checked by the compiler. Values are immutable and
 * thread-safe; components are non-null.
 *
 * @since 0.1
 */
public sealed interface Approval {

    /**
     * Returns the decision that lets the call run.
     *
     * @return the approval
     */
    static Approval approve() {
        return Approved.INSTANCE;
    }

    /**
     * Returns a decision that keeps the call from running; the reason goes back to the model as the
     * call's result (flagged as an error), so it can change its plan.
     *
     * @param reason why the call was denied, in words the model can act on; it is sent to the
     *     model, so it must hold no secret
     * @return the denial
     */
    static Approval deny(String reason) {
        return new Denied(reason);
    }

    /**
     * The call may run.
     *
     * @since 0.1
     */
    record Approved() implements Approval {
        private static final Approved INSTANCE = new Approved();
    }

    /**
     * The call must not run.
     *
     * @param reason why, as sent to the model
     * @since 0.1
     */
    record Denied(String reason) implements Approval {

        /**
         * Creates the value, checking its component.
         *
         * @param reason see {@link #reason()}
         */
        public Denied {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
