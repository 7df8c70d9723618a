/**
 * Routes: the model names clients ask for, each fronting a configured provider with an upstream model and the backend's reasoning send-back rules.
 */
@NullMarked
package dev.ruminate.gateway.route;

import org.jspecify.annotations.NullMarked;
