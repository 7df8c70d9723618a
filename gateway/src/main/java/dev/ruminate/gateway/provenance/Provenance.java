package dev.ruminate.gateway.provenance;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.gateway.route.ReasoningToBackend;
import dev.ruminate.gateway.state.SealedState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Labels each assistant turn a client sent with where it came from, and rewrites it into what the
 * backend the request now goes to may receive.
 *
 * <p>Turns read from Responses input carry no provider, so History would take every one
 * for the target's own and send its reasoning, and any opaque value the client put in it, back as
 * if the backend had produced them. This class decides instead:
 * <ul>
 *   <li><b>Own state.</b> A turn holding gateway-sealed state (an {@code encrypted_content} that the
 *       caller opened, authenticated, into a {@link SealedState}) sealed for this route and this
 *       backend is the backend's own: each sealed reasoning item's parts are replaced by the sealed
 *       originals, signatures and encrypted blobs byte for byte; sealed answer text and tool calls
 *       (a trailing state-only item) give their seals back to the matching text part (same text) and
 *       the tool call of the same call id (the client's name and arguments kept when it changed
 *       them); the turn is labelled with the backend's name, so its history rules
 *       send the state back.</li>
 *   <li><b>Everything else is foreign:</b> state sealed for another route or backend, readable
 *       reasoning the client wrote, and opaque values that are not the gateway's. Every seal is
 *       stripped (nothing opaque a client made is ever forwarded), server tool blocks are dropped,
 *       and readable reasoning reaches the backend by the route's {@link ReasoningToBackend}:
 *       {@code TAGS}: consecutive reasoning parts become one text part
 *       {@code <think>\nR\n</think>\n\n} in their place, so the answer follows as
 *       {@code <think>\nR\n</think>\n\nanswer}; {@code FIELD}: reasoning parts the backend sends in
 *       its own reasoning field; {@code DROP}: none. The turn is then labelled as the backend's, since
 *       it is already in the form the backend may receive.</li>
 * </ul>
 * On a {@code TAGS} route the backend's own restored reasoning goes back as tags too (such a backend
 * has no reasoning field and no opaque state). Unsealed reasoning inside an own turn is treated as
 * foreign reasoning. A turn left with no parts
 * is dropped. Other messages, and turns that already name a provider, pass unchanged.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.2
 */
public final class Provenance {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A sealed answer text or tool call, and the index of the part its state-only item followed (-1: none). */
    private record Sealed(Part original, int preceding) {
    }

    private Provenance() {
    }

    /**
     * The backend a request goes to.
     *
     * @param route the route (client-facing model name)
     * @param backendName the provider's name, which sealed state must carry and turns are labelled with
     * @param reasoningToBackend how foreign reasoning reaches it
     * @since 0.2
     */
    public record Target(String route, String backendName, ReasoningToBackend reasoningToBackend) {

        /**
         * Creates the value, checking its components.
         *
         * @param route see {@link #route()}
         * @param backendName see {@link #backendName()}
         * @param reasoningToBackend see {@link #reasoningToBackend()}
         */
        public Target {
            Objects.requireNonNull(route, "route");
            Objects.requireNonNull(backendName, "backendName");
            Objects.requireNonNull(reasoningToBackend, "reasoningToBackend");
        }

        boolean made(SealedState state) {
            return state.route().equals(route) && state.provider().equals(backendName);
        }
    }

