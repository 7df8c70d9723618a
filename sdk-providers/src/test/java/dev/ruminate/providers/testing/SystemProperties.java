package dev.ruminate.providers.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sets JVM system properties for one test and restores them: the AWS and Google libraries read
 * their settings (profile files, endpoints, home directory) from system properties, which are
 * global. The module's tests run one at a time in their JVM (no parallel execution is configured),
 * so no other test sees them while set.
 */
public final class SystemProperties implements AutoCloseable {

    private final Map<String, String> previous = new LinkedHashMap<>();

    /** Sets a property, remembering its earlier value. */
    public SystemProperties set(String name, String value) {
        if (!previous.containsKey(name)) {
            previous.put(name, System.getProperty(name));
        }
        System.setProperty(name, value);
        return this;
    }

    @Override
    public void close() {
        previous.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
        previous.clear();
    }
}
