/**
 * Google Gemini, on AI Studio (the Gemini API) and on Vertex AI: {@code streamGenerateContent}
 * streams and {@code generateContent} bodies, thought summaries, thought signatures kept on the
 * exact part they came with, function calls (whole, or with arguments streamed on Vertex AI), and
 * the Interactions API's stream.
 */
@NullMarked
package dev.ruminate.providers.gemini;

import org.jspecify.annotations.NullMarked;
