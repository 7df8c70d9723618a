package dev.ruminate.providers.responses;

import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.core.internal.JsonTree;
import dev.ruminate.core.internal.JsonValidity;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Media;
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
import dev.ruminate.providers.serving.ClientRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
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
 *       the part's item id, {@code refusal} parts read as text), and {@code reasoning} entries inside
 *       its {@code content} array become reasoning parts in place. A user message's
 *       {@code input_image} and {@code input_file} parts become its {@link Media} (by data URL or
 *       http(s) URL; {@code file_id} is rejected, since only OpenAI can resolve it; the image
 *       {@code detail} is not carried). Audio parts, media in other roles, and part types not listed
 *       here are rejected, never dropped;</li>
 *   <li>{@code reasoning} items (also inside an assistant message's content): a {@code text} (the
 *       form think-tag proxies document, {@code {"type":"reasoning","text":"…"}}) becomes a raw
 *       reasoning part; then one reasoning part per {@code summary} entry (flagged as summary,
 *       source {@code summary_text}) and per {@code content} entry (source {@code reasoning_text}),
 *       each carrying the item's {@code id}; the first also carries its {@code encrypted_content}, byte
 *       for byte, as the Responses decoder does, so that {@link ResponsesCodec#encodeRequest} sends the
 *       item back unchanged. An item with no text becomes one empty reasoning part holding its state;</li>
 *   <li>{@code function_call} items: tool call parts ({@code call_id}, {@code name},
 *       {@code arguments}; the item {@code id} as item id); {@code function_call_output} items: tool
 *       results (an {@code output} array with image or file parts becomes the joined text of its
 *       {@code input_text} parts and its media; any other {@code output} that is not a string is kept
 *       as its JSON text);</li>
 *   <li>the items of OpenAI's built-in tools ({@code web_search_call}, {@code file_search_call},
 *       {@code code_interpreter_call}, {@code computer_call}, {@code mcp_call},
 *       {@code image_generation_call}, {@code local_shell_call}, {@code custom_tool_call}, … and their
 *       outputs): server tool parts holding the item's exact JSON;</li>
 *   <li>{@code item_reference} items are rejected: a service resolves them to the items they name
 *       before reading (an unresolved one would otherwise vanish from the conversation); other item
 *       types are rejected too.</li>
 * </ul>
 * Consecutive assistant-side items (reasoning, assistant messages, calls, built-in tool items) form
 * one assistant turn, with no provider: History treats such a turn as the target's own.
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
            new Reader(out, false, (where, why) -> JsonTree.shape(where + " " + why)).items(items);
        } else {
            throw JsonTree.shape("input must be a string or an array of items, was " + JsonTree.kind(input));
        }
        return List.copyOf(out);
    }

    /**
     * Reads input items, each given as its exact JSON text, as a service that answers Responses
     * requests does after it has resolved {@code item_reference} items and prepended stored ones
     * (see {@link ResponsesCall#inputItems()}).
     *
     * @param itemJsons the items, oldest first, each one JSON object
     * @param instructions the request's {@code instructions}, which become a leading system
     *     message; null or empty for none
     * @return the conversation, oldest first, as an unmodifiable list
     * @throws ClientRequestException (400) for an item that cannot be read: an unknown item type
     *     ({@code param} {@code input[i].type}), an {@code item_reference} left unresolved, a content
     *     part this reader does not support ({@code input_audio}; an image or file by {@code file_id},
     *     or outside a user message or tool output), or a wrong shape; {@code i} counts in {@code itemJsons}. The message
     *     names the place, never a value
     * @throws IllegalArgumentException if an element of {@code itemJsons} is not exactly one JSON value
     */
    public static List<Message> readItems(List<String> itemJsons, @Nullable String instructions) {
        Objects.requireNonNull(itemJsons, "itemJsons");
        StringBuilder joined = new StringBuilder(64 + itemJsons.stream().mapToInt(String::length).sum());
        joined.append("{\"input\":[");
        for (int i = 0; i < itemJsons.size(); i++) {
            String item = Objects.requireNonNull(itemJsons.get(i), "itemJsons element");
            if (dev.ruminate.core.internal.JsonValidity.problem(item) != null) {
                throw new IllegalArgumentException("itemJsons[" + i + "] is not one JSON value");
            }
            joined.append(i == 0 ? "" : ",").append(item);
        }
        joined.append("]}");
        List<Message> out = new ArrayList<>(itemJsons.size() + 1);
        if (instructions != null && !instructions.isEmpty()) {
            out.add(new SystemMessage(instructions));
        }
        JsonTree.Arr items = (JsonTree.Arr) Objects.requireNonNull(
                JsonTree.parseObject(joined.toString(), "the items").get("input"));
        clientErrors(() -> new Reader(out, false, ResponsesInput::clientError).items(items));
        return List.copyOf(out);
    }

    /**
     * Checks a client's {@code input} array as {@link #readItems} would read it, allowing
     * {@code item_reference} items, so that errors name the client's own positions.
     *
     * @throws ClientRequestException as {@link #readItems}
     */
    static void validate(JsonTree.Arr input) {
        clientErrors(() -> new Reader(new ArrayList<>(), true, ResponsesInput::clientError).items(input));
    }

    /** Runs a read, turning the JSON tree's shape errors (which start with the path) into client errors. */
    private static void clientErrors(Runnable read) {
        try {
            read.run();
        } catch (ProtocolException e) {
            String detail = e.detail();
            int space = detail.indexOf(' ');
            String first = space > 0 ? detail.substring(0, space) : "";
            String param = first.matches("[A-Za-z_][A-Za-z0-9_.\\[\\]]*") ? first : null;
            throw ClientRequestException.invalid("Invalid input: " + detail + ".", param, "invalid_value");
        }
    }

    private static RuntimeException clientError(String where, String why) {
        return ClientRequestException.invalid(where + " " + why + ".", where, "invalid_value");
    }

    /**
     * The item types of OpenAI's built-in tools, kept as server tool parts holding their exact JSON:
     * their calls and outputs belong to the upstream provider's own tools.
     */
    static final Set<String> BUILT_IN_ITEMS = Set.of("web_search_call", "file_search_call", "code_interpreter_call",
            "computer_call", "computer_call_output", "mcp_call", "mcp_list_tools", "mcp_approval_request",
            "mcp_approval_response", "image_generation_call", "local_shell_call", "local_shell_call_output",
            "shell_call", "shell_call_output", "apply_patch_call", "apply_patch_call_output", "custom_tool_call",
            "custom_tool_call_output", "tool_search_call", "tool_search_output");

    /** Gathers assistant-side items into turns while reading the items in order. */
    private static final class Reader {
        private final List<Message> out;
        private final List<Part> turn = new ArrayList<>();
        /** Validation of a client's input before references are resolved: references are allowed. */
        private final boolean references;
        /** Makes the error for a place and what is wrong with it; the message never holds a value. */
        private final BiFunction<String, String, RuntimeException> fail;

        Reader(List<Message> out, boolean references, BiFunction<String, String, RuntimeException> fail) {
            this.out = out;
            this.references = references;
            this.fail = fail;
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
                    if (output instanceof JsonTree.Arr a && hasMedia(a)) {
                        List<Media> media = new ArrayList<>();
                        String text = contentParts(a, media);
                        out.add(new ToolResultMessage(item.requireString("call_id"), null, text, false, media));
                        return;
                    }
                    String content = output instanceof String s ? s
                            : output instanceof JsonTree.Obj o ? o.raw()
                            : output instanceof JsonTree.Arr a ? a.raw() : "";
                    out.add(new ToolResultMessage(item.requireString("call_id"), null, content, false));
                }
                case "item_reference" -> {
                    item.requireString("id");
                    if (!references) {
                        // never an empty turn: the earlier answer would vanish without a word
                        throw fail.apply(item.where("type"), "is an item_reference that was not resolved to an item");
                    }
                }
                default -> {
                    if (!BUILT_IN_ITEMS.contains(type)) {
                        throw fail.apply(item.where("type"), "is not an input item type this service reads");
                    }
                    turn.add(new ServerToolPart(type, item.string("id"), item.string("name"), item.raw(), Seals.NONE));
                }
            }
        }

        private void message(JsonTree.Obj item, String role) {
            switch (role) {
                case "user" -> {
                    flush();
                    if (item.get("content") instanceof JsonTree.Arr parts) {
                        List<Media> media = new ArrayList<>();
                        String text = contentParts(parts, media);
                        out.add(new UserMessage(text, media));
                    } else {
                        out.add(new UserMessage(text(item)));
                    }
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
                    String partType = p.string("type");
                    if ("reasoning".equals(partType)) {
                        addText(text, seals);
                        reasoning(p);
                    } else {
                        checkTextPart(p, partType, true);
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
            // the form a think-tag proxy documents: {"type":"reasoning","text":"…"}, raw reasoning
            String text = item.string("text");
            if (text != null && !text.isEmpty()) {
                turn.add(new ReasoningPart(text, false, ResponsesAssembler.RAW_SOURCE, idSeals(id)));
            }
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

        /**
         * Rejects a content part that is not text: reading it as text would drop it without a word.
         * A part with no type and a text is read as text, as before.
         */
        private void checkTextPart(JsonTree.Obj part, @Nullable String type, boolean assistant) {
            if (type == null || TEXT_PARTS.contains(type) || assistant && "refusal".equals(type)) {
                return;
            }
            if (type.equals("input_audio")) {
                throw fail.apply(part.where("type"), "is an audio content part, which this service does not support");
            }
            if (InputMedia.isMedia(type)) {
                throw fail.apply(part.where("type"), "is an image or file part, which this service reads in user messages"
                        + " and tool outputs only");
            }
            throw fail.apply(part.where("type"), "is not a content part type this service reads");
        }

        private void flush() {
            if (!turn.isEmpty()) {
                boolean calls = turn.stream().anyMatch(ToolCallPart.class::isInstance);
                out.add(new AssistantMessage(turn, null, null, calls ? FinishReason.TOOL_CALLS : FinishReason.STOP, null,
                        Usage.UNKNOWN));
                turn.clear();
            }
        }

        /** Tells whether an output array holds an image or a file part. */
        private static boolean hasMedia(JsonTree.Arr parts) {
            for (Object p : parts.items()) {
                if (p instanceof JsonTree.Obj o && InputMedia.isMedia(o.string("type"))) {
                    return true;
                }
            }
            return false;
        }

        /** Reads content parts: the joined text of the text parts, and the media of the image and file parts, in order. */
        private String contentParts(JsonTree.Arr parts, List<Media> media) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < parts.items().size(); i++) {
                JsonTree.Obj p = parts.object(i);
                String type = p.string("type");
                if (InputMedia.isMedia(type)) {
                    media.add(InputMedia.read(p, fail));
                } else {
                    checkTextPart(p, type, false);
                    sb.append(orEmpty(p.string("text")));
                }
            }
            return sb.toString();
        }

        /** Reads {@code content}: a string, or the joined text of its parts. */
        private String text(JsonTree.Obj item) {
            Object content = item.get("content");
            if (content instanceof String s) {
                return s;
            }
            if (content instanceof JsonTree.Arr parts) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < parts.items().size(); i++) {
                    JsonTree.Obj p = parts.object(i);
                    checkTextPart(p, p.string("type"), false);
                    sb.append(orEmpty(p.string("text")));
                }
                return sb.toString();
            }
            if (content == null || content == JsonTree.NULL) {
                return "";
            }
            throw JsonTree.shape(item.where("content") + " must be a string or an array of parts, was " + JsonTree.kind(content));
        }
    }

    private static final Set<String> TEXT_PARTS = Set.of("input_text", "output_text", "text", "summary_text",
            "reasoning_text");

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
