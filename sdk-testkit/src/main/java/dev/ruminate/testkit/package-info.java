/**
 * A provider emulator for tests: a real HTTP server on loopback that answers with scripted or
 * recorded provider responses, split into chunks the way a network would split them, with faults
 * on demand.
 *
 * <p>Start one with {@link dev.ruminate.testkit.ProviderEmulator#start()}, queue
 * {@link dev.ruminate.testkit.EmulatorResponse}s (built by hand, replayed from a recording, or
 * written by a {@link dev.ruminate.testkit.Script} in one of six wire formats, such as
 * {@link dev.ruminate.testkit.ChatCompletionsScript}), point the client under test at
 * {@link dev.ruminate.testkit.ProviderEmulator#baseUrl()}, and inspect the
 * {@link dev.ruminate.testkit.RecordedRequest}s afterwards.
 *
 * <p>Types are non-null unless annotated {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package dev.ruminate.testkit;

import org.jspecify.annotations.NullMarked;
