/**
 * The {@code POST /v1/responses} flow: the request, the stored context it continues, the upstream call, the encoded answer and what is stored of it.
 */
@NullMarked
package dev.ruminate.gateway.responses;

import org.jspecify.annotations.NullMarked;
