package dev.ruminate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

class ResponsesScriptTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** An event as written: its {@code event:} name and its parsed data. */
    record Event(String name, JsonNode data) {
        String type() {
            return data.get("type").stringValue();
        }
    }

    /** Reads the events back, checking that each block is exactly an event line and a data line. */
    private static List<Event> events(String sse) {
        assertThat(sse).endsWith("\n\n");
        List<Event> events = new ArrayList<>();
        for (String block : sse.substring(0, sse.length() - 2).split("\n\n", -1)) {
            String[] lines = block.split("\n", -1);
            assertThat(lines).hasSize(2);
            assertThat(lines[0]).startsWith("event: ");
            assertThat(lines[1]).startsWith("data: {\"type\":\"" + lines[0].substring(7) + "\",\"sequence_number\":");
            events.add(new Event(lines[0].substring(7), MAPPER.readTree(lines[1].substring(6))));
        }
        return events;
    }

    private static List<String> types(List<Event> events) {
        return events.stream().map(Event::name).toList();
    }

    private static String joined(List<Event> events, String type, String field) {
        return events.stream().filter(e -> e.name().equals(type)).map(e -> e.data().get(field).stringValue())
                .collect(Collectors.joining());
    }

    @Test
    void writesTheOpenAiEventSequenceWithNamesAndSequenceNumbers() {
        String sse = ResponsesScript.create().id("resp_9").model("o4-mini")
                .reasoning("rs_1", "BLOB", "Plan it", "Check it")
                .text("Hi!")
                .usage(13, 40, 24, 5)
                .tokensOf(3)
                .toSse();
        List<Event> events = events(sse);

        assertThat(types(events)).containsExactly(
                "response.created", "response.in_progress",
                "response.output_item.added",
                "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.delta", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.done", "response.reasoning_summary_part.done",
                "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.delta", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.done", "response.reasoning_summary_part.done",
                "response.output_item.done",
                "response.output_item.added", "response.content_part.added", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed");
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).type()).isEqualTo(events.get(i).name());
            assertThat(events.get(i).data().get("sequence_number").intValue()).isEqualTo(i);
        }
        assertThat(events.get(0).data().get("response").get("id").stringValue()).isEqualTo("resp_9");
        assertThat(events.get(0).data().get("response").get("model").stringValue()).isEqualTo("o4-mini");
        assertThat(events.get(4).data().get("delta").stringValue()).isEqualTo("Pla");
        assertThat(events.get(4).data().get("summary_index").intValue()).isZero();
        assertThat(events.get(10).data().get("summary_index").intValue()).isEqualTo(1);
        assertThat(events.get(7).data().get("text").stringValue()).isEqualTo("Plan it");
        assertThat(joined(events, "response.output_text.delta", "delta")).isEqualTo("Hi!");

        JsonNode done = events.get(15).data().get("item");
        assertThat(done.get("id").stringValue()).isEqualTo("rs_1");
        assertThat(done.get("summary").get(1).get("text").stringValue()).isEqualTo("Check it");
        // re-encrypted per event, as OpenAI does
        assertThat(events.get(2).data().get("item").get("encrypted_content").stringValue()).isEqualTo("BLOB-added");
        assertThat(done.get("encrypted_content").stringValue()).isEqualTo("BLOB");
        JsonNode completed = events.get(events.size() - 1).data().get("response");
        assertThat(completed.get("status").stringValue()).isEqualTo("completed");
        assertThat(completed.get("output").get(0).get("encrypted_content").stringValue()).isEqualTo("BLOB-final");
        assertThat(completed.get("output").get(1).get("content").get(0).get("text").stringValue()).isEqualTo("Hi!");
        assertThat(completed.get("usage")).isEqualTo(MAPPER.readTree("{\"input_tokens\":13,\"input_tokens_details\":"
                + "{\"cached_tokens\":5},\"output_tokens\":40,\"output_tokens_details\":{\"reasoning_tokens\":24},\"total_tokens\":53}"));
        assertThat(sse).doesNotContain("[DONE]");
    }

    @Test
    void rawReasoningAndFunctionCallsWithOrWithoutArgumentDeltas() {
        List<Event> events = events(ResponsesScript.create().rawReasoning("rs_r", "We think.")
                .functionCall("call_1", "weather", "{\"city\":\"Paris\"}").tokensOf(5).toSse());

        assertThat(joined(events, "response.reasoning_text.delta", "delta")).isEqualTo("We think.");
        assertThat(joined(events, "response.reasoning_text.done", "text")).isEqualTo("We think.");
        assertThat(events.get(3).data().get("part").get("type").stringValue()).isEqualTo("reasoning_text");
        JsonNode added = events.stream().filter(e -> e.name().equals("response.output_item.added")).toList().get(1).data();
        assertThat(added.get("output_index").intValue()).isEqualTo(1);
        assertThat(added.get("item").get("type").stringValue()).isEqualTo("function_call");
        assertThat(added.get("item").get("call_id").stringValue()).isEqualTo("call_1");
        assertThat(added.get("item").get("arguments").stringValue()).isEmpty();
        assertThat(joined(events, "response.function_call_arguments.delta", "delta")).isEqualTo("{\"city\":\"Paris\"}");
        assertThat(joined(events, "response.function_call_arguments.done", "arguments")).isEqualTo("{\"city\":\"Paris\"}");

        List<Event> lmStudio = events(ResponsesScript.create().functionCall("c", "f", "{}").argumentDeltas(false).toSse());
        assertThat(types(lmStudio)).doesNotContain("response.function_call_arguments.delta")
                .contains("response.function_call_arguments.done");
    }

    @Test
    void endsAsScripted() {
        assertThat(types(events(ResponsesScript.create().text("x").incomplete("max_output_tokens").toSse())))
                .endsWith("response.incomplete");
        List<Event> failed = events(ResponsesScript.create().failed("server_error", "Boom").toSse());
        assertThat(failed.get(failed.size() - 1).data().get("response").get("error").get("message").stringValue())
                .isEqualTo("Boom");
        assertThat(types(events(ResponsesScript.create().text("x").noTerminal().toSse())))
                .endsWith("response.output_item.done");
        assertThat(ResponsesScript.create().text("x").doneSentinel(true).toSse()).endsWith("\n\ndata: [DONE]\n\n");
    }

    @Test
    void xaiStyleKeepsOneBlobAndNoneInAdded() {
        List<Event> events = events(ResponsesScript.create().reasoning("rs_x", "ONE").reencrypt(false).toSse());

        assertThat(events.get(2).data().get("item").has("encrypted_content")).isFalse();
        assertThat(events.get(3).data().get("item").get("encrypted_content").stringValue()).isEqualTo("ONE");
        assertThat(events.get(4).data().get("response").get("output").get(0).get("encrypted_content").stringValue())
                .isEqualTo("ONE");
    }

    @Test
    void theBodyIsTheFinalResponse() {
        JsonNode body = MAPPER.readTree(ResponsesScript.create().id("resp_b").reasoning("rs_1", "E", "S")
                .functionCall("call_1", "f", "{}").usage(1, 2, 0, 0).incomplete("content_filter").toResponseJson());

        assertThat(body.get("id").stringValue()).isEqualTo("resp_b");
        assertThat(body.get("status").stringValue()).isEqualTo("incomplete");
        assertThat(body.get("incomplete_details").get("reason").stringValue()).isEqualTo("content_filter");
        assertThat(body.get("output")).hasSize(2);
        assertThat(body.get("output").get(0).get("encrypted_content").stringValue()).isEqualTo("E");
        assertThat(body.get("output").get(1).get("arguments").stringValue()).isEqualTo("{}");
        assertThat(body.get("usage").get("total_tokens").intValue()).isEqualTo(3);
    }

    @Test
    void cutsDeltasByCodePoints() {
        List<Event> events = events(ResponsesScript.create().text("a😀b😀😀cd🧠").tokensOf(2).toSse());

        assertThat(events.stream().filter(e -> e.name().equals("response.output_text.delta"))
                .map(e -> e.data().get("delta").stringValue())).containsExactly("a😀", "b😀", "😀c", "d🧠");
        assertThatThrownBy(() -> ResponsesScript.create().tokensOf(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ResponsesScript.create().usage(-1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
