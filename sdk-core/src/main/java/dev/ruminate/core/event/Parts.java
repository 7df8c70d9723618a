package dev.ruminate.core.event;

/** Validation shared by the events that name a part. */
final class Parts {

    private Parts() {
    }

    static void requireIndex(int part) {
        if (part < 0) {
            throw new IllegalArgumentException("part index must be >= 0, was " + part);
        }
    }
}
