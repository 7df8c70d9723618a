package dev.ruminate.transport.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Tells a body's framing from its first byte that is not whitespace, then hands the whole body,
 * that whitespace included (so that lines and offsets stay the body's), to the framer it chose:
 * {@code [} or {@code {} opens JSON (a streamed array, or a lone object such as an error), anything
 * else is the primary framing (Server-Sent Events never start with either).
 *
 * <p>Holds the state of one subscription; not thread-safe, fed serially.
 *
 * @param <F> the frame type
 */
final class ContentSniffingFramer<F> implements Framing.Framer<F> {

    /** Leading whitespace kept before a decision; past it the body is left to the primary framing. */
    private static final int MAX_LEADING_WHITESPACE = 64 * 1024;

    private final Framing.Framer<F> primary;
    private final JsonArrayFramer json;
    private final Function<JsonArrayElement, F> adapt;
    private final List<JsonArrayElement> elements = new ArrayList<>(4);
    private Framing.@Nullable Framer<F> chosen;
    private byte[] leading = new byte[0];

    ContentSniffingFramer(Framing.Framer<F> primary, JsonArrayFramer json, Function<JsonArrayElement, F> adapt) {
        this.primary = primary;
        this.json = json;
        this.adapt = adapt;
    }

    @Override
    public void feed(ByteBuf buf, List<F> out) {
        if (chosen == null) {
            int end = buf.writerIndex();
            int first = buf.readerIndex();
            while (first < end && isWhitespace(buf.getByte(first))) {
                first++;
            }
            if (first == end && leading.length + buf.readableBytes() <= MAX_LEADING_WHITESPACE) {
                int at = leading.length;
                leading = Arrays.copyOf(leading, at + buf.readableBytes());
                buf.getBytes(buf.readerIndex(), leading, at, buf.readableBytes());
                return;
            }
            byte b = first < end ? buf.getByte(first) : 0;
            choose(b == '[' || b == '{');
            if (leading.length > 0) {
                pass(Unpooled.wrappedBuffer(leading), out);
                leading = new byte[0];
            }
        }
        pass(buf, out);
    }

    private void choose(boolean jsonBody) {
        chosen = jsonBody ? new Adapted() : primary;
    }

    private void pass(ByteBuf buf, List<F> out) {
        Framing.@Nullable Framer<F> framer = chosen;
        if (framer != null) {
            framer.feed(buf, out);
        }
    }

    @Override
    public void finish(List<F> out) {
        if (chosen == null) {
            // a blank body: the primary framing says what that is
            choose(false);
            if (leading.length > 0) {
                pass(Unpooled.wrappedBuffer(leading), out);
            }
        }
        Framing.@Nullable Framer<F> framer = chosen;
        if (framer != null) {
            framer.finish(out);
        }
    }

    @Override
    public void abort(List<F> out) {
        Framing.@Nullable Framer<F> framer = chosen;
        if (framer != null) {
            framer.abort(out);
        }
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    /** The JSON framer, its elements turned into the primary framing's frames. */
    private final class Adapted implements Framing.Framer<F> {

        @Override
        public void feed(ByteBuf buf, List<F> out) {
            try {
                json.feed(buf, elements);
            } finally {
                drain(out);
            }
        }

        @Override
        public void finish(List<F> out) {
            try {
                json.finish(elements);
            } finally {
                drain(out);
            }
        }

        @Override
        public void abort(List<F> out) {
            json.abort(elements);
            drain(out);
        }

        private void drain(List<F> out) {
            for (JsonArrayElement e : elements) {
                out.add(adapt.apply(e));
            }
            elements.clear();
        }
    }
}
