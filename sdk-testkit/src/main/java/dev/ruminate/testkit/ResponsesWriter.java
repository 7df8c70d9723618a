package dev.ruminate.testkit;

import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes the steps of a {@link ResponsesScript} as SSE events or as a non-streaming response body:
 * each step is one output item, its id {@code msg_} or {@code fc_} and its position unless it has its own.
 */
final class ResponsesWriter {

    private static final String FORMAT = "Responses";

    /** Which view of an item's encrypted content an event shows. */
    private enum View { ADDED, DONE, FINAL }

    private final ResponsesScript script;
    private final StringBuilder sse = new StringBuilder();
    private int sequence;

    ResponsesWriter(ResponsesScript script) {
        this.script = script;
    }

    String sse() {
        event("response.created", g -> response(g, "in_progress", false));
        event("response.in_progress", g -> response(g, "in_progress", false));
        List<Step> steps = script.steps();
        for (int i = 0; i < steps.size(); i++) {
            int index = i;
            Step step = steps.get(i);
            event("response.output_item.added", g -> {
                g.writeNumberProperty("output_index", index);
                g.writeName("item");
                item(g, step, index, View.ADDED);
            });
            if (step instanceof Step.Reasoning r) {
                reasoningEvents(index, r);
            } else if (step instanceof Step.Text t) {
                contentEvents(index, itemId(step, index), "output_text", "response.output_text", t.text());
            } else if (step instanceof Step.ToolCall c) {
                callEvents(index, c);
            } else {
                throw Step.unsupported(step, FORMAT);
            }
            event("response.output_item.done", g -> {
                g.writeNumberProperty("output_index", index);
                g.writeName("item");
                item(g, step, index, View.DONE);
            });
        }
        switch (script.terminal()) {
            case COMPLETED -> event("response.completed", g -> response(g, "completed", true));
            case INCOMPLETE -> event("response.incomplete", g -> response(g, "incomplete", true));
            case FAILED -> event("response.failed", g -> response(g, "failed", true));
            case NONE -> {
                // a stream cut short: no terminal event
            }
        }
        if (script.doneSentinel()) {
            sse.append("data: [DONE]\n\n");
        }
        return sse.toString();
    }

    String body() {
        String status = switch (script.terminal()) {
            case INCOMPLETE -> "incomplete";
            case FAILED -> "failed";
            default -> "completed";
        };
        // a whole body has one view of each item; there is nothing to re-encrypt against
        return Json.object(g -> responseFields(g, status, true, View.DONE));
    }

    private void reasoningEvents(int index, Step.Reasoning r) {
        String id = itemId(r, index);
        List<String> summaries = summaries(r);
        for (int s = 0; s < summaries.size(); s++) {
            int summary = s;
            String text = summaries.get(s);
            event("response.reasoning_summary_part.added", g -> {
                itemRef(g, id, index);
                g.writeNumberProperty("summary_index", summary);
                part(g, "summary_text", "");
            });
            for (String piece : script.pieces(text)) {
                event("response.reasoning_summary_text.delta", g -> {
                    itemRef(g, id, index);
                    g.writeNumberProperty("summary_index", summary);
                    g.writeStringProperty("delta", piece);
                });
            }
            event("response.reasoning_summary_text.done", g -> {
                itemRef(g, id, index);
                g.writeNumberProperty("summary_index", summary);
                g.writeStringProperty("text", text);
            });
            event("response.reasoning_summary_part.done", g -> {
                itemRef(g, id, index);
                g.writeNumberProperty("summary_index", summary);
                part(g, "summary_text", text);
            });
        }
        String raw = rawText(r);
        if (raw != null) {
            contentEvents(index, id, "reasoning_text", "response.reasoning_text", raw);
        }
    }

    private void contentEvents(int index, String itemId, String partType, String prefix, String text) {
        event("response.content_part.added", g -> {
            itemRef(g, itemId, index);
            g.writeNumberProperty("content_index", 0);
            part(g, partType, "");
        });
        for (String piece : script.pieces(text)) {
            event(prefix + ".delta", g -> {
                itemRef(g, itemId, index);
                g.writeNumberProperty("content_index", 0);
                g.writeStringProperty("delta", piece);
            });
        }
        event(prefix + ".done", g -> {
            itemRef(g, itemId, index);
            g.writeNumberProperty("content_index", 0);
            g.writeStringProperty("text", text);
        });
        event("response.content_part.done", g -> {
            itemRef(g, itemId, index);
            g.writeNumberProperty("content_index", 0);
            part(g, partType, text);
        });
    }

    private void callEvents(int index, Step.ToolCall c) {
        String id = itemId(c, index);
        if (script.argumentDeltas()) {
            for (String piece : script.fragments(c.arguments())) {
                event("response.function_call_arguments.delta", g -> {
                    itemRef(g, id, index);
                    g.writeStringProperty("delta", piece);
                });
            }
        }
        event("response.function_call_arguments.done", g -> {
            itemRef(g, id, index);
            g.writeStringProperty("arguments", c.arguments());
        });
    }

    private void response(JsonGenerator g, String status, boolean complete) {
        g.writeName("response");
        g.writeStartObject();
        responseFields(g, status, complete, View.FINAL);
        g.writeEndObject();
    }

