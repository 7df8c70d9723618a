package dev.ruminate.core.history;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How a provider sends earlier turns back: the retention of reasoning, the handling of turns
 * another provider produced, what happens to opaque values that fail their integrity checks, and
 * which endpoints the application declares equivalent.
 *
 * <p>Endpoint boundaries: opaque state goes back only to the endpoint identity that made it (the
 * same provider, API, endpoint and account fingerprint, see
 * {@link dev.ruminate.core.message.Origin}). The safe default declares nothing equivalent. An
 * application that knows two endpoints share their opaque state (two Azure deployment URLs of one
 * resource, say) declares them with {@link #withEquivalentEndpoints(String...)}; the account
 * fingerprints must still match unless it also turns the account check off with
 * {@link #withAccountCheck(boolean)} (one resource reached with its two keys, or a rotated key).
 *
 * <p>Immutable and thread-safe.
 *
 * @param retention how much reasoning goes back, or null for the provider's own default (each
 *     provider documents it)
 * @param foreignReasoning what happens to another provider's reasoning text, and to reasoning
 *     whose opaque state was stripped at an endpoint or model boundary
 * @param integrity what happens to an opaque value that fails its integrity checks
 * @param equivalentEndpoints groups of endpoint strings (as in
 *     {@link dev.ruminate.core.message.Origin#endpoint()}) the application declares equivalent;
 *     unmodifiable copies are kept
 * @param accountCheck true (the default) when account fingerprints must match for opaque state to
 *     be sent back; false compares provider, API and endpoint only
 * @since 0.1
 */
public record HistoryPolicy(@Nullable Retention retention, ForeignReasoning foreignReasoning, IntegrityPolicy integrity,
                            List<Set<String>> equivalentEndpoints, boolean accountCheck) {

    /**
     * The provider's default retention; other providers' reasoning dropped; bad opaque values
     * stripped; no endpoints equivalent; accounts checked.
     */
    public static final HistoryPolicy DEFAULT = new HistoryPolicy(null, ForeignReasoning.DROP);

    /**
     * Creates the value, checking its components.
     *
     * @param retention see {@link #retention()}
     * @param foreignReasoning see {@link #foreignReasoning()}
     * @param integrity see {@link #integrity()}
     * @param equivalentEndpoints see {@link #equivalentEndpoints()}
     * @param accountCheck see {@link #accountCheck()}
     * @since 0.2
     */
    public HistoryPolicy {
        Objects.requireNonNull(foreignReasoning, "foreignReasoning");
        Objects.requireNonNull(integrity, "integrity");
        List<Set<String>> groups = new ArrayList<>();
        for (Set<String> group : Objects.requireNonNull(equivalentEndpoints, "equivalentEndpoints")) {
            groups.add(Set.copyOf(group));
        }
        equivalentEndpoints = List.copyOf(groups);
    }

    /**
     * Creates a policy with the safe defaults for what it does not name: bad opaque values
     * stripped, no endpoints equivalent, accounts checked.
     *
     * @param retention see {@link #retention()}
     * @param foreignReasoning see {@link #foreignReasoning()}
     */
    public HistoryPolicy(@Nullable Retention retention, ForeignReasoning foreignReasoning) {
        this(retention, foreignReasoning, IntegrityPolicy.STRIP, List.of(), true);
    }

    /**
     * Returns a policy with a retention.
     *
     * @param value the retention
     * @return the policy
     */
    public HistoryPolicy withRetention(Retention value) {
        return new HistoryPolicy(Objects.requireNonNull(value, "value"), foreignReasoning, integrity, equivalentEndpoints,
                accountCheck);
    }

    /**
     * Returns a policy with a handling of other providers' reasoning.
     *
     * @param value the handling
     * @return the policy
     */
    public HistoryPolicy withForeignReasoning(ForeignReasoning value) {
        return new HistoryPolicy(retention, value, integrity, equivalentEndpoints, accountCheck);
    }

    /**
     * Returns a policy with a handling of opaque values that fail their integrity checks.
     *
     * @param value {@link IntegrityPolicy#STRIP} (the default) or {@link IntegrityPolicy#FAIL}
     * @return the policy
     * @since 0.2
     */
    public HistoryPolicy withIntegrity(IntegrityPolicy value) {
        return new HistoryPolicy(retention, foreignReasoning, value, equivalentEndpoints, accountCheck);
    }

    /**
     * Returns a policy that also declares a group of endpoints equivalent: opaque state made at
     * one of them may go back to any other (still within one provider and API, and, unless
     * {@link #withAccountCheck(boolean) the account check} is off, one account). Calling it again
     * declares another, separate group.
     *
     * @param endpoints the endpoint strings as {@link dev.ruminate.core.message.Origin#endpoint()}
     *     gives them (host, port and path, no scheme: {@code my-res.openai.azure.com/openai/v1}),
     *     at least two
     * @return the policy
     * @throws IllegalArgumentException if fewer than two distinct endpoints are given
     * @since 0.2
     */
    public HistoryPolicy withEquivalentEndpoints(String... endpoints) {
        Set<String> group = new LinkedHashSet<>();
        for (String e : endpoints) {
            group.add(Objects.requireNonNull(e, "endpoint"));
        }
        if (group.size() < 2) {
            throw new IllegalArgumentException("name at least two distinct endpoints to make them equivalent");
        }
        List<Set<String>> groups = new ArrayList<>(equivalentEndpoints);
        groups.add(group);
        return new HistoryPolicy(retention, foreignReasoning, integrity, groups, accountCheck);
    }

    /**
     * Returns a policy that compares account fingerprints (the default) or not. Turning it off
     * lets opaque state cross keys of one provider, API and endpoint (or declared-equivalent
     * endpoints): right for one resource used with two keys or after a key rotation, wrong for
     * two organisations, whose blobs the provider rejects.
     *
     * @param value true to compare accounts
     * @return the policy
     * @since 0.2
     */
    public HistoryPolicy withAccountCheck(boolean value) {
        return new HistoryPolicy(retention, foreignReasoning, integrity, equivalentEndpoints, value);
    }

    /**
     * Tells whether opaque state made at one endpoint may go back to another: the same string, or
     * both in one declared group.
     *
     * @param made the endpoint that made the state
     * @param target the endpoint the request goes to
     * @return true when equal or declared equivalent
     * @since 0.2
     */
    public boolean endpointsEquivalent(String made, String target) {
        if (made.equals(target)) {
            return true;
        }
        for (Set<String> group : equivalentEndpoints) {
            if (group.contains(made) && group.contains(target)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the retention to apply.
     *
     * @param providerDefault the provider's default
     * @return this policy's retention, or the default when it has none
     */
    public Retention retentionOr(Retention providerDefault) {
        return retention != null ? retention : Objects.requireNonNull(providerDefault, "providerDefault");
    }
}
