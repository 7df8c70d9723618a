package dev.ruminate.providers.responses;

import dev.ruminate.core.event.Seal;
import dev.ruminate.core.history.OpaqueFormats;
import dev.ruminate.core.history.OpaqueRules;
import dev.ruminate.core.message.AssistantMessage;
import dev.ruminate.core.message.Part;
import dev.ruminate.core.message.ReasoningPart;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The Responses API's opaque values: a reasoning item's {@code encrypted_content} and the item ids
 * ({@code rs_…}, {@code fc_…}). Blob formats differ by server: OpenAI's (and Azure's) are Fernet
 * tokens ({@code gAAAA…}, padded URL-safe base64, checked as such), xAI's unpadded base64,
 * DeepSeek's and Bedrock Mantle's their own; those and the ids are only required to be non-empty
 * ({@link OpaqueFormats#encryptedBlob}).
 *
 * <p>Across a turn's parts: encrypted content must ride with its item id (the server pairs the blob
 * with the item; the encoder cannot send a blob without an id), and the parts of one reasoning item
 * must be consecutive (the encoder regroups them into one item; an id in two places would make two
 * items with one id). A reasoning item id without encrypted content is not a problem here: a
 * stateful server resolves it, and for a stateless one the encoder leaves the item out (rule R3).
 *
 * <p>Not bound to the model (UNVERIFIED): a blob is bound to its item id and to the organisation or
 * key that made it, which the endpoint identity's account covers.
 *
 * <p>Stateless and thread-safe.
 */
final class ResponsesOpaqueRules implements OpaqueRules {

    static final ResponsesOpaqueRules INSTANCE = new ResponsesOpaqueRules();

    private ResponsesOpaqueRules() {
    }

    @Override
    public @Nullable String problem(Part part, Seal.Kind kind, String value) {
        if (kind == Seal.Kind.ENCRYPTED) {
            return OpaqueFormats.encryptedBlob(value);
        }
        return kind == Seal.Kind.ITEM_ID || kind == Seal.Kind.FORMAT ? OpaqueFormats.nonEmpty(value) : null;
    }

    @Override
    public List<Problem> problems(AssistantMessage turn) {
        List<Problem> out = new ArrayList<>();
        Set<String> closedItems = new HashSet<>();
        @Nullable String openItem = null;
        List<Part> parts = turn.parts();
        for (int j = 0; j < parts.size(); j++) {
            Part p = parts.get(j);
            String id = p.seals().itemId();
            if (p instanceof ReasoningPart && p.seals().encrypted() != null && id == null) {
                out.add(new Problem(j, Seal.Kind.ENCRYPTED,
                        "encrypted reasoning without its item id: the server pairs the two"));
            }
            if (!(p instanceof ReasoningPart) || id == null) {
                if (openItem != null) {
                    closedItems.add(openItem);
                }
                openItem = null;
                continue;
            }
            if (!id.equals(openItem)) {
                if (closedItems.contains(id)) {
                    out.add(new Problem(j, Seal.Kind.ITEM_ID,
                            "a reasoning item's parts are not consecutive: its id appears in two places of the turn"));
                }
                if (openItem != null) {
                    closedItems.add(openItem);
                }
                openItem = id;
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "ResponsesOpaqueRules";
    }
}
