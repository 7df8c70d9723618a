/**
 * Ruminate's Spring Boot integration: auto-configured provider clients from {@code ruminate.*}
 * properties, a registry, and Micrometer observations when Micrometer is present.
 */
module dev.ruminate.spring {
    requires transitive dev.ruminate.core;
    requires transitive dev.ruminate.providers;
    requires transitive spring.boot;
    requires transitive spring.boot.autoconfigure;
    requires transitive spring.beans;
    requires transitive spring.context;
    requires spring.core;
    // The health probe reads the status of Reactor Netty's response.
    requires io.netty.codec.http;
    requires static transitive micrometer.core;
    requires static transitive micrometer.observation;
    requires static transitive micrometer.commons;
    requires static transitive spring.web;
    requires static transitive spring.boot.health;

    exports dev.ruminate.spring;

    // Spring instantiates the configuration classes and binds the property records reflectively.
    opens dev.ruminate.spring to spring.core, spring.beans, spring.context, spring.boot;
}
