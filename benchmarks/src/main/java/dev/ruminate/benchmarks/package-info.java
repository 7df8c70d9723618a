/**
 * JMH benchmarks of Ruminate's decoding and reduction, with the peers and the floor measured in the same run on
 * the same bytes. Not published.
 */
@NullMarked
package dev.ruminate.benchmarks;

import org.jspecify.annotations.NullMarked;
