package dev.ruminate.providers.internal;

import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.SystemMessage;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JsonGenerator;

/**
 * The system messages of a conversation, for the APIs that take them apart from the turns (Anthropic's
 * {@code system}, Gemini's {@code systemInstruction}, Bedrock's {@code system}).
 *
 * <p>Stateless and thread-safe.
 */
public final class SystemTexts {

    private SystemTexts() {
    }

    /**
     * Returns the texts of the system messages, in their order.
     *
     * @param messages the conversation
     * @return the texts, possibly empty
     */
    public static List<String> of(List<Message> messages) {
        List<String> system = new ArrayList<>();
        for (Message m : messages) {
            if (m instanceof SystemMessage s) {
                system.add(s.text());
            }
        }
        return system;
    }

    /**
     * Writes each text as an object {@code {"text": …}}, the content block both Gemini and Bedrock
     * take.
     *
     * @param g the generator, in an array
     * @param texts the texts
     */
    public static void writeTextObjects(JsonGenerator g, List<String> texts) {
        for (String text : texts) {
            g.writeStartObject();
            g.writeStringProperty("text", text);
            g.writeEndObject();
        }
    }
}
