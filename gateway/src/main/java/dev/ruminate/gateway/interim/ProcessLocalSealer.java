package dev.ruminate.gateway.interim;

import dev.ruminate.gateway.state.SealedState;
import dev.ruminate.gateway.state.StateSealer;
import dev.ruminate.providers.serving.ClientRequestException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stand-in sealer that keeps states in this process and hands out random handles: unforgeable
 * (a handle is 128 random bits) but lost on restart. Replaced by the gateway's AES-GCM sealer.
 *
 * <p>Thread-safe.
 *
 * @since 0.2
 */
public final class ProcessLocalSealer implements StateSealer {

    private static final String PREFIX = "rgl1.";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, SealedState> states = new ConcurrentHashMap<>();

    /** Creates an empty sealer. */
    public ProcessLocalSealer() {
    }

    @Override
    public boolean looksSealed(String encryptedContent) {
        return encryptedContent.startsWith(PREFIX);
    }

    @Override
    public String seal(SealedState state) {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        String handle = PREFIX + HexFormat.of().formatHex(bytes);
        states.put(handle, Objects.requireNonNull(state, "state"));
        return handle;
    }

    @Override
    public SealedState open(String encryptedContent) {
        SealedState state = states.get(encryptedContent);
        if (state == null) {
            throw ClientRequestException.invalid("The encrypted content could not be verified.", null,
                    "invalid_encrypted_content");
        }
        return state;
    }
}
