package dev.ruminate.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Watches the emulator write one response and tells a test when the writing is blocked because
 * the client stopped reading: the emulator's side of a backpressure test.
 *
 * <pre>{@code
 * WriteProbe probe = WriteProbe.create();
 * emulator.enqueue(ChatCompletionsScript.create().content(tenMegabytes).tokensOf(64).toResponse().observedBy(probe));
 * // subscribe with a small request, take a few events, request nothing more …
 * long written = probe.blocked().block(Duration.ofSeconds(10));  // the socket stopped taking bytes
 * assertThat(written).isLessThan(probe.bodyBytes() / 10);
 * }</pre>
 *
 * <p>A response {@linkplain EmulatorResponse#observedBy(WriteProbe) observed} by a probe is written
 * in slices of {@link #SLICE_BYTES} body bytes (its chunk plan and delay are not used), each
 * flushed, and only while the connection is writable, the way a provider's server writes a stream:
 * when the client stops reading, its socket receive buffer fills, then the emulator's send buffer,
 * then Netty's outbound buffer passes its high-water mark and the channel turns unwritable. That
 * moment is {@link #blocked()}. The probe counts the response bytes (status line, headers, chunk
 * framing and body) the emulator's socket has accepted, so {@link #writtenBytes()} at that point is
 * what the client's kernel and the emulator's kernel buffer, plus what the client has read.
 *
 * <p>A probe observes one response, served once. Thread-safe: Netty's event loop updates it, a
 * test thread reads it. Nothing sleeps: the signals come from Netty's write completions and
 * {@code channelWritabilityChanged} events.
 *
 * @since 0.4
 */
public final class WriteProbe {

    /** The body bytes each write of an observed response carries, like a server's small socket writes. */
    public static final int SLICE_BYTES = 8 * 1024;

    private final AtomicLong written = new AtomicLong();
    private final Sinks.One<Long> blocked = Sinks.one();
    private final Sinks.Empty<Void> finished = Sinks.empty();
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private volatile long bodyBytes = -1;
    private volatile @Nullable Channel channel;

    private WriteProbe() {
    }

    /**
     * Creates a probe for one response.
     *
     * @return a fresh probe; pass it to {@link EmulatorResponse#observedBy(WriteProbe)}
     * @since 0.4
     */
    public static WriteProbe create() {
        return new WriteProbe();
    }

    /**
     * Returns how many response bytes (status line, headers, chunk framing and body) the
     * emulator's socket has accepted so far.
     *
     * @return the count; 0 before the response starts
     * @since 0.4
     */
    public long writtenBytes() {
        return written.get();
    }

    /**
     * Returns the length of the body being served.
     *
     * @return the body length in bytes, or -1 before the response starts
     * @since 0.4
     */
    public long bodyBytes() {
        return bodyBytes;
    }

    /**
     * Returns a signal that the emulator cannot write: the channel is unwritable (Netty's outbound
     * buffer is above its high-water mark because the socket takes no more bytes).
     *
     * <p>Subscribe once the client has stopped asking for events: the channel may turn unwritable
     * for a moment while a client that still reads falls behind, and this signal completes at the
     * first such moment after the response started. Once the client reads nothing more, the
     * channel stays unwritable, and the byte count can grow only by what the kernels still move
     * into the client's socket buffer.
     *
     * @return a {@code Mono} of {@link #writtenBytes()} at the moment the channel turned unwritable
     * @since 0.4
     */
    public Mono<Long> blocked() {
        return blocked.asMono();
    }

    /**
     * Returns a signal that the whole response was written and accepted by the socket.
     *
     * @return a {@code Mono} that completes empty when the last byte was written
     * @since 0.4
     */
    public Mono<Void> finished() {
        return finished.asMono();
    }

    /**
     * Returns a signal that the connection carrying the response closed, by either side.
     *
     * @return a {@code Mono} that completes empty when the channel closes
     * @since 0.4
     */
    public Mono<Void> closed() {
        return closed.asMono();
    }

    /**
     * Describes the probe.
     *
     * @return the bytes written and the body length
     */
    @Override
    public String toString() {
        return "WriteProbe[written=" + written.get() + ", body=" + bodyBytes + "]";
    }

    /** Starts watching the channel that serves the response (on its event loop, before the first write). */
    void attach(Channel serving, long length) {
        if (this.channel != null) {
            throw new IllegalStateException("a WriteProbe observes one response; it was served twice");
        }
        this.channel = serving;
        this.bodyBytes = length;
        serving.pipeline().addFirst("ruminate.writeProbe", new Counter());
        serving.closeFuture().addListener(done -> {
            checkBlocked(serving);
            closed.tryEmitEmpty();
        });
    }

    /** Marks the response as completely written. */
    void done() {
        finished.tryEmitEmpty();
        Channel serving = channel;
        if (serving != null && serving.isOpen() && serving.pipeline().get("ruminate.writeProbe") != null) {
            serving.pipeline().remove("ruminate.writeProbe");
        }
    }

    private void checkBlocked(Channel serving) {
        if (!serving.isWritable() && serving.isActive()) {
            blocked.tryEmitValue(written.get());
        }
    }

    /** At the head of the pipeline: sees the encoded bytes go to the socket and the writability changes. */
    private final class Counter extends ChannelDuplexHandler {

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            long size = msg instanceof ByteBuf buf ? buf.readableBytes()
                    : msg instanceof ByteBufHolder holder ? holder.content().readableBytes() : 0;
            // A void promise cannot carry a listener; unvoid() gives one that can, with the same failure reporting.
            ChannelPromise counted = promise.unvoid();
            counted.addListener(f -> {
                if (f.isSuccess()) {
                    written.addAndGet(size);
                }
            });
            ctx.write(msg, counted);
            checkBlocked(ctx.channel());
        }

        @Override
        public void flush(ChannelHandlerContext ctx) throws Exception {
            ctx.flush();
            checkBlocked(ctx.channel());
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
            checkBlocked(ctx.channel());
            ctx.fireChannelWritabilityChanged();
        }
    }
}
