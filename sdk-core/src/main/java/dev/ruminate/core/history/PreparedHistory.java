package dev.ruminate.core.history;

import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Message;
import dev.ruminate.core.request.ChatRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A request whose history {@link History#plan} prepared for a target, with the decisions made and
 * the map from the prepared conversation back to the conversation as given.
 *
 * <p>Two stages write a {@link SendBackPlan}: History (its decisions are {@link #entries()}), then
 * the target family's encoder, which works on {@link #request()} and records its own decisions on
 * prepared indices with {@link SendBackPlan.Builder#add}: take a builder from
 * {@link #planBuilder()} (it already holds History's entries and the index maps), hand it to the
 * encoder, then {@link SendBackPlan.Builder#build()}.
 *
 * <p>Immutable and thread-safe (each {@link #planBuilder()} is a new builder, owned by its caller).
 *
 * @since 0.2
 */
public final class PreparedHistory {

    private final ChatRequest request;
    private final List<PlanEntry> entries;
    private final int[] turnOrigin;
    private final int[][] partOrigin;

    PreparedHistory(ChatRequest request, List<PlanEntry> entries, int[] turnOrigin, int[][] partOrigin) {
        this.request = Objects.requireNonNull(request, "request");
        this.entries = List.copyOf(entries);
        this.turnOrigin = turnOrigin.clone();
        this.partOrigin = new int[partOrigin.length][];
        for (int i = 0; i < partOrigin.length; i++) {
            this.partOrigin[i] = partOrigin[i].clone();
        }
    }

    /**
     * Returns the request to encode: its messages prepared (the same request when nothing changed).
     *
     * @return the request
     */
    public ChatRequest request() {
        return request;
    }

    /**
     * Returns History's decisions, in the order made (turn by turn, part by part).
     *
     * @return the entries, unmodifiable
     */
    public List<PlanEntry> entries() {
        return entries;
    }

    /**
     * Returns History's decisions alone as a plan.
     *
     * @return the plan
     */
    public SendBackPlan plan() {
        return planBuilder().build();
    }

    /**
     * Returns a new builder holding History's decisions and the index maps, for the encoder stage
     * to add its own with {@link SendBackPlan.Builder#add}.
     *
     * @return a builder
     */
    public SendBackPlan.Builder planBuilder() {
        SendBackPlan.Builder b = SendBackPlan.builder(turnOrigin, partOrigin);
        for (PlanEntry e : entries) {
            b.addOriginal(e.turn(), e.part(), e.value(), e.action(), e.rule(), e.reason());
        }
        return b;
    }

    /**
     * Returns the index, in the conversation as given, of a prepared message.
     *
     * @param preparedTurn the message index in {@code request().messages()}
     * @return the index as given
     * @throws IndexOutOfBoundsException if there is no such prepared message
     */
    public int originalTurn(int preparedTurn) {
        return turnOrigin[preparedTurn];
    }

    /**
     * Returns the index, in the message as given, of a prepared assistant turn's part.
     *
     * @param preparedTurn the message index in {@code request().messages()}
     * @param preparedPart the part index in that prepared message
     * @return the part index as given
     * @throws IndexOutOfBoundsException if there is no such prepared part
     */
    public int originalPart(int preparedTurn, int preparedPart) {
        return partOrigin[preparedTurn][preparedPart];
    }

    /**
     * Returns this preparation continued by messages the SDK adds itself after the prepared ones,
     * such as the answer just received and a corrective turn asking for it again. The added
     * messages are not planned (they are the latest turn, from the provider the request goes to),
     * History's decisions are kept, and an added message maps to an index past the last prepared
     * message's index as given (the place it would have in the caller's conversation), each of its
     * parts to itself.
     *
     * @param sent this preparation's request as it was last sent: {@link #request()}, or the same
     *     messages with opaque state a recovery stripped (so the continuation is not refused again)
     * @param added the messages to append, in order
     * @return the continued preparation
     * @throws IllegalArgumentException if {@code sent} has another number of messages
     * @since 0.3
     */
    public PreparedHistory continuedWith(ChatRequest sent, List<Message> added) {
        if (sent.messages().size() != request.messages().size()) {
            throw new IllegalArgumentException("the request sent has " + sent.messages().size() + " messages, the prepared one "
                    + request.messages().size());
        }
        List<Message> messages = new ArrayList<>(sent.messages());
        messages.addAll(added);
        int n = turnOrigin.length;
        int[] turns = Arrays.copyOf(turnOrigin, n + added.size());
        int[][] parts = Arrays.copyOf(partOrigin, n + added.size());
        int next = n == 0 ? 0 : turnOrigin[n - 1] + 1;
        for (int i = 0; i < added.size(); i++) {
            turns[n + i] = next + i;
            int count = added.get(i) instanceof AssistantMessage a ? a.parts().size() : 0;
            int[] identity = new int[count];
            for (int j = 0; j < count; j++) {
                identity[j] = j;
            }
            parts[n + i] = identity;
        }
        return new PreparedHistory(sent.withMessages(messages), entries, turns, parts);
    }

    @Override
    public String toString() {
        return "PreparedHistory[" + request.messages().size() + " messages, " + entries.size() + " decisions]";
    }
}
