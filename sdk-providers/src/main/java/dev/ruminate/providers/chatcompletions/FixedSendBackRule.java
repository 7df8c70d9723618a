package dev.ruminate.providers.chatcompletions;

/** A {@link SendBackRule} for servers whose rule does not depend on the model. */
record FixedSendBackRule(ReasoningSendBack sendBack) implements SendBackRule {

    @Override
    public ReasoningSendBack forModel(String model) {
        return sendBack;
    }
}
