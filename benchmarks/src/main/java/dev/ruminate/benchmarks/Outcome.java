package dev.ruminate.benchmarks;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a contender kept of the stream: the final reasoning, answer, tool-call arguments and reasoning-token count,
 * each as the contender's public result exposes it. Used to check that contenders did the same work.
 *
 * @param reasoning the reasoning text, or null when the contender does not keep it
 * @param content the answer text
 * @param toolArguments each tool call's arguments, in call order
 * @param reasoningTokens the reasoning-token count, or null when the contender drops it
 */
record Outcome(@Nullable String reasoning, String content, List<String> toolArguments, @Nullable Long reasoningTokens) {
}
