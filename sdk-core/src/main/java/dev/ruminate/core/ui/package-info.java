/**
 * Serving conversations to browser front ends (the Vercel AI SDK's UI message stream, AG-UI) while the
 * provider's opaque state stays on the server: {@link dev.ruminate.core.ui.ServerTurns} keeps every turn a
 * front end was shown, keyed by the id the front end knows it by, so that when the front end sends the
 * conversation back, each turn it names is replaced by the stored one with its signatures and encrypted
 * reasoning intact. A front end only ever sees readable text, reasoning and tool calls.
 */
@NullMarked
package dev.ruminate.core.ui;

import org.jspecify.annotations.NullMarked;
