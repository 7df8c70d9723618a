package dev.ruminate.gateway.serve;

import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.spring.ChatProviderCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes the body of every upstream request to a directory as it is sent, one file per request
 * ({@code 0001-<provider>.json}, numbered in sending order), so that a user of {@code ruminate serve}
 * can see what the backend got. It watches the bytes on the provider's own connection, after
 * encoding, so the files hold exactly what went out; headers (and with them the API key) are not
 * written.
 *
 * <p>Applied to the providers as a {@link ChatProviderCustomizer}: it keeps the provider's HTTP
 * client and adds an outbound handler to each request's connection. Files are written on the event
 * loop; this is a local debugging aid, not for production traffic. Thread-safe.
 *
 * @since 0.2
 */
public final class UpstreamRequestRecorder implements ChatProviderCustomizer {

    private static final String HANDLER = "ruminate.upstreamRequestRecorder";

    private final Path directory;
    private final AtomicInteger sequence = new AtomicInteger();

    /**
     * Creates a recorder.
     *
     * @param directory where to write; created if missing
     * @throws UncheckedIOException if the directory cannot be created
     */
    public UpstreamRequestRecorder(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory, e);
        }
    }

    @Override
    public void customize(String name, ProviderBuilder<?> builder) {
        String safe = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "_");
        builder.httpClient(builder.configuredHttpClient().doOnRequest((request, connection) -> {
            if (connection.channel().pipeline().get(HANDLER) == null) {
                connection.addHandlerLast(HANDLER, new Capture(safe));
            }
        }));
    }

    /** Gathers one request's body bytes as they are written, and writes them out at its end. */
    private final class Capture extends ChannelOutboundHandlerAdapter {
        private final String provider;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        Capture(String provider) {
            this.provider = provider;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            ByteBuf content = msg instanceof ByteBufHolder holder ? holder.content() : msg instanceof ByteBuf b ? b : null;
            if (content != null && content.isReadable()) {
                byte[] bytes = new byte[content.readableBytes()];
                content.getBytes(content.readerIndex(), bytes);
                body.write(bytes, 0, bytes.length);
            }
            if (msg instanceof LastHttpContent && body.size() > 0) {
                Path file = directory.resolve(String.format(Locale.ROOT, "%04d-%s.json", sequence.incrementAndGet(), provider));
                Files.write(file, body.toByteArray());
                body.reset();
            }
            super.write(ctx, msg, promise);
        }
    }
}
