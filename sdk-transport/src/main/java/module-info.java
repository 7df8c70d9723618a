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
    // Reactor Netty is an automatic module: it reads every module on the module path that is
    // resolved, but it cannot require any, so nothing resolves the Netty modules it loads at run
    // time unless a named module requires them. Without these an application on the module path
    // fails with NoClassDefFoundError (or needs --add-modules): HTTP/2 classes are loaded by every
    // client, the DNS resolver by every connection, and the QUIC classes by every TLS client, which
    // asks them whether HTTP/3 is available. Compression and proxies load theirs when a user
    // configures them on the HttpClient. (Native transports stay off the module path's graph:
    // their modules are per platform, so Reactor Netty uses NIO there.)
    requires io.netty.codec.http2;
    requires io.netty.resolver.dns;
    requires io.netty.codec.classes.quic;
    requires io.netty.codec.compression;
    requires io.netty.handler.proxy;
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
