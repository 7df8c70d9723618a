package dev.ruminate.transport.wire;

/**
 * Bounds on what a decoder buffers, so that a hostile or broken peer cannot exhaust memory.
 * Exceeding one ends the stream with a {@link dev.ruminate.core.error.ProtocolException} of reason
 * {@code LINE_TOO_LONG}.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param maxLineBytes the longest line accepted, line end excluded
 * @param maxEventBytes the largest SSE event (all its data lines) accepted
 * @since 0.1
 */
public record WireLimits(int maxLineBytes, int maxEventBytes) {

    /** 16 MiB per line and per event: large enough for inline images and long encrypted blobs. */
    public static final WireLimits DEFAULT = new WireLimits(16 << 20, 16 << 20);

    /**
     * Creates the value, checking its components.
     *
     * @param maxLineBytes see {@link #maxLineBytes()}
     * @param maxEventBytes see {@link #maxEventBytes()}
     */
    public WireLimits {
        if (maxLineBytes <= 0 || maxEventBytes <= 0) {
            throw new IllegalArgumentException("limits must be > 0, were " + maxLineBytes + " and " + maxEventBytes);
        }
    }
}
