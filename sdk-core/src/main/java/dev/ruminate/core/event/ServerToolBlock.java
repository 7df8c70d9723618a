package dev.ruminate.core.event;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A block produced by a tool the provider runs itself (web search, web fetch, code execution, an
 * MCP server, a hosted shell…): the call the server made or the result it got, delivered whole.
 *
 * <p>Such a block is neither reasoning nor answer nor a call for the application to execute, so it
 * is its own part. The decoder emits one {@code ServerToolBlock} per part, once the block is
 * complete (for Anthropic's {@code server_tool_use}, after its streamed input), followed by the
 * part's {@link PartEnded}. {@link #json()} is the provider's own JSON for the block, so that a
 * later request can send it back as the API expects.
 *
 * <p>Immutable and thread-safe. Components are non-null unless marked {@code @Nullable}.
 *
 * @param part the part this block is
 * @param type the provider's type name for the block ({@code server_tool_use},
 *     {@code web_search_tool_result}, {@code web_search_call}, {@code mcp_call},
 *     {@code executableCode}, …)
 * @param id the provider's id of the call (for a result: the id of the call it answers), when given
 * @param name the tool's name ({@code web_search}, {@code code_execution}, an MCP tool), when given
 * @param json the whole block as one JSON object, as the provider sent it (for a streamed call, with
 *     the assembled input in place)
 * @since 0.1
 */
public record ServerToolBlock(int part, String type, @Nullable String id, @Nullable String name, String json)
        implements ChatEvent {

    /**
     * Creates the value, checking its components.
     *
     * @param part see {@link #part()}
     * @param type see {@link #type()}
     * @param id see {@link #id()}
     * @param name see {@link #name()}
     * @param json see {@link #json()}
     */
    public ServerToolBlock {
        Parts.requireIndex(part);
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(json, "json");
    }
}
