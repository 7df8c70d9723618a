package dev.ruminate.providers.anthropic;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.Usage;
import dev.ruminate.providers.internal.JsonWriting;
import dev.ruminate.providers.spi.ShapeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns the steps of one Anthropic message (start, content blocks opened, extended and closed,
 * message delta, stop) into chat events, for the stream decoder and the whole-body decoder alike.
 *
 * <p>Parts are numbered densely in the order blocks first produce an event, which, since Anthropic
 * sends one block after another, is the order of {@code content_block_start}. A text block that
 * never holds text produces no part: it carries nothing, and an empty text block sent back is
 * rejected by the API. Server-tool blocks ({@code server_tool_use}, {@code mcp_tool_use}, every
 * {@code *_tool_result} and any block type this decoder does not know) produce one
 * {@link ServerToolBlock} when they close, holding the block's JSON exactly as received, with a
 * streamed {@code input} assembled in place of the (empty) one of the start event, and a compaction
 * block's streamed {@code content} ({@code compaction_delta}) in place of the start event's null.
 *
 * <p>One instance per message; not thread-safe.
 */
final class MessageAssembler {

    /** The wire field Anthropic's reasoning comes in. */
    static final String SOURCE = "thinking";

    private enum Kind { THINKING, REDACTED, TEXT, TOOL, SERVER_TOOL }

    /** A content block between its start and its stop. */
    private static final class Block {
        final Kind kind;
        final String type;
        final @Nullable String id;
        final @Nullable String name;
        int part = -1;
        int toolIndex = -1;
        boolean argumentsSent;
        boolean stopped;
        /**
         * For server-tool blocks: the block's JSON before, of and after the field a stream fills in
         * with deltas ({@code input}, or a compaction block's {@code content}).
         */
        String before = "";
        String input = "";
        String after = "";
        @Nullable StringBuilder streamedInput;
        /** A compaction block's {@code content}, as its {@code compaction_delta}s gave it. */
        @Nullable StringBuilder streamedContent;

        Block(Kind kind, String type, @Nullable String id, @Nullable String name) {
            this.kind = kind;
            this.type = type;
            this.id = id;
            this.name = name;
        }
    }

    private final String provider;
    private final Map<Integer, Block> byIndex = new HashMap<>();
    private final List<Block> inOrder = new ArrayList<>();
    private int nextPart;
    private int toolCalls;
    private boolean started;
    private boolean completed;
    private @Nullable String stopReason;

    MessageAssembler(String provider) {
        this.provider = provider;
    }

    boolean started() {
        return started;
    }

    boolean completed() {
        return completed;
    }

    void start(@Nullable String id, @Nullable String model, @Nullable Usage usage, List<ChatEvent> out) {
        if (started) {
            throw new ShapeException("a second message_start");
        }
        started = true;
        out.add(new ResponseStarted(provider, model, id));
        usage(usage, out);
    }

    /**
     * Opens a content block. The block's byte offsets ({@link WireBlock#from}, …) are relative to
     * {@code base} in {@code source}, which is read during the call only.
     */
    void blockStart(int index, WireBlock b, byte[] source, int base, List<ChatEvent> out) {
        ensureStarted(out);
        if (byIndex.containsKey(index)) {
            throw new ShapeException("content block " + index + " started twice");
        }
        String type = b.type == null ? "" : b.type;
        Block block = switch (type) {
            case "thinking" -> new Block(Kind.THINKING, type, null, null);
            case "redacted_thinking" -> new Block(Kind.REDACTED, type, null, null);
            case "text" -> new Block(Kind.TEXT, type, null, null);
            case "tool_use" -> new Block(Kind.TOOL, type, b.id, b.name);
            default -> new Block(Kind.SERVER_TOOL, type, b.id != null ? b.id : b.toolUseId, b.name);
        };
        byIndex.put(index, block);
        inOrder.add(block);
        switch (block.kind) {
            case THINKING -> {
                if (b.thinking != null && !b.thinking.isEmpty()) {
                    out.add(new ReasoningDelta(part(block), b.thinking, false, SOURCE));
                }
                if (b.signature != null && !b.signature.isEmpty()) {
                    out.add(new Seal(part(block), Seal.Kind.SIGNATURE, b.signature));
                }
            }
            case REDACTED -> {
                if (b.data == null) {
                    throw new ShapeException("a redacted_thinking block has no data");
                }
                out.add(new Seal(part(block), Seal.Kind.REDACTED, b.data));
            }
            case TEXT -> {
                if (b.text != null && !b.text.isEmpty()) {
                    out.add(new ContentDelta(part(block), b.text));
                }
            }
            case TOOL -> {
                if (b.name == null) {
                    throw new ShapeException("a tool_use block has no name");
                }
                block.toolIndex = toolCalls++;
                String arguments = b.hasInput() && !b.inputEmpty ? utf8(source, base, b.inputFrom, b.inputTo) : "";
                block.argumentsSent = !arguments.isEmpty();
                out.add(new ToolCallDelta(part(block), block.toolIndex, b.id, b.name, arguments));
            }
            case SERVER_TOOL -> {
                if (b.hasInput()) {
                    block.before = utf8(source, base, b.from, b.inputFrom);
                    block.input = utf8(source, base, b.inputFrom, b.inputTo);
                    block.after = utf8(source, base, b.inputTo, b.to);
                } else if (b.hasContent()) {
                    block.before = utf8(source, base, b.from, b.contentFrom);
                    block.input = utf8(source, base, b.contentFrom, b.contentTo);
                    block.after = utf8(source, base, b.contentTo, b.to);
                } else {
                    block.before = utf8(source, base, b.from, b.to);
                }
            }
        }
    }

