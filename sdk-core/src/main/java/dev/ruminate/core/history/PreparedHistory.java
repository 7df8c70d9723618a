package dev.ruminate.core.history;

import dev.ruminate.core.request.ChatRequest;
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

    @Override
    public String toString() {
        return "PreparedHistory[" + request.messages().size() + " messages, " + entries.size() + " decisions]";
    }
}
