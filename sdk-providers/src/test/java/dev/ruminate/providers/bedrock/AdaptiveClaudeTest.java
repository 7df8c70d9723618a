package dev.ruminate.providers.bedrock;

import static org.assertj.core.api.Assertions.assertThat;

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
    void aVersionBeyondAnIntIsNoMatchNotANumberFormatException() {
        assertThat(AdaptiveClaude.takesAdaptiveThinking("anthropic.claude-opus-99999999999999999999")).isFalse();
        assertThat(AdaptiveClaude.takesAdaptiveThinking("anthropic.claude-opus-4-99999999999")).isFalse();
    }
}
