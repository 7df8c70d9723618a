/**
 * The {@code POST /v1/chat/completions} flow: the request, its turns relabelled by provenance, the
 * upstream call and the encoded chunks or body.
 */
@NullMarked
package dev.ruminate.gateway.chatcompletions;

import org.jspecify.annotations.NullMarked;
