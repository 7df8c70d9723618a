/**
 * AWS Bedrock: request signing with AWS Signature Version 4 from credentials the user supplies, or
 * from the AWS SDK's default chain through {@link dev.ruminate.providers.bedrock.AwsSdkCredentials}
 * (an optional dependency).
 *
 * <p>The Converse stream's binary framing is decoded by
 * {@link dev.ruminate.transport.wire.EventStreams} in sdk-core.
 */
@NullMarked
package dev.ruminate.providers.bedrock;

import org.jspecify.annotations.NullMarked;
