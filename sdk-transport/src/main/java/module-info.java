/**
 * Ruminate's transport: the one HTTP exchange a chat provider needs (over Reactor Netty), request
 * signing, framing of response bodies (Server-Sent Events, NDJSON, AWS event-stream) over Netty
 * buffers, and the Resilience4j guards. Provider families build on it; an application that only
 * relays events or reduces them needs {@code dev.ruminate.core} alone.
 */
module dev.ruminate.transport {
    requires transitive dev.ruminate.core;
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

    exports dev.ruminate.transport.http;
    exports dev.ruminate.transport.resilience;
    exports dev.ruminate.transport.wire;
}
