package dev.ruminate.core.json;

import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ContentDelta;
import dev.ruminate.core.event.PartEnded;
import dev.ruminate.core.event.ReasoningDelta;
import dev.ruminate.core.event.ReasoningFinal;
import dev.ruminate.core.event.ResponseCompleted;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Seal;
import dev.ruminate.core.event.ServerToolBlock;
import dev.ruminate.core.event.ToolCallDelta;
import dev.ruminate.core.event.UsageUpdate;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.FinishReason;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.message.Provenance;
import dev.ruminate.core.message.Seals;
import dev.ruminate.core.message.ServerToolPart;
import dev.ruminate.core.message.SystemMessage;
import dev.ruminate.core.message.TextPart;
import dev.ruminate.core.message.ToolCallPart;
import dev.ruminate.core.message.ToolResultMessage;
import dev.ruminate.core.message.Usage;
import dev.ruminate.core.message.UserMessage;
import dev.ruminate.core.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/** Random events and messages for the round-trip properties: awkward text, every optional value present or not. */
final class Samples {

    private static final String[] PIECES = {"a", "Z", " ", "\n", "\r\n", "\t", "\"", "\\", "/", "é", "中", "😀", "\u0000",
        "\u2028", "<think>", "}", "{\"x\":1}", "reasoning_content", ""};
    private static final String[] BLOCKS = {"{}", "{\"type\":\"web_search_call\",\"id\":\"ws_1\",\"status\":\"completed\"}",
        "{\"a\":[1,2.5,true,null,\"\\\"q\\\"\"],\"b\":{\"c\":\"😀\"}}"};

    private final Random random;

    Samples(long seed) {
        this.random = Seeds.random(seed);
    }

    String text() {
        int n = random.nextInt(8);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }

    @Nullable String maybe() {
        return random.nextBoolean() ? text() : null;
    }

    @Nullable Long count() {
        return random.nextBoolean() ? (long) random.nextInt(100_000) : null;
    }

    Usage usage() {
        return new Usage(count(), count(), count(), count());
    }

    Seals seals() {
        if (random.nextInt(3) == 0) {
            return Seals.NONE;
        }
        Seals s = new Seals(maybe(), maybe(), maybe(), maybe(), maybe());
        // provenance is written with the state it describes: none on empty seals
        return s.isEmpty() || random.nextBoolean() ? s
                : s.withProvenance(new Provenance(origin(), maybe(), random.nextInt(20), random.nextBoolean()));
    }

    Origin origin() {
        return new Origin(text(), text(), text(), maybe());
    }

    int part() {
        return random.nextInt(50);
    }

    ChatEvent event() {
        switch (random.nextInt(10)) {
            case 0:
                return random.nextBoolean() ? new ResponseStarted(text(), maybe(), maybe())
                        : new ResponseStarted(text(), maybe(), maybe(), origin());
            case 1:
                return new ReasoningDelta(part(), text(), random.nextBoolean(), text());
            case 2:
                return new ContentDelta(part(), text());
            case 3:
                return new ToolCallDelta(part(), random.nextInt(5), maybe(), maybe(), text());
            case 4:
                return new ServerToolBlock(part(), text(), maybe(), maybe(), BLOCKS[random.nextInt(BLOCKS.length)]);
            case 5:
                return new Seal(part(), Seal.Kind.values()[random.nextInt(Seal.Kind.values().length)], text());
            case 6:
                return new PartEnded(part());
            case 7:
                return new ReasoningFinal(part(), text());
            case 8:
                return new UsageUpdate(usage());
            default:
                return new ResponseCompleted(FinishReason.values()[random.nextInt(FinishReason.values().length)], maybe());
        }
    }

    Part messagePart() {
        switch (random.nextInt(4)) {
            case 0:
                return new ReasoningPart(text(), random.nextBoolean(), maybe(), seals());
            case 1:
                return new TextPart(text(), seals());
            case 2:
                return new ToolCallPart(maybe(), text(), text(), random.nextBoolean(), seals());
            default:
                return new ServerToolPart(text(), maybe(), maybe(), BLOCKS[random.nextInt(BLOCKS.length)], seals());
        }
    }

    Message message() {
        switch (random.nextInt(5)) {
            case 0:
                return new SystemMessage(text());
            case 1:
                return new UserMessage(text());
            case 2:
                return new ToolResultMessage(text(), maybe(), text(), random.nextBoolean());
            default:
                List<Part> parts = new ArrayList<>();
                int n = random.nextInt(6);
                for (int i = 0; i < n; i++) {
                    parts.add(messagePart());
                }
                return new AssistantMessage(parts, maybe(), maybe(),
                        FinishReason.values()[random.nextInt(FinishReason.values().length)], maybe(), usage());
        }
    }
}