    /**
     * Relabels a conversation for a backend.
     *
     * @param conversation the conversation read from the client's input, oldest first
     * @param target the backend
     * @param opened the gateway-sealed states found in the input, by their sealed text (the
     *     {@code encrypted_content} value), already opened and authenticated; an encrypted value not
     *     in this map is not the gateway's and is stripped
     * @return the conversation to send, a new unmodifiable list
     */
    public static List<Message> relabel(List<Message> conversation, Target target, Map<String, SealedState> opened) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(opened, "opened");
        List<Message> out = new ArrayList<>(conversation.size());
        for (Message m : conversation) {
            if (m instanceof AssistantMessage a && a.provider() == null) {
                AssistantMessage relabelled = turn(a, target, opened);
                if (relabelled != null) {
                    out.add(relabelled);
                }
            } else {
                out.add(m);
            }
        }
        return List.copyOf(out);
    }

    private static @Nullable AssistantMessage turn(AssistantMessage a, Target target, Map<String, SealedState> opened) {
        Set<String> ownItems = new HashSet<>();
        String model = null;
        boolean own = false;
        for (Part p : a.parts()) {
            SealedState state = ownState(p, target, opened);
            if (state != null) {
                own = true;
                model = model != null ? model : state.model();
                if (p.seals().itemId() != null) {
                    ownItems.add(p.seals().itemId());
                }
            }
        }
        List<Part> parts = new ArrayList<>(a.parts().size());
        List<Sealed> sealedOthers = new ArrayList<>();
        StringBuilder tags = new StringBuilder();
        for (Part p : a.parts()) {
            SealedState state = own ? ownState(p, target, opened) : null;
            if (state != null) {
                for (Part original : state.parts()) {
                    if (original instanceof ReasoningPart r && target.reasoningToBackend() == ReasoningToBackend.TAGS) {
                        // a tag backend has no reasoning field: its own reasoning goes back as tags too
                        foreignReasoning(r, ReasoningToBackend.TAGS, tags, parts);
                    } else if (original instanceof ReasoningPart) {
                        flushTags(tags, parts);
                        parts.add(original);
                    } else {
                        // a state-only item follows the item whose seals it holds: remember which part that is
                        sealedOthers.add(new Sealed(original, parts.size() - 1));
                    }
                }
            } else if (p instanceof ReasoningPart r) {
                if (p.seals().itemId() != null && ownItems.contains(p.seals().itemId())) {
                    continue; // another entry of a sealed item: the originals replace the item as a whole
                }
                foreignReasoning(r, target.reasoningToBackend(), tags, parts);
            } else if (p instanceof TextPart t) {
                flushTags(tags, parts);
                parts.add(t.seals().isEmpty() ? t : new TextPart(t.text(), Seals.NONE));
            } else if (p instanceof ToolCallPart c) {
                flushTags(tags, parts);
                parts.add(c.seals().isEmpty() ? c
                        : new ToolCallPart(c.id(), c.name(), c.arguments(), c.argumentsValid(), Seals.NONE));
            } else if (!(p instanceof ServerToolPart)) {
                flushTags(tags, parts);
                parts.add(p);
            }
        }
        flushTags(tags, parts);
        for (Sealed sealed : sealedOthers) {
            attach(sealed.original(), sealed.preceding(), parts);
        }
        if (parts.isEmpty()) {
            return null;
        }
        return new AssistantMessage(parts, target.backendName(), own ? model : null, a.finishReason(),
                a.rawFinishReason(), a.usage());
    }

    private static @Nullable SealedState ownState(Part p, Target target, Map<String, SealedState> opened) {
        String encrypted = p instanceof ReasoningPart ? p.seals().encrypted() : null;
        if (encrypted == null) {
            return null;
        }
        SealedState state = opened.get(encrypted);
        return state != null && target.made(state) ? state : null;
    }

    private static void foreignReasoning(ReasoningPart r, ReasoningToBackend mode, StringBuilder tags, List<Part> parts) {
        if (r.text().isEmpty()) {
            return;
        }
        switch (mode) {
            case TAGS -> {
                if (tags.length() > 0) {
                    tags.append("\n\n");
                }
                tags.append(r.text());
            }
            case FIELD -> parts.add(new ReasoningPart(r.text(), r.summary(), r.source(), Seals.NONE));
            case DROP -> { }
        }
    }

    private static void flushTags(StringBuilder tags, List<Part> parts) {
        if (tags.length() > 0) {
            // reasoning split out of tags keeps the line breaks that stood inside them: the wrapper adds its own
            parts.add(new TextPart("<think>\n" + trimLineBreaks(tags) + "\n</think>\n\n", Seals.NONE));
            tags.setLength(0);
        }
    }

    private static String trimLineBreaks(CharSequence s) {
        int start = 0;
        int end = s.length();
        while (start < end && (s.charAt(start) == '\n' || s.charAt(start) == '\r')) {
            start++;
        }
        while (end > start && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
            end--;
        }
        return s.subSequence(start, end).toString();
    }

    /** Equal as JSON values (a client may re-serialize a call's arguments), else as text. */
    private static boolean sameArguments(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        try {
            return JSON.readTree(a).equals(JSON.readTree(b));
        } catch (JacksonException e) {
            return false;
        }
    }

    /**
     * Gives a sealed answer text or tool call its seals back. A tool call is matched by its call id
     * (or, where either has none, by name and arguments): when the client's name and arguments are
     * the original's (arguments equal as JSON, as a client may re-serialize them) the sealed original
     * replaces it, so the backend gets its call byte for byte; when the client changed them, the
     * client's call is kept and gets the original's seals (the call id is the call's identity, and
     * the client's tool result answers the call as the client sent it; Gemini 3 rejects a call of the
     * current turn without its signature). A text part has no identity but its text: only the same
     * text gets the seals; a changed text stays as sent, without them. A call the backend gave no
     * id, which the client changed, is the call the state-only item came right after.
     */
    private static void attach(Part original, int preceding, List<Part> parts) {
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            boolean match = false;
            if (original instanceof ToolCallPart o && p instanceof ToolCallPart c && c.seals().isEmpty()) {
                boolean sameCall = o.name().equals(c.name()) && sameArguments(o.arguments(), c.arguments());
                match = o.id() != null && o.id().equals(c.id()) || (o.id() == null || c.id() == null) && sameCall;
                if (match) {
                    parts.set(i, sameCall ? new ToolCallPart(c.id(), o.name(), o.arguments(), o.argumentsValid(), o.seals())
                            : new ToolCallPart(c.id(), c.name(), c.arguments(), c.argumentsValid(), o.seals()));
                    return;
                }
            } else if (original instanceof TextPart o && p instanceof TextPart t && t.seals().isEmpty()
                    && o.text().equals(t.text())) {
                parts.set(i, o);
                return;
            }
        }
        if (original instanceof ToolCallPart o && o.id() == null && preceding >= 0
                && parts.get(preceding) instanceof ToolCallPart c && c.seals().isEmpty()) {
            // a backend call without an id of its own, which the client changed: the call its state item follows
            parts.set(preceding, new ToolCallPart(c.id(), c.name(), c.arguments(), c.argumentsValid(), o.seals()));
        }
    }
}
