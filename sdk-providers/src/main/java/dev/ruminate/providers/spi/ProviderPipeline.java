package dev.ruminate.providers.spi;

import dev.ruminate.core.error.InvalidRequestException;
import dev.ruminate.core.error.OpaqueStateRejectedException;
import dev.ruminate.core.error.ProviderHttpException;
import dev.ruminate.core.error.RuminateException;
import dev.ruminate.core.event.ChatEvent;
import dev.ruminate.core.event.ResponseStarted;
import dev.ruminate.core.event.Warning;
import dev.ruminate.core.history.History;
import dev.ruminate.core.history.HistoryPolicy;
import dev.ruminate.core.history.PreparedHistory;
import dev.ruminate.core.history.Retention;
import dev.ruminate.core.history.SendBackPlan;
import dev.ruminate.core.history.SendTarget;
import dev.ruminate.core.message.Origin;
import dev.ruminate.core.request.ChatRequest;
import dev.ruminate.core.think.ThinkTagOptions;
import dev.ruminate.core.think.ThinkTags;
import dev.ruminate.providers.OpaqueStateRecovery;
import dev.ruminate.providers.ProviderBuilder;
import dev.ruminate.transport.http.ApiKey;
import dev.ruminate.transport.http.BaseUrl;
import dev.ruminate.transport.http.HttpExchange;
import dev.ruminate.transport.http.RequestSigner;
import dev.ruminate.transport.resilience.Resilience;
import dev.ruminate.transport.wire.WireLimits;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The provider skeleton: the one place where a call runs, for every provider family. A streamed
 * call prepares the request's history with {@link History#plan} for this endpoint (another
 * provider's turns, endpoint and model boundaries, integrity checks of opaque values with the
 * family's {@link WireCodec#opaqueRules()}, retention; the family's send-back rules follow in its
 * encoder), encodes it with the family's {@link WireCodec}, signs and posts it over
 * the {@link HttpExchange}, frames the body, decodes the frames with the family's
 * {@link StreamDecoder} ({@link StreamDecoding}: error positions, failures after the events
 * before them), splits think tags when asked, redacts secrets from errors, and runs it all under
 * the endpoint's {@link Resilience} guards. A whole-body call does the same with
 * {@link BodyDecoding}. An HTTP error the codec recognises as a rejection of the opaque reasoning
 * state sent back ({@link WireCodec#classifyRejection}) fails the call as an
 * {@link OpaqueStateRejectedException}, or, with {@link OpaqueStateRecovery#STRIP_AND_RETRY_ONCE},
 * leads to one more request without that state, after the guards and announced by a
 * {@link dev.ruminate.core.event.Warning}.
 *
 * <p><b>Structured output.</b> For a request with an {@linkplain ChatRequest#output() output schema}
 * the pipeline asks the codec how it carries it ({@link WireCodec#structuredOutputMethod}), turns the
 * output tool's call into answer text, validates the answer against the schema and reports the
 * verdict as an {@link dev.ruminate.core.event.OutputChecked} event before the
 * {@code ResponseCompleted}; for a method that does not constrain the output it asks once more,
 * with the violations, when the answer is refused. A response that ends in calls of other tools (a
 * tool loop's step) gets no verdict. See {@code StructuredOutputChecking}. A request without an
 * output schema costs nothing for it.
 *
 * <p><b>Origin.</b> The pipeline knows where its calls go, so it stamps its {@link #origin()} on
 * every {@link ResponseStarted} a response gives (and, should a decoder not begin with one, puts a
 * {@code ResponseStarted} carrying it before the first event): the reducer records it as the
 * {@link dev.ruminate.core.message.Provenance} of the response's opaque state. The cost is one
 * type test per event.
 *
 * <p><b>Threading.</b> Immutable and thread-safe; every returned flux is cold and makes its own
 * exchange per subscription. <b>Backpressure.</b> Bytes are read from the network as events are
 * requested: no operator between the socket and the subscriber requests without bound, so while
 * the subscriber requests nothing, Reactor Netty stops reading the socket (auto-read off), the
 * kernel's receive buffer fills and the server's writes block. What a paused stream then holds
 * is bounded by the read-ahead, whatever the stream's length: the events decoded from at most 32
 * network reads (each frame is decoded inside the read that completes it, {@link StreamDecoding#decode};
 * a read is at most 64 KiB with Netty's default allocator; with think-tag splitting, up to 256
 * events more), the one frame being assembled (at most {@link WireLimits}' limits) and the buffers
 * Reactor Netty read in the read loop in which demand ran out (pooled, off-heap). A stream resumed
 * by a {@link StreamResumption} holds owned frames instead: at most 32 frames and the events of
 * one, and the frames of 32 reads. Measured: about 0.13 MB of heap per paused stream of 13.6 MB,
 * with 100 or 1,000 open (see {@code benchmarks/README.md}, "Slow consumers (issue 21)"). <b>Cancellation.</b> Cancelling closes the exchange. <b>Errors.</b> All are
 * {@link dev.ruminate.core.error.RuminateException}s: a request the codec cannot encode fails the
 * flux (not the call) with {@link InvalidRequestException}, and an opaque value that fails its
 * checks under {@link dev.ruminate.core.history.IntegrityPolicy#FAIL} fails it with
 * {@link dev.ruminate.core.error.OpaqueStateException}, both before any request is made; see
 * {@link HttpExchange} for HTTP and
 * transport errors and {@link StreamDecoding} for the stream's.
 *
 * @param <F> the frame type of the codec's framing
 * @since 0.1
 */
public final class ProviderPipeline<F> {

    private static final byte[] EMPTY_OBJECT = {'{', '}'};

    private final String name;
    private final WireCodec<F> codec;
    private final BaseUrl base;
    private final HttpExchange exchange;
    private final WireLimits limits;
    private final HistoryPolicy history;
    private final Resilience resilience;
    private final @Nullable ThinkTagOptions thinkTags;
    private final OpaqueStateRecovery recovery;
    /** The account fingerprint (never the credential), kept for {@link #withCodec}. */
    private final @Nullable String account;
    private final Origin origin;
    private final @Nullable StreamResumption<F> resumption;

    private ProviderPipeline(String name, WireCodec<F> codec, BaseUrl base, HttpExchange exchange, WireLimits limits,
                             HistoryPolicy history, Resilience resilience, @Nullable ThinkTagOptions thinkTags,
                             OpaqueStateRecovery recovery, @Nullable String account,
                             @Nullable StreamResumption<F> resumption) {
        this.name = name;
        this.codec = codec;
        this.base = base;
        this.exchange = exchange;
        this.limits = limits;
        this.history = history;
        this.resilience = resilience;
        this.thinkTags = thinkTags;
        this.recovery = recovery;
        this.account = account;
        this.resumption = resumption;
        this.origin = new Origin(name, Objects.requireNonNull(codec.api(), "codec.api()"), Origins.endpoint(base), account);
    }

    /**
     * Starts a pipeline.
     *
     * @param name the provider's name: in events and errors, and the owner of the opaque state its
     *     history keeps
     * @param codec the family's codec
     * @param settings the settings every provider takes (base URL, HTTP client, limits, timeout,
     *     history policy, guards)
     * @param defaultBaseUrl the family's or profile's default API root, or null when the user must
     *     give one
     * @param <F> the frame type
     * @return a builder
     * @throws IllegalStateException if no base URL is configured and there is no default
     * @throws IllegalArgumentException if the base URL is not an absolute http(s) URL
     */
    public static <F> Builder<F> builder(String name, WireCodec<F> codec, ProviderBuilder<?> settings,
                                         @Nullable String defaultBaseUrl) {
        return new Builder<>(name, codec, settings, defaultBaseUrl);
    }

    /**
     * Returns a pipeline for another endpoint of the same API (Ollama's {@code /api/generate}
     * beside {@code /api/chat}, say): the same exchange, settings, think tags and account, another
     * codec, and so an origin with the other codec's {@linkplain WireCodec#api() API}; no
     * {@linkplain Builder#resumption resumption}.
     *
     * @param other the other endpoint's codec
     * @param <G> its frame type
     * @return the pipeline
     */
    public <G> ProviderPipeline<G> withCodec(WireCodec<G> other) {
        return new ProviderPipeline<>(name, Objects.requireNonNull(other, "other"), base, exchange, limits, history,
                resilience, thinkTags, recovery, account, null);
    }

    /**
     * Returns the provider's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the API root calls go to.
     *
     * @return the base URL
     */
    public BaseUrl baseUrl() {
        return base;
    }

    /**
     * Returns where this pipeline's responses come from: its provider name, its codec's
     * {@linkplain WireCodec#api() API}, the endpoint identity of its base URL (host, port and path;
     * no scheme, query or credentials) and its account fingerprint (see
     * {@link Builder#account(String)}). It is the same for every call, and is what a history
     * compares the provenance of opaque state with before sending it here.
     *
     * @return the origin
     */
    public Origin origin() {
        return origin;
    }

    /**
     * Returns where a call goes.
     *
     * @param request the request (some APIs put the model in the path)
     * @param stream true for a streamed call
     * @return the endpoint
     */
    public URI endpoint(ChatRequest request, boolean stream) {
        return codec.endpoint(base, Objects.requireNonNull(request, "request"), stream);
    }

    /**
     * Streams one call.
     *
     * @param request the request
     * @return a cold flux of events
     */
    public Flux<ChatEvent> stream(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        StreamResumption<F> resuming = resumption;
        // Without resumption each frame is decoded inside the network read that completes it, lent rather than
        // copied; resumption keeps the frames it may have to read again, so it gets owned ones.
        return recovering(request, true, (prepared, body) -> Flux.defer(() -> exchange.stream(
                        codec.endpoint(base, request, true), body, codec.framing().mediaType(),
                        codec.framing().acceptedMediaTypes()))
                .transform(resuming == null
                        ? bytes -> StreamDecoding.decode(codec, request, bytes, limits)
                        : bytes -> resuming.decode(prepared, codec.framing().decode(bytes, limits), connection()))
                .transform(thinkTagSplitting())
                .transform(events -> stampOrigin(events, request))
                .onErrorMap(exchange::redact));
    }

    /** The reconnections a {@link StreamResumption} makes: this pipeline's exchange, framing and limits. */
    private StreamResumption.Connection<F> connection() {
        return new StreamResumption.Connection<>() {
            @Override
            public BaseUrl base() {
                return base;
            }

            @Override
            public Flux<F> get(URI uri) {
                return Flux.defer(() -> exchange.streamGet(uri, codec.framing().mediaType(),
                                codec.framing().acceptedMediaTypes()))
                        .transform(bytes -> codec.framing().decode(bytes, limits));
            }

            @Override
            public Mono<Void> post(URI uri) {
                return Mono.defer(() -> exchange.post(uri, EMPTY_OBJECT)).then();
            }
        };
    }

    /**
     * Makes one non-streaming call and decodes the whole body into the events a stream would give.
     *
     * @param request the request
     * @return a cold flux of events
     */
    public Flux<ChatEvent> complete(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return recovering(request, false, (prepared, body) -> Mono.defer(() -> exchange.post(
                        codec.endpoint(base, request, false), body))
                .flatMapIterable(bytes -> BodyDecoding.decode(bytes, b -> codec.decodeBody(request, b)))
                .transform(thinkTagSplitting())
                .transform(events -> stampOrigin(events, request))
                .onErrorMap(exchange::redact));
    }

    /**
     * Prepares the request's history once per subscription, encodes each attempt once (the guards'
     * retries reuse the body), emits the encoder's warnings before the attempt's events (each once
     * per subscription, turn and part as the caller gave them), runs the call under the guards with
     * rejections of opaque state typed, then the recovery step. The order: the
     * {@link Resilience} guards retry transient failures of each attempt; the recovery, outside
     * them, makes at most one more (itself guarded) attempt with the refused state stripped. A
     * request with an output schema then goes through {@link StructuredOutputChecking}, outside
     * both: its one corrective attempt is a whole call of its own (recovery and guards included); a
     * request without one has no operator added for it.
     */
    private Flux<ChatEvent> recovering(ChatRequest request, boolean stream,
                                       BiFunction<ChatRequest, byte[], Flux<ChatEvent>> call) {
        return Flux.defer(() -> {
            PreparedHistory prepared;
            try {
                // an OpaqueStateException under the FAIL policy ends the flux here, before anything is sent
                prepared = prepare(request);
            } catch (IllegalArgumentException e) {
                return Flux.error(new InvalidRequestException(name, String.valueOf(e.getMessage()), e));
            } catch (RuminateException e) {
                return Flux.error(e);
            }
            Set<Warning> said = new HashSet<>();
            BiFunction<PreparedHistory, Consumer<ChatRequest>, Flux<ChatEvent>> recovered = (history, sent) ->
                    OpaqueStateRecovering.apply(recovery, name, history, p -> {
                        sent.accept(p);
                        return attempt(p, history, stream, said, call);
                    });
            return prepared.request().output() == null ? recovered.apply(prepared, p -> { })
                    : StructuredOutputChecking.run(name, codec, prepared, recovered);
        });
    }

    /**
     * Encodes and makes one guarded, classified call of a prepared request, its encoder's warnings
     * first (those not said before in this subscription).
     */
    private Flux<ChatEvent> attempt(ChatRequest p, PreparedHistory prepared, boolean stream, Set<Warning> said,
                                    BiFunction<ChatRequest, byte[], Flux<ChatEvent>> call) {
        RequestWarnings warnings = new RequestWarnings();
        byte[] body;
        try {
            body = encodePrepared(p, stream, warnings);
        } catch (RuminateException e) {
            return Flux.error(e);
        }
        List<ChatEvent> fresh = new ArrayList<>();
        for (Warning w : warnings.list()) {
            Warning given = asGiven(w, prepared);
            if (said.add(given)) {
                fresh.add(given);
            }
        }
        Flux<ChatEvent> attempt = resilience.apply(name, call.apply(p, body)
                .onErrorMap(ProviderHttpException.class, e -> classified(p, e)));
        return fresh.isEmpty() ? attempt : Flux.concat(Flux.fromIterable(fresh), attempt);
    }

    /** A warning about a prepared message, re-addressed to the message and part as the caller gave them. */
    private static Warning asGiven(Warning w, PreparedHistory prepared) {
        Integer turn = w.turn();
        if (turn == null) {
            return w;
        }
        Integer part = w.part();
        return new Warning(w.code(), w.message(), prepared.originalTurn(turn),
                part == null ? null : prepared.originalPart(turn, part));
    }

    /**
     * Sets the origin on every {@link ResponseStarted}; when the first event is something else (a
     * decoder that starts late or never), a {@code ResponseStarted} with the origin goes first, so
     * the reducer always knows where the opaque state came from. Per event: one type test.
     */
    private Flux<ChatEvent> stampOrigin(Flux<ChatEvent> events, ChatRequest request) {
        Origin o = origin;
        String requested = request.model();
        return events.switchOnFirst((first, rest) -> {
            Flux<ChatEvent> stamped = rest.map(e -> e instanceof ResponseStarted s ? s.withOrigin(o, requested) : e);
            ChatEvent head = first.get();
            return head == null || head instanceof ResponseStarted ? stamped
                    : stamped.startWith(new ResponseStarted(name, null, null, o, requested));
        });
    }

    /** Types an HTTP error as a rejection of opaque state when the codec recognises one. */
    private ProviderHttpException classified(ChatRequest prepared, ProviderHttpException error) {
        if (error instanceof OpaqueStateRejectedException) {
            return error;
        }
        try {
            OpaqueStateRejectedException typed = codec.classifyRejection(name, prepared, error);
            return typed != null ? typed : error;
        } catch (RuntimeException e) {
            // a classifier must not hide the provider's answer
            return error;
        }
    }

    /**
     * Explains the send-back plan of a request: what the family's encoder does with every reasoning
     * part and opaque value of the earlier turns this pipeline would send ({@link WireCodec#explain}),
     * after the history policy prepared them as {@link #stream} does ({@link History#plan}: another
     * provider's turns, endpoint and model boundaries, integrity checks, retention, each decision an
     * entry too), by message and part index of the request as given. Nothing is sent.
     *
     * @param request the request
     * @return the plan, entries ordered by turn and part
     * @throws dev.ruminate.core.error.OpaqueStateException under the FAIL integrity policy, for a
     *     malformed or unfinished opaque value
     */
    public SendBackPlan explain(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        PreparedHistory prepared = prepare(request);
        SendBackPlan.Builder plan = prepared.planBuilder();
        codec.explain(prepared.request(), plan);
        return plan.build();
    }

    /**
     * Prepares the history for this endpoint ({@link History#plan}: another provider's turns,
     * endpoint and model boundaries, integrity, retention), the one preparation calls and
     * explanations share. Under the FAIL policy an
     * {@link dev.ruminate.core.error.OpaqueStateException} escapes from here, before anything is sent.
     */
    private PreparedHistory prepare(ChatRequest request) {
        return History.plan(request, new SendTarget(origin, request.model(), codec.opaqueRules()), history,
                Retention.ALL);
    }

    /**
     * Shows a provider as {@code Type[name at scheme://host:port/path]}: never a key or a query.
     *
     * @param type the provider's class name
     * @return the text
     */
    public String describe(String type) {
        return type + "[" + name + " at " + base + "]";
    }

    private byte[] encodePrepared(ChatRequest prepared, boolean stream, RequestWarnings warnings) {
        try {
            return codec.encode(prepared, stream, warnings);
        } catch (UnsupportedInput e) {
            throw e.toException(name);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(name, String.valueOf(e.getMessage()), e);
        }
    }

    private Function<Flux<ChatEvent>, Flux<ChatEvent>> thinkTagSplitting() {
        return thinkTags != null ? ThinkTags.splitter(thinkTags) : Function.identity();
    }

    @Override
    public String toString() {
        return describe("ProviderPipeline");
    }

    /**
     * Builds a {@link ProviderPipeline}: what a family adds to the common settings, its
     * authentication, fixed headers and think tags. Not thread-safe.
     *
     * @param <F> the frame type
     * @since 0.1
     */
    public static final class Builder<F> {
        private final String name;
        private final WireCodec<F> codec;
        private final ProviderBuilder<?> settings;
        private final BaseUrl base;
        private final HttpExchange.Builder http;
        private @Nullable ThinkTagOptions thinkTags;
        /** Fingerprints only: the credential itself is never kept here. */
        private @Nullable String keyAccount;
        private @Nullable String explicitAccount;
        private @Nullable StreamResumption<F> resumption;

        private Builder(String name, WireCodec<F> codec, ProviderBuilder<?> settings, @Nullable String defaultBaseUrl) {
            this.name = Objects.requireNonNull(name, "name");
            this.codec = Objects.requireNonNull(codec, "codec");
            this.settings = Objects.requireNonNull(settings, "settings");
            this.base = BaseUrl.of(settings.configuredBaseUrl(), defaultBaseUrl, name);
            this.http = HttpExchange.builder(settings.configuredHttpClient(), name)
                    .readTimeout(settings.configuredReadTimeout());
        }

        /**
         * Sends a key in a header; nothing when the key is null (local servers may need none). The
         * key is also the account's identity: its fingerprint becomes the {@link Origin#account()}
         * of the pipeline's origin, unless {@link #account(String)} gives another identity.
         *
         * @param header the header, such as {@code Authorization}
         * @param prefix what precedes the key, such as {@code "Bearer "}, possibly empty
         * @param key the key, or null
         * @return this builder
         */
        public Builder<F> auth(String header, String prefix, @Nullable ApiKey key) {
            if (key != null) {
                http.auth(header, prefix, key);
                keyAccount = Origins.fingerprint(key.reveal());
            }
            return this;
        }

        /**
         * Sets the account's identity material explicitly, in place of the key given to
         * {@link #auth}: the first 16 hex digits of SHA-256 over the label
         * {@code "ruminate-account-v1\0"} and the material become the origin's
         * {@link Origin#account()}. Only the fingerprint is kept, never the material.
         *
         * <p>Opaque state (Responses encrypted reasoning, Gemini thought signatures) is bound to the
         * account that made it, so the identity must be stable across calls and differ between
         * accounts. A family whose credential rotates gives no account unless it has a stable
         * identity: Vertex AI's access token is refreshed, and its project and location are already
         * in the base URL's path, so it takes none; Bedrock's credentials may be temporary (STS),
         * and its region is in the host, so it takes none either.
         *
         * @param material the identity material, such as a stable key or an account id; it is
         *     hashed at once and not kept
         * @return this builder
         */
        public Builder<F> account(String material) {
            explicitAccount = Origins.fingerprint(Objects.requireNonNull(material, "material"));
            return this;
        }

        /**
         * Signs every request (AWS SigV4, a refreshed bearer token).
         *
         * @param signer the signer
         * @return this builder
         */
        public Builder<F> signer(RequestSigner signer) {
            http.signer(signer);
            return this;
        }

        /**
         * Sends a fixed header with every request.
         *
         * @param header the name
         * @param value the value
         * @return this builder
         */
        public Builder<F> header(String header, String value) {
            http.header(header, value);
            return this;
        }

        /**
         * Splits {@code <think>} tags out of the answer as reasoning.
         *
         * @param options the tags, or null for no splitting
         * @return this builder
         */
        public Builder<F> thinkTags(@Nullable ThinkTagOptions options) {
            this.thinkTags = options;
            return this;
        }

        /**
         * Resumes streamed responses cut after their first event, where the family's API allows it:
         * streamed calls are decoded by the resumption in place of the family's plain
         * {@link WireCodec#newStreamDecoder stream decoder}. Without one (the default) an error after
         * the first event ends the stream, as {@link Resilience} never retries then.
         *
         * @param value the resumption, or null for none
         * @return this builder
         * @since 0.4
         */
        public Builder<F> resumption(@Nullable StreamResumption<F> value) {
            this.resumption = value;
            return this;
        }

        /**
         * Builds the pipeline.
         *
         * @return the pipeline
         */
        public ProviderPipeline<F> build() {
            return new ProviderPipeline<>(name, codec, base, http.build(), settings.configuredWireLimits(),
                    settings.configuredHistory(), settings.configuredResilience(), thinkTags,
                    settings.configuredOpaqueStateRecovery(), explicitAccount != null ? explicitAccount : keyAccount,
                    resumption);
        }
    }
}
