package dev.ruminate.providers;

import java.util.Objects;

/**
 * Thrown by {@link ProviderKind#create(ProviderSettings)} when a setting the kind requires is not
 * set. The message names the kind and the setting, never a value.
 *
 * @since 0.1
 */
public final class MissingSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The kind, kept by name: the exception stays serializable. */
    private final String kind;
    /** The setting that is missing. */
    private final ProviderSetting setting;

    /**
     * Creates the exception.
     *
     * @param kind the kind's name
     * @param setting the missing setting
     */
    public MissingSettingException(String kind, ProviderSetting setting) {
        super(Objects.requireNonNull(kind, "kind") + " needs the setting " + Objects.requireNonNull(setting, "setting")
                .propertyName());
        this.kind = kind;
        this.setting = setting;
    }

    /**
     * Returns the name of the kind that needs the setting.
     *
     * @return the kind's name
     */
    public String kind() {
        return kind;
    }

    /**
     * Returns the missing setting.
     *
     * @return the setting
     */
    public ProviderSetting setting() {
        return setting;
    }
}
