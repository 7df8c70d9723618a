package dev.ruminate.core.message;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A block of a tool the provider ran itself (web search, code execution, MCP…): the server's call
 * or its result, kept whole and in place so that it is neither lost nor mixed into the answer.
 *
 * <p>The application does not execute it; it may show it, and sends it back to the same provider
 * as it came.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param type the provider's type name for the block ({@code server_tool_use}, {@code web_search_call}, …)
 * @param id the provider's id of the call (for a result, of the call it answers), when given
 * @param name the tool's name, when given
 * @param json the provider's JSON for the whole block
 * @param seals opaque state attached to the block (a Gemini thought signature), usually none
 * @since 0.1
 */
public record ServerToolPart(String type, @Nullable String id, @Nullable String name, String json, Seals seals)
        implements Part {

    /**
     * Creates the value, checking its components.
     *
     * @param type see {@link #type()}
     * @param id see {@link #id()}
     * @param name see {@link #name()}
     * @param json see {@link #json()}
     * @param seals see {@link #seals()}
     */
    public ServerToolPart {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(seals, "seals");
    }

    /**
     * {@inheritDoc}
     *
     * @param seals the seals
     * @return this part with the seals
     */
    @Override
    public ServerToolPart withSeals(Seals seals) {
        return seals.equals(this.seals) ? this : new ServerToolPart(type, id, name, json, seals);
    }
}
