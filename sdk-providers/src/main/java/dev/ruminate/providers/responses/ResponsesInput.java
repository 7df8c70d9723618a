package dev.ruminate.providers.responses;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Reads a Responses request's {@code input} into Ruminate's neutral conversation, for a service
 * that accepts Responses-shaped requests and answers them with any provider.
 *
 * <p>What is read:
 * <ul>
 *   <li>{@code message} items (with or without {@code "type":"message"}): {@code user} becomes a
 *       {@link UserMessage}, {@code system} and {@code developer} a {@link SystemMessage}, each with
 *       its content as a string or the joined text of its {@code input_text}/{@code output_text}/{@code text}
 *       parts; {@code assistant} becomes text parts of an assistant turn (its {@code msg_} id kept as
 *       the part's item id), and {@code reasoning} entries inside its {@code content} array become
 *       reasoning parts in place;</li>
 *   <li>{@code reasoning} items: one reasoning part per {@code summary} entry (flagged as summary,
 *       source {@code summary_text}) and per {@code content} entry (source {@code reasoning_text}),
 *       each carrying the item's {@code id}; the first also carries its {@code encrypted_content}, byte
 *       for byte, as the Responses decoder does, so that {@link ResponsesCodec#encodeRequest} sends the
 *       item back unchanged. An item with no text becomes one empty reasoning part holding its state;</li>
 *   <li>{@code function_call} items: tool call parts ({@code call_id}, {@code name},
 *       {@code arguments}; the item {@code id} as item id); {@code function_call_output} items: tool
 *       results (an {@code output} that is not a string is kept as its JSON text);</li>
 *   <li>other typed items (built-in tool calls such as {@code web_search_call}): server tool parts
 *       holding the item's exact JSON.</li>
 * </ul>
 * Consecutive assistant-side items (reasoning, assistant messages, calls, built-in tool items) form
 * one assistant turn, with no provider: the history builder treats such a turn as the target's own.
 * A string {@code input} is one user message. A whole request body (an object with {@code input}) is
 * accepted too; its {@code instructions} become a leading system message.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class ResponsesInput {

    private ResponsesInput() {
    }

    /**
     * Reads a Responses {@code input} value, or a whole request body.
     *
     * @param inputJson the JSON: an array of input items, a string, or a request object
     * @return the conversation, oldest first, as an unmodifiable list
     * @throws ProtocolException {@code MALFORMED_JSON} for text that is not JSON,
     *     {@code UNEXPECTED_SHAPE} for JSON that is not Responses input; the message names the place,
     *     never a value
     */
    public static List<Message> read(String inputJson) {
        Objects.requireNonNull(inputJson, "inputJson");
        Object root = JsonTree.parse(inputJson);
        List<Message> out = new ArrayList<>();
        Object input = root;
        if (root instanceof JsonTree.Obj request) {
            String instructions = request.string("instructions");
            if (instructions != null && !instructions.isEmpty()) {
                out.add(new SystemMessage(instructions));
            }
            input = request.get("input");
            if (input == null) {
                throw JsonTree.shape("a request body must have an input");
            }
        }
        if (input instanceof String s) {
            out.add(new UserMessage(s));
        } else if (input instanceof JsonTree.Arr items) {
            new Reader(out).items(items);
        } else {
            throw JsonTree.shape("input must be a string or an array of items, was " + JsonTree.kind(input));
        }
        return List.copyOf(out);
    }

    /** Gathers assistant-side items into turns while reading the items in order. */
    private static final class Reader {
        private final List<Message> out;
        private final List<Part> turn = new ArrayList<>();

        Reader(List<Message> out) {
            this.out = out;
        }

        void items(JsonTree.Arr items) {
            for (int i = 0; i < items.items().size(); i++) {
                item(items.object(i));
            }
            flush();
        }

        private void item(JsonTree.Obj item) {
            String type = item.string("type");
            String role = item.string("role");
            if (type == null || "message".equals(type)) {
                if (role == null) {
                    throw JsonTree.shape(item.where("role") + " is required for a message item");
                }
                message(item, role);
                return;
            }
            switch (type) {
                case "reasoning" -> reasoning(item);
                case "function_call" -> turn.add(new ToolCallPart(item.requireString("call_id"), item.requireString("name"),
                        orEmpty(item.string("arguments")), validArguments(orEmpty(item.string("arguments"))),
                        idSeals(item.string("id"))));
                case "function_call_output" -> {
                    flush();
                    Object output = item.get("output");
                    String content = output instanceof String s ? s
                            : output instanceof JsonTree.Obj o ? o.raw()
                            : output instanceof JsonTree.Arr a ? a.raw() : "";
                    out.add(new ToolResultMessage(item.requireString("call_id"), null, content, false));
                }
                default -> turn.add(new ServerToolPart(type, item.string("id"), item.string("name"), item.raw(), Seals.NONE));
            }
        }

        private void message(JsonTree.Obj item, String role) {
            switch (role) {
                case "user" -> {
                    flush();
                    out.add(new UserMessage(text(item)));
                }
                case "system", "developer" -> {
                    flush();
                    out.add(new SystemMessage(text(item)));
                }
                case "assistant" -> assistant(item);
                default -> throw JsonTree.shape(item.where("role") + " must be one of user, system, developer, assistant");
            }
        }

        /** An assistant message: its text, and reasoning written inline in its content, in order. */
        private void assistant(JsonTree.Obj item) {
            Seals seals = idSeals(item.string("id"));
            Object content = item.get("content");
            if (content instanceof JsonTree.Arr parts) {
                StringBuilder text = new StringBuilder();
                for (int i = 0; i < parts.items().size(); i++) {
                    JsonTree.Obj p = parts.object(i);
                    if ("reasoning".equals(p.string("type"))) {
                        addText(text, seals);
                        reasoning(p);
                    } else {
                        String t = p.has("text") ? p.string("text") : p.string("refusal");
                        text.append(orEmpty(t));
                    }
                }
                addText(text, seals);
            } else {
                turn.add(new TextPart(text(item), seals));
            }
        }

        private void addText(StringBuilder text, Seals seals) {
            if (text.length() > 0) {
                turn.add(new TextPart(text.toString(), seals));
                text.setLength(0);
            }
        }

        private void reasoning(JsonTree.Obj item) {
            String id = item.string("id");
            String encrypted = item.string("encrypted_content");
            int first = turn.size();
            entries(item.array("summary"), true, id);
            entries(item.array("content"), false, id);
            if (turn.size() == first) {
                if (id == null && encrypted == null) {
                    return;
                }
                turn.add(new ReasoningPart("", false, null, idSeals(id)));
            }
            if (encrypted != null) {
                ReasoningPart r = (ReasoningPart) turn.get(first);
                turn.set(first, new ReasoningPart(r.text(), r.summary(), r.source(),
                        r.seals().with(dev.ruminate.core.event.Seal.Kind.ENCRYPTED, encrypted)));
            }
        }

        private void entries(JsonTree.@Nullable Arr entries, boolean summary, @Nullable String id) {
            if (entries == null) {
                return;
            }
            for (int i = 0; i < entries.items().size(); i++) {
                String text = orEmpty(entries.object(i).string("text"));
                turn.add(new ReasoningPart(text, summary, summary ? ResponsesAssembler.SUMMARY_SOURCE
                        : ResponsesAssembler.RAW_SOURCE, idSeals(id)));
            }
        }

        private void flush() {
            if (!turn.isEmpty()) {
                boolean calls = turn.stream().anyMatch(ToolCallPart.class::isInstance);
                out.add(new AssistantMessage(turn, null, null, calls ? FinishReason.TOOL_CALLS : FinishReason.STOP, null,
                        Usage.UNKNOWN));
                turn.clear();
            }
        }

        /** Reads {@code content}: a string, or the joined text of its parts. */
        private static String text(JsonTree.Obj item) {
            Object content = item.get("content");
            if (content instanceof String s) {
                return s;
            }
            if (content instanceof JsonTree.Arr parts) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < parts.items().size(); i++) {
                    sb.append(orEmpty(parts.object(i).string("text")));
                }
                return sb.toString();
            }
            if (content == null || content == JsonTree.NULL) {
                return "";
            }
            throw JsonTree.shape(item.where("content") + " must be a string or an array of parts, was " + JsonTree.kind(content));
        }
    }

    private static Seals idSeals(@Nullable String id) {
        return id == null || id.isEmpty() ? Seals.NONE : new Seals(null, null, null, id, null);
    }

    private static boolean validArguments(String arguments) {
        return arguments.isBlank() || JsonValidity.problem(arguments) == null;
    }

    private static String orEmpty(@Nullable String s) {
        return s == null ? "" : s;
    }
}
