package dev.ruminate.providers.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ruminate.core.error.ProtocolException;
import dev.ruminate.providers.chatcompletions.ChatCompletionsRequestReader;
import dev.ruminate.providers.responses.ResponsesInput;
import dev.ruminate.providers.responses.ResponsesRequestReader;
import dev.ruminate.providers.serving.ClientRequestException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes the request parsing of a service that answers OpenAI-shaped requests with any provider (the
 * gateway's): whatever the body, {@link ResponsesRequestReader} and {@link ChatCompletionsRequestReader}
 * return a call or throw their documented {@link ClientRequestException}, {@link ResponsesInput#read}
 * returns a conversation or throws its {@link ProtocolException}, and {@link ResponsesInput#readItems}
 * returns one or throws a {@code ClientRequestException}, or an {@code IllegalArgumentException} for
 * an item that is not one JSON value; never another exception.
 *
 * <p>Input: byte 0 picks the reader (mod 4), the rest is the body as UTF-8. For {@code readItems} the
 * body is cut into items at each {@code 0x1e} byte (record separator), and its first item is the
 * instructions.
 */
class RequestReadersFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void fuzz(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String body = new String(Arrays.copyOfRange(data, 1, data.length), StandardCharsets.UTF_8);
        try {
            switch (data[0] & 3) {
                case 0 -> ResponsesRequestReader.read(body);
                case 1 -> ChatCompletionsRequestReader.read(body);
                case 2 -> {
                    try {
                        ResponsesInput.read(body);
                    } catch (ProtocolException expected) {
                        // documented: not JSON, or not Responses input
                    }
                }
                default -> {
                    List<String> items = new ArrayList<>(Arrays.asList(body.split("\u001e", -1)));
                    String instructions = items.remove(0);
                    try {
                        ResponsesInput.readItems(items, instructions);
                    } catch (IllegalArgumentException e) {
                        // documented: an item that is not exactly one JSON value; any other is a finding
                        if (!String.valueOf(e.getMessage()).endsWith("is not one JSON value")) {
                            throw e;
                        }
                    }
                }
            }
        } catch (ClientRequestException expected) {
            // documented: the client's request is wrong (400) or too large (413)
        }
    }
}
