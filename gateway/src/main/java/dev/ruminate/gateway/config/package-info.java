/**
 * The gateway's Spring Boot auto-configuration and its {@code ruminate.gateway.*} properties.
 */
@NullMarked
package dev.ruminate.gateway.config;

import org.jspecify.annotations.NullMarked;
