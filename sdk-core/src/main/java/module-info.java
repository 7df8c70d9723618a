/**
 * Ruminate's provider-neutral core: events, messages, requests, the reducer and its reasoning
 * check, history and its provider-neutral send-back rules, the think-tag splitter, typed errors,
 * the JSON wire format, the {@code ChatProvider} SPI, and the tool loop built on it. It needs no network stack: the HTTP
 * exchange, framing over Netty buffers and resilience live in {@code dev.ruminate.transport}.
 */
// the qualified export below names a module that are built after this one
@SuppressWarnings("module")
module dev.ruminate.core {
    requires transitive reactor.core;
    requires transitive org.reactivestreams;
    requires tools.jackson.core;
    // optional: the tool loop validates arguments against JSON schemas when the validator is present
    // (only its String-based API is used, so this module needs not read jackson-databind)
    requires static com.networknt.schema;
    requires static transitive org.jspecify;

    exports dev.ruminate.core;
    exports dev.ruminate.core.error;
    exports dev.ruminate.core.event;
    exports dev.ruminate.core.history;
    exports dev.ruminate.core.json;
    exports dev.ruminate.core.loop;
    exports dev.ruminate.core.message;
    exports dev.ruminate.core.reduce;
    exports dev.ruminate.core.request;
    exports dev.ruminate.core.think;
    exports dev.ruminate.core.ui;
    // implementation helpers shared with the modules built on this one, not an API
    exports dev.ruminate.core.internal to dev.ruminate.transport, dev.ruminate.providers;
}
