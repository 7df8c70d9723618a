package dev.ruminate.providers.chatcompletions;

import java.util.Locale;

/**
 * DeepSeek's send-back rule, by model family.
 *
 * <ul>
 *   <li>R1-family names ({@code deepseek-r1…}): never; those endpoints answered 400 when an input
 *       message carried {@code reasoning_content}.</li>
 *   <li>Everything else ({@code deepseek-chat}, {@code deepseek-reasoner}, {@code deepseek-v3.2…},
 *       {@code deepseek-v4…}) is thinking mode: {@code reasoning_content} must go back on the
 *       assistant messages of every user turn that called a tool, or the API answers 400 ("The
 *       reasoning_content in the thinking mode must be passed back to the API"); elsewhere it is
 *       ignored, so it is not sent. {@code deepseek-reasoner} is an alias that moved from R1 to the
 *       thinking-mode models; a recorded 2026 tool loop sending {@code reasoning_content} to it was
 *       accepted ({@code shared/sendback/deepseek/pydantic-deepseek-reasoner-tool-calls}), and R1
 *       never made tool calls, so the tool-turn scope is right for both eras.</li>
 * </ul>
 *
 * @see <a href="https://api-docs.deepseek.com/guides/thinking_mode">DeepSeek thinking mode</a>
 */
final class DeepSeekSendBackRule implements SendBackRule {

    static final DeepSeekSendBackRule INSTANCE = new DeepSeekSendBackRule();

    private static final ReasoningSendBack THINKING_MODE =
            ReasoningSendBack.field("reasoning_content").onlyInToolTurns();

    private DeepSeekSendBackRule() {
    }

    @Override
    public ReasoningSendBack forModel(String model) {
        String name = model.toLowerCase(Locale.ROOT);
        return name.contains("-r1") || name.startsWith("r1") ? ReasoningSendBack.DROP : THINKING_MODE;
    }

    @Override
    public String toString() {
        return "DeepSeekSendBackRule[r1: drop, otherwise reasoning_content in tool turns]";
    }
}
