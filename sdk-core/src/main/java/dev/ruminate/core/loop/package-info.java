/**
 * The tool loop: run a {@link dev.ruminate.core.request.ChatRequest} on a
 * {@link dev.ruminate.core.ChatProvider}, execute the tools the model calls, send their results
 * back and repeat until the model answers, observing every step as a
 * {@link dev.ruminate.core.loop.LoopEvent}. Each step sends the previous steps' assistant messages
 * exactly as reduced (reasoning, signatures, encrypted content, item ids untouched), so the
 * provider's own history rules decide what goes on the wire. Entry point:
 * {@link dev.ruminate.core.loop.ToolLoop}.
 */
@NullMarked
package dev.ruminate.core.loop;

import org.jspecify.annotations.NullMarked;