    private void responseFields(JsonGenerator g, String status, boolean complete, View itemView) {
        g.writeStringProperty("id", script.id());
        g.writeStringProperty("object", "response");
        g.writeNumberProperty("created_at", script.createdAt());
        g.writeStringProperty("status", status);
        if ("failed".equals(status)) {
            g.writeName("error");
            g.writeStartObject();
            g.writeStringProperty("code", script.errorCode());
            g.writeStringProperty("message", script.errorMessage());
            g.writeEndObject();
        } else {
            g.writeNullProperty("error");
        }
        if ("incomplete".equals(status)) {
            g.writeName("incomplete_details");
            g.writeStartObject();
            g.writeStringProperty("reason", script.incompleteReason());
            g.writeEndObject();
        } else {
            g.writeNullProperty("incomplete_details");
        }
        g.writeStringProperty("model", script.model());
        g.writeName("output");
        g.writeStartArray();
        if (complete) {
            List<Step> steps = script.steps();
            for (int i = 0; i < steps.size(); i++) {
                item(g, steps.get(i), i, itemView);
            }
        }
        g.writeEndArray();
        ResponsesScript.Usage usage = script.usage();
        if (complete && usage != null) {
            g.writeName("usage");
            g.writeStartObject();
            g.writeNumberProperty("input_tokens", usage.input());
            g.writeName("input_tokens_details");
            g.writeStartObject();
            g.writeNumberProperty("cached_tokens", usage.cached());
            g.writeEndObject();
            g.writeNumberProperty("output_tokens", usage.output());
            g.writeName("output_tokens_details");
            g.writeStartObject();
            g.writeNumberProperty("reasoning_tokens", usage.reasoning());
            g.writeEndObject();
            g.writeNumberProperty("total_tokens", (long) usage.input() + usage.output());
            g.writeEndObject();
        } else {
            g.writeNullProperty("usage");
        }
    }

    private void item(JsonGenerator g, Step step, int index, View view) {
        boolean added = view == View.ADDED;
        g.writeStartObject();
        g.writeStringProperty("id", itemId(step, index));
        if (step instanceof Step.Reasoning r) {
            g.writeStringProperty("type", "reasoning");
            String encrypted = encrypted(r.signature(), view);
            if (encrypted != null) {
                g.writeStringProperty("encrypted_content", encrypted);
            }
            g.writeName("summary");
            g.writeStartArray();
            if (!added) {
                for (String s : summaries(r)) {
                    textPart(g, "summary_text", s);
                }
            }
            g.writeEndArray();
            String raw = rawText(r);
            if (raw != null) {
                g.writeName("content");
                g.writeStartArray();
                if (!added) {
                    textPart(g, "reasoning_text", raw);
                }
                g.writeEndArray();
            }
        } else if (step instanceof Step.Text t) {
            g.writeStringProperty("type", "message");
            g.writeStringProperty("status", added ? "in_progress" : "completed");
            g.writeName("content");
            g.writeStartArray();
            if (!added) {
                g.writeStartObject();
                g.writeStringProperty("type", "output_text");
                g.writeName("annotations");
                g.writeStartArray();
                g.writeEndArray();
                g.writeStringProperty("text", t.text());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeStringProperty("role", "assistant");
        } else if (step instanceof Step.ToolCall c) {
            g.writeStringProperty("type", "function_call");
            g.writeStringProperty("status", added ? "in_progress" : "completed");
            g.writeStringProperty("arguments", added ? "" : c.arguments());
            g.writeStringProperty("call_id", c.id());
            g.writeStringProperty("name", c.name());
        }
        g.writeEndObject();
    }

    /** A reasoning item's own id; a message {@code msg_}, a call {@code fc_}, and its position. */
    private static String itemId(Step step, int index) {
        if (step instanceof Step.Reasoning r && r.id() != null) {
            return r.id();
        }
        return (step instanceof Step.ToolCall ? "fc_" : "msg_") + index;
    }

    private static List<String> summaries(Step.Reasoning r) {
        return r.summary() ? r.texts() : List.of();
    }

    private static @Nullable String rawText(Step.Reasoning r) {
        return r.summary() ? null : r.text();
    }

    private @Nullable String encrypted(@Nullable String blob, View view) {
        if (blob == null) {
            return null;
        }
        if (!script.reencrypt()) {
            return view == View.ADDED ? null : blob;
        }
        return switch (view) {
            case ADDED -> blob + "-added";
            case DONE -> blob;
            case FINAL -> blob + "-final";
        };
    }

    private static void itemRef(JsonGenerator g, String itemId, int index) {
        g.writeStringProperty("item_id", itemId);
        g.writeNumberProperty("output_index", index);
    }

    private static void part(JsonGenerator g, String type, String text) {
        g.writeName("part");
        textPart(g, type, text);
    }

    private static void textPart(JsonGenerator g, String type, String text) {
        g.writeStartObject();
        g.writeStringProperty("type", type);
        g.writeStringProperty("text", text);
        g.writeEndObject();
    }

    /** Writes one event: its type as the event name and first in the data, then its sequence number. */
    private void event(String type, Consumer<JsonGenerator> fields) {
        int n = sequence++;
        String data = Json.object(g -> {
            g.writeStringProperty("type", type);
            g.writeNumberProperty("sequence_number", n);
            fields.accept(g);
        });
        sse.append("event: ").append(type).append("\ndata: ").append(data).append("\n\n");
    }
}
