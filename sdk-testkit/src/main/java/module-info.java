/**
 * Ruminate's test kit: provider emulators on loopback that play scripted or recorded streams and
 * inject faults, and a JUnit extension that fails tests on Netty buffer leaks.
 */
module dev.ruminate.testkit {
    requires transitive dev.ruminate.core;
    requires transitive reactor.netty.http;
    requires transitive reactor.netty.core;
    requires transitive io.netty.buffer;
    requires io.netty.transport;
    requires io.netty.codec.http;
    requires io.netty.common;
    // Reactor Netty, an automatic module, cannot require the Netty modules it loads: every
    // HttpServer loads HTTP/2 classes, so this module resolves them for it on the module path.
    requires io.netty.codec.http2;
    requires tools.jackson.core;
    // AcceptanceRule reads request bodies as JsonNode trees, so a custom rule needs databind too.
    requires transitive tools.jackson.databind;
    // Only NettyLeakCheck needs JUnit, and a test using it requires JUnit itself. Not transitive: a
    // module-path application that runs an emulator in main code must compile without JUnit.
    requires static org.junit.jupiter.api;

    exports dev.ruminate.testkit;
}
