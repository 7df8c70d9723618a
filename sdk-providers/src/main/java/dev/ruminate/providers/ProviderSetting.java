package dev.ruminate.providers;

/**
 * A setting of {@link ProviderSettings} that a {@link ProviderKind} may require. Its
 * {@link #propertyName()} is the name of the settings' component, which messages use, so a caller
 * can map it onto its own option or property name.
 *
 * @since 0.1
 */
public enum ProviderSetting {
    /** Where the server is; required by kinds that have no public endpoint. */
    BASE_URL("baseUrl"),
    /** The API key. */
    API_KEY("apiKey"),
    /** The AWS region (Bedrock). */
    REGION("region"),
    /** The Google Cloud project (Vertex AI). */
    PROJECT("project"),
    /** The Google Cloud location (Vertex AI). */
    LOCATION("location"),
    /** The OAuth access token or its source (Vertex AI). */
    ACCESS_TOKEN("accessToken"),
    /** The AWS credentials or their source (Bedrock). */
    AWS_CREDENTIALS("awsCredentials");

    private final String propertyName;

    ProviderSetting(String propertyName) {
        this.propertyName = propertyName;
    }

    /**
     * Returns the name of the {@link ProviderSettings} component, such as {@code baseUrl}.
     *
     * @return the name
     */
    public String propertyName() {
        return propertyName;
    }
}
