package dev.ruminate.core.testing;

import dev.ruminate.core.event.ChatEvent;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * One instance of every concrete type a {@link ChatEvent} can be, found from the sealed hierarchy
 * itself (through nested sealed types), so that a type added later is in the list without anyone
 * editing it: a test that feeds these to a dispatch over events fails when the dispatch misses one.
 *
 * <p>Each event is a record built through its canonical constructor with plain values: 0 for
 * numbers, false, the first enum constant, an empty list, a record built the same way, and for a string the
 * component's name ({@code "{}"} for a component whose name says it holds JSON). A type this cannot
 * build fails the caller loudly.
 *
 * <p>The testkit publishes the same class ({@code dev.ruminate.testkit.EveryEventType}) for the
 * other modules' tests; sdk-core's tests cannot use it, since the testkit depends on sdk-core.
 */
public final class EveryEventType {

    private EveryEventType() {
    }

    /**
     * Returns one event of each concrete type, in the order the hierarchy declares them.
     *
     * @return the events
     */
    public static List<ChatEvent> oneOfEach() {
        List<ChatEvent> out = new ArrayList<>();
        for (Class<?> type : concrete(ChatEvent.class)) {
            out.add((ChatEvent) build(type));
        }
        return out;
    }

    /**
     * Returns the concrete types under a sealed type.
     *
     * @param root the sealed type
     * @return its concrete subtypes, nested sealed types walked through
     */
    public static List<Class<?>> concrete(Class<?> root) {
        List<Class<?>> out = new ArrayList<>();
        Class<?>[] permitted = root.getPermittedSubclasses();
        if (permitted == null) {
            out.add(root);
            return out;
        }
        for (Class<?> sub : permitted) {
            out.addAll(concrete(sub));
        }
        return out;
    }

    private static Object build(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalStateException("cannot build " + type.getName() + ": only records are built; add a case");
        }
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            values[i] = value(components[i].getName(), types[i]);
        }
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            return canonical.newInstance(values);
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot build " + type.getName() + " from " + List.of(values), e);
        }
    }

    private static Object value(String name, Class<?> type) {
        if (type == int.class || type == Integer.class) {
            return 0;
        }
        if (type == long.class || type == Long.class) {
            return 0L;
        }
        if (type == double.class || type == Double.class) {
            return 0.0;
        }
        if (type == boolean.class || type == Boolean.class) {
            return false;
        }
        if (type == String.class) {
            return name.toLowerCase(java.util.Locale.ROOT).contains("json") ? "{}" : name;
        }
        if (type.isEnum()) {
            return type.getEnumConstants()[0];
        }
        if (type == List.class) {
            return List.of();
        }
        return build(type);
    }
}
