package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ruminate.providers.internal.ClaudeEffort;
import org.junit.jupiter.api.Test;

/** Which Bedrock Claude ids take adaptive thinking, read from the id alone, and ids that must not throw. */
class AdaptiveClaudeTest {

    @Test
    void claudeFourSixAndLaterTakeAdaptiveThinking() {
        assertThat(AdaptiveClaude.takesAdaptiveThinking("us.anthropic.claude-sonnet-4-6")).isTrue();
        assertThat(AdaptiveClaude.takesAdaptiveThinking("anthropic.claude-opus-4-7-v1")).isTrue();
        assertThat(AdaptiveClaude.takesAdaptiveThinking("anthropic.claude-opus-5")).isTrue();
        assertThat(AdaptiveClaude.takesAdaptiveThinking("anthropic.claude-sonnet-4-20250514-v1:0")).isFalse();
        assertThat(AdaptiveClaude.takesAdaptiveThinking("anthropic.claude-3-7-sonnet-20250219-v1:0")).isFalse();
    }

    @Test
    void xhighIsForOpus47AndClaude5AndLater() {
        assertThat(ClaudeEffort.takesXhigh("global.anthropic.claude-opus-4-7")).isTrue();
        assertThat(ClaudeEffort.takesXhigh("claude-opus-4-8-20260601")).isTrue();
        assertThat(ClaudeEffort.takesXhigh("anthropic.claude-haiku-5")).isTrue();
        assertThat(ClaudeEffort.takesXhigh("claude-sonnet-4-6")).isFalse();
        assertThat(ClaudeEffort.takesXhigh("claude-opus-4-6")).isFalse();
        assertThat(ClaudeEffort.takesXhigh("claude-opus-4-20250514")).isFalse();
        assertThat(ClaudeEffort.takesXhigh("gpt-5.5")).isFalse();
        assertThat(ClaudeEffort.takesXhigh("anthropic.claude-opus-99999999999999999999")).isFalse();
    }

    @Test
    void aVersionBeyondAnIntIsNoMatchNotANumberFormatException() {
        assertThat(AdaptiveClaude.takesAdaptiveThinking("anthropic.claude-opus-99999999999999999999")).isFalse();
        assertThat(AdaptiveClaude.takesAdaptiveThinking("anthropic.claude-opus-4-99999999999")).isFalse();
    }
}
