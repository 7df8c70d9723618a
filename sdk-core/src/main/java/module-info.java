/**
 * Ruminate's provider-neutral core: events, messages, requests, the reducer, stream framing, the
 * think-tag splitter, typed errors, HTTP plumbing for providers, and the {@code ChatProvider} SPI.
 */
// the qualified export below names a module that is built after this one
@SuppressWarnings("module")
module dev.ruminate.core {
    requires transitive reactor.core;
    requires transitive org.reactivestreams;
    requires transitive reactor.netty.http;
    requires transitive reactor.netty.core;
    requires transitive io.netty.buffer;
    requires io.netty.codec.http;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport;
    requires tools.jackson.core;
    requires transitive io.github.resilience4j.core;
    requires transitive io.github.resilience4j.retry;
    requires transitive io.github.resilience4j.circuitbreaker;
    requires transitive io.github.resilience4j.ratelimiter;
    requires transitive io.github.resilience4j.bulkhead;
    requires static transitive org.jspecify;

    exports dev.ruminate.core;
    exports dev.ruminate.core.error;
    exports dev.ruminate.core.event;
    exports dev.ruminate.core.history;
    exports dev.ruminate.core.json;
    exports dev.ruminate.core.http;
    exports dev.ruminate.core.message;
    exports dev.ruminate.core.reduce;
    exports dev.ruminate.core.request;
    exports dev.ruminate.core.resilience;
    exports dev.ruminate.core.think;
    exports dev.ruminate.core.wire;
    // implementation helpers shared with the provider module, not an API
    exports dev.ruminate.core.internal to dev.ruminate.providers;
}
