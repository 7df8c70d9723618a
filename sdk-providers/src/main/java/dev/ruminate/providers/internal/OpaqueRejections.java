package dev.ruminate.providers.internal;

import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.OpaqueStateRejectedException.Reason;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.UserMessage;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads the providers' error bodies for rejections of opaque reasoning state, one method per
 * family, from the messages documented in PROTOCOLS.md (§2 Responses, §3 Anthropic, §4 Gemini, §5
 * DeepSeek, §15 Bedrock) and the phrasings reported where the exact wording is UNVERIFIED: the
 * matches are tolerant (key words, not whole sentences) but each asks for words an unrelated 400
 * does not have (a signature <em>and</em> thinking, encrypted content, a thought signature, a
 * reasoning_content that must be passed back). Each returns the reason and the provider's location
 * words and wire indices; the family's codec maps the indices to the conversation. Stateless.
 */
public final class OpaqueRejections {

    /** What a family's error says: the reason, the location words and the wire indices it names (-1 when none). */
    public record Found(Reason reason, @Nullable String location, int wireMessage, int wireBlock) {
    }

    private static final Pattern ANTHROPIC_PLACE = Pattern.compile("messages\\.(\\d+)\\.content\\.(\\d+)");
    private static final Pattern RESPONSES_ITEM = Pattern.compile("(?:item(?: with id)?\\s+'?)([A-Za-z0-9_-]+)'?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RS_ID = Pattern.compile("\\brs_[A-Za-z0-9_-]+");
    private static final Pattern GEMINI_PLACE = Pattern.compile("function call `([^`]*)` in the (\\d+)\\. content block");
    private static final Pattern DEEPSEEK_PLACE = Pattern.compile("message index (\\d+)");

    private OpaqueRejections() {
    }

    /** Returns the provider's message (or the body excerpt when none was parsed), for matching. */
    private static String text(ProviderHttpException e) {
        String message = e.error().message();
        return message != null ? message : e.bodyExcerpt();
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /**
     * Anthropic Messages (and Claude behind Bedrock, which passes Anthropic's words on in a
     * {@code ValidationException}): a 400 naming a thinking block's signature.
     *
     * @param e the HTTP error
     * @return what it says, or null when it is not about opaque state
     */
    public static @Nullable Found anthropic(ProviderHttpException e) {
        if (e.status() != 400) {
            return null;
        }
        String text = text(e);
        String low = lower(text);
        Matcher place = ANTHROPIC_PLACE.matcher(text);
        boolean located = place.find();
        String location = located ? place.group() : null;
        int message = located ? Integer.parseInt(place.group(1)) : -1;
        int block = located ? Integer.parseInt(place.group(2)) : -1;
        Reason reason = null;
        if ((low.contains("thinking.signature") || low.contains("redacted_thinking.data")) && low.contains("field required")) {
            reason = Reason.MISSING_SIGNATURE;
        } else if (low.contains("expected `thinking` or `redacted_thinking`")
                || low.contains("expected thinking or redacted_thinking")
                || low.contains("must start with thinking")) {
            reason = Reason.MISSING_THINKING;
        } else if ((low.contains("signature") && (low.contains("thinking") || low.contains("invalid")))
                || (low.contains("redacted_thinking") && low.contains("invalid"))) {
            reason = Reason.INVALID_SIGNATURE;
        }
        return reason == null ? null : new Found(reason, location, message, block);
    }

    /**
     * OpenAI Responses: {@code invalid_encrypted_content} (code or words) and an item that is not
     * kept with {@code store: false}.
     *
     * @param e the HTTP error
     * @return what it says, or null when it is not about opaque state
     */
    public static @Nullable Found responses(ProviderHttpException e) {
        if (e.status() != 400 && e.status() != 404) {
            return null;
        }
        String text = text(e);
        String low = lower(text);
        String code = e.error().code();
        Reason reason = null;
        if ("invalid_encrypted_content".equals(code)
                || (low.contains("encrypted content") || low.contains("encrypted_content"))
                        && (low.contains("could not be verified") || low.contains("could not be decrypted")
                                || low.contains("invalid"))) {
            reason = Reason.INVALID_ENCRYPTED_CONTENT;
        } else if (low.contains("not found") && low.contains("store")) {
            reason = Reason.ITEM_NOT_FOUND;
        }
        if (reason == null) {
            return null;
        }
        Matcher rs = RS_ID.matcher(text);
        String item = null;
        if (rs.find()) {
            item = rs.group();
        } else {
            Matcher any = RESPONSES_ITEM.matcher(text);
            if (any.find()) {
                item = any.group(1);
            }
        }
        return new Found(reason, item, -1, -1);
    }

    /**
     * Gemini (AI Studio and Vertex): a 400 about a function call's {@code thought_signature}.
     *
     * @param e the HTTP error
     * @return what it says, or null when it is not about opaque state; the location words name the
     *     function, whose name the codec resolves (the content block number's base is UNVERIFIED)
     */
    public static @Nullable Found gemini(ProviderHttpException e) {
        if (e.status() != 400) {
            return null;
        }
        String text = text(e);
        String low = lower(text);
        boolean aboutSignature = low.contains("thought_signature") || low.contains("thought signature")
                || low.contains("thoughtsignature");
        if (!aboutSignature || low.contains("unknown name") || low.contains("cannot find field")) {
            // a server that does not know the field refuses its name, whatever the value: not a refused signature
            return null;
        }
        Reason reason;
        if (low.contains("missing")) {
            reason = Reason.MISSING_THOUGHT_SIGNATURE;
        } else if (low.contains("corrupt") || low.contains("invalid") || low.contains("could not be verified")) {
            reason = Reason.INVALID_THOUGHT_SIGNATURE;
        } else {
            return null;
        }
        Matcher place = GEMINI_PLACE.matcher(text);
        return place.find() ? new Found(reason, place.group(), -1, Integer.parseInt(place.group(2)))
                : new Found(reason, null, -1, -1);
    }

    /**
     * Returns the function name a Gemini location names.
     *
     * @param location the location words
     * @return the name, or null
     */
    public static @Nullable String geminiFunction(@Nullable String location) {
        if (location == null) {
            return null;
        }
        Matcher place = GEMINI_PLACE.matcher(location);
        return place.find() ? place.group(1) : null;
    }

    /**
     * DeepSeek thinking mode: the {@code reasoning_content} of a tool-call turn was not passed back.
     * Groq's refusal of a {@code reasoning_content} it does not support is not this.
     *
     * @param e the HTTP error
     * @return what it says, or null when it is not about opaque state
     */
    public static @Nullable Found deepSeek(ProviderHttpException e) {
        if (e.status() != 400) {
            return null;
        }
        String text = text(e);
        String low = lower(text);
        if (!low.contains("reasoning_content")
                || !(low.contains("must be passed back") || low.contains("missing `reasoning_content`")
                        || low.contains("missing reasoning_content"))) {
            return null;
        }
        Matcher place = DEEPSEEK_PLACE.matcher(text);
        return place.find() ? new Found(Reason.MISSING_REASONING_CONTENT, place.group(), Integer.parseInt(place.group(1)), -1)
                : new Found(Reason.MISSING_REASONING_CONTENT, null, -1, -1);
    }

    /**
     * Finds the one call of a function in the current turn (after the last user message) that
     * has no signature: the call Gemini says misses one. Null when none or several match.
     *
     * @param messages the prepared messages
     * @param name the function's name
     * @param unsigned true to look for an unsigned call, false for a signed one
     * @return {@code {message, part}}, or null
     */
    public static int @Nullable [] currentTurnCall(List<Message> messages, String name, boolean unsigned) {
        int start = 0;
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage) {
                start = i + 1;
                break;
            }
        }
        int[] found = null;
        for (int i = start; i < messages.size(); i++) {
            if (!(messages.get(i) instanceof AssistantMessage a)) {
                continue;
            }
            List<Part> parts = a.parts();
            for (int j = 0; j < parts.size(); j++) {
                if (parts.get(j) instanceof ToolCallPart c && c.name().equals(name)
                        && (c.seals().signature() == null) == unsigned) {
                    if (found != null) {
                        return null;
                    }
                    found = new int[] {i, j};
                }
            }
        }
        return found;
    }

    /**
     * Finds the reasoning part that carries a Responses item id.
     *
     * @param messages the prepared messages
     * @param itemId the id
     * @return {@code {message, part}} of the first part with it, or null
     */
    public static int @Nullable [] partWithItemId(List<Message> messages, String itemId) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof AssistantMessage a) {
                for (int j = 0; j < a.parts().size(); j++) {
                    if (itemId.equals(a.parts().get(j).seals().itemId())) {
                        return new int[] {i, j};
                    }
                }
            }
        }
        return null;
    }

    /**
     * Builds the typed error.
     *
     * @param e the HTTP error
     * @param provider the provider's name
     * @param found what the body says
     * @param origin {@code {message, part}} in the prepared messages ({@code part} may be -1), or null
     * @return the typed error
     */
    public static OpaqueStateRejectedException typed(ProviderHttpException e, String provider, Found found,
                                                     int @Nullable [] origin) {
        Integer turn = origin != null && origin[0] >= 0 ? origin[0] : null;
        Integer part = origin != null && turn != null && origin[1] >= 0 ? origin[1] : null;
        return new OpaqueStateRejectedException(e, provider, found.reason(), found.location(), turn, part);
    }
}
