/**
 * Framing of streamed response bodies: Server-Sent Events, newline-delimited JSON, AWS event-stream
 * frames and JSON arrays streamed element by element, decoded from Reactor Netty
 * {@link io.netty.buffer.ByteBuf}s into whole events, lines, frames or elements whose payload stays
 * raw UTF-8 bytes for a streaming JSON parser.
 *
 * <p>Bytes may be split anywhere between buffers (inside a UTF-8 character, between {@code \r} and
 * {@code \n}, inside a field name); the output never depends on where.
 */
@NullMarked
package dev.ruminate.transport.wire;

import org.jspecify.annotations.NullMarked;
