package dev.ruminate.testkit;

import java.util.ArrayList;
import java.util.List;

/** Reads back the SSE text a script wrote, enough to check it: events are separated by blank lines. */
final class SseText {

    /** One event block: its comment lines and its data, or null data for a comment-only block. */
    record Block(List<String> comments, String data) {
    }

    private SseText() {
    }

    static List<Block> blocks(String sse) {
        if (!sse.endsWith("\n\n")) {
            throw new AssertionError("SSE text must end with a blank line: " + sse);
        }
        List<Block> blocks = new ArrayList<>();
        for (String block : sse.substring(0, sse.length() - 2).split("\n\n", -1)) {
            List<String> comments = new ArrayList<>();
            StringBuilder data = null;
            for (String line : block.split("\n", -1)) {
                if (line.startsWith(": ")) {
                    comments.add(line.substring(2));
                } else if (line.startsWith("data: ")) {
                    data = data == null ? new StringBuilder() : data.append('\n');
                    data.append(line.substring(6));
                } else {
                    throw new AssertionError("unexpected SSE line: " + line);
                }
            }
            blocks.add(new Block(comments, data == null ? "" : data.toString()));
        }
        return blocks;
    }

    static List<String> data(String sse) {
        List<String> data = new ArrayList<>();
        for (Block block : blocks(sse)) {
            if (!block.data().isEmpty()) {
                data.add(block.data());
            }
        }
        return data;
    }
}