    void blockDelta(int index, @Nullable String type, @Nullable String text, List<ChatEvent> out) {
        Block block = open(index, "content_block_delta");
        if (type == null) {
            throw new ShapeException("a delta has no type");
        }
        switch (type) {
            case "thinking_delta" -> {
                expect(block, Kind.THINKING, type);
                if (text != null && !text.isEmpty()) {
                    out.add(new ReasoningDelta(part(block), text, false, SOURCE));
                }
            }
            case "signature_delta" -> {
                expect(block, Kind.THINKING, type);
                if (text != null && !text.isEmpty()) {
                    out.add(new Seal(part(block), Seal.Kind.SIGNATURE, text));
                }
            }
            case "text_delta" -> {
                expect(block, Kind.TEXT, type);
                if (text != null && !text.isEmpty()) {
                    out.add(new ContentDelta(part(block), text));
                }
            }
            case "input_json_delta" -> {
                if (block.kind == Kind.TOOL) {
                    if (text != null && !text.isEmpty()) {
                        block.argumentsSent = true;
                        out.add(new ToolCallDelta(part(block), block.toolIndex, null, null, text));
                    }
                } else if (block.kind == Kind.SERVER_TOOL) {
                    if (text != null) {
                        if (block.streamedInput == null) {
                            block.streamedInput = new StringBuilder();
                        }
                        block.streamedInput.append(text);
                    }
                } else {
                    throw new ShapeException("input_json_delta for a " + block.type + " block");
                }
            }
            case "compaction_delta" -> {
                // the summary of a compaction block comes only here ("content": null at its start);
                // without it the block sent back would have lost what it compacted
                if (block.kind != Kind.SERVER_TOOL) {
                    throw new ShapeException("compaction_delta for a " + block.type + " block");
                }
                if (text != null) {
                    if (block.streamedContent == null) {
                        block.streamedContent = new StringBuilder();
                    }
                    block.streamedContent.append(text);
                }
            }
            default -> {
                // citations_delta and delta types added later carry nothing a part holds
            }
        }
    }

    void blockStop(int index, List<ChatEvent> out) {
        Block block = open(index, "content_block_stop");
        close(block, out);
    }

    void messageDelta(@Nullable String reason, @Nullable Usage usage, List<ChatEvent> out) {
        ensureStarted(out);
        if (reason != null) {
            stopReason = reason;
        }
        usage(usage, out);
    }

    /** Ends every part still open, then completes the response. */
    void complete(List<ChatEvent> out) {
        ensureStarted(out);
        for (Block block : inOrder) {
            if (!block.stopped) {
                close(block, out);
            }
        }
        completed = true;
        out.add(new ResponseCompleted(StopReasons.normalize(stopReason), stopReason));
    }

    private void close(Block block, List<ChatEvent> out) {
        block.stopped = true;
        if (block.kind == Kind.TOOL && !block.argumentsSent) {
            // a call without parameters streams no input; "{}" is what its input is
            out.add(new ToolCallDelta(part(block), block.toolIndex, null, null, "{}"));
        }
        if (block.kind == Kind.SERVER_TOOL) {
            StringBuilder streamed = block.streamedInput;
            StringBuilder content = block.streamedContent;
            String json = streamed != null && !streamed.isEmpty() ? block.before + streamed + block.after
                    : content != null ? withContent(block, content.toString())
                    : block.before + block.input + block.after;
            out.add(new ServerToolBlock(part(block), block.type, block.id, block.name, json));
        }
        if (block.part >= 0) {
            out.add(new PartEnded(block.part));
        }
    }

    /**
     * Returns a compaction block's JSON with its streamed {@code content} in place of the start
     * event's (null), or added when the start event had none.
     */
    private static String withContent(Block block, String content) {
        String value = JsonWriting.quoted(content);
        if (!block.input.isEmpty()) {
            return block.before + value + block.after;
        }
        String whole = block.before;
        int close = whole.lastIndexOf('}');
        return whole.substring(0, close) + ",\"content\":" + value + whole.substring(close);
    }

    private void ensureStarted(List<ChatEvent> out) {
        if (!started) {
            // a proxy that drops message_start still gives a usable stream
            started = true;
            out.add(new ResponseStarted(provider, null, null));
        }
    }

    private Block open(int index, String event) {
        if (index < 0) {
            throw new ShapeException(event + " has no index");
        }
        Block block = byIndex.get(index);
        if (block == null) {
            throw new ShapeException(event + " for content block " + index + ", which was not started");
        }
        if (block.stopped) {
            throw new ShapeException(event + " for content block " + index + ", which has stopped");
        }
        return block;
    }

    private static void expect(Block block, Kind kind, String deltaType) {
        if (block.kind != kind) {
            throw new ShapeException(deltaType + " for a " + block.type + " block");
        }
    }

    private int part(Block block) {
        if (block.part < 0) {
            block.part = nextPart++;
        }
        return block.part;
    }

    private static void usage(@Nullable Usage usage, List<ChatEvent> out) {
        if (usage != null && !usage.isUnknown()) {
            out.add(new UsageUpdate(usage));
        }
    }

    private static String utf8(byte[] source, int base, int from, int to) {
        return new String(source, base + from, to - from, StandardCharsets.UTF_8);
    }
}
