/**
 * Spring Boot integration: provider clients built from {@code ruminate.*} properties, exposed as one
 * named {@link dev.ruminate.core.ChatProvider} bean each and through
 * {@link dev.ruminate.spring.RuminateProviders}, with Micrometer metrics and observations when
 * Micrometer is on the class path.
 *
 * <p>Types are non-null unless annotated {@code @Nullable} (JSpecify).
 */
@NullMarked
package dev.ruminate.spring;

import org.jspecify.annotations.NullMarked;
