package dev.ruminate.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** A parsed command line: {@code --name value} options, {@code --flag}s and positional arguments. */
final class Args {

    private final Map<String, List<String>> options = new HashMap<>();
    private final Set<String> flags = new HashSet<>();
    private final List<String> positional = new ArrayList<>();

    private Args() {
    }

    /**
     * Parses arguments.
     *
     * @param args the arguments after the command name
     * @param valued the option names that take a value
     * @param flagNames the option names that take none
     * @return the parsed arguments
     * @throws UsageException on an unknown option or a missing value
     */
    static Args parse(List<String> args, Set<String> valued, Set<String> flagNames) {
        Args parsed = new Args();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                parsed.positional.addAll(args.subList(i + 1, args.size()));
                break;
            }
            if (!a.startsWith("--")) {
                parsed.positional.add(a);
                continue;
            }
            String name = a.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (flagNames.contains(name) && value == null) {
                parsed.flags.add(name);
            } else if (valued.contains(name)) {
                if (value == null) {
                    if (i + 1 >= args.size()) {
                        throw new UsageException("--" + name + " needs a value");
                    }
                    value = args.get(++i);
                }
                parsed.options.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            } else {
                throw new UsageException("unknown option --" + name);
            }
        }
        return parsed;
    }

    /** The option's value (its last, when given several times), or null. */
    @Nullable String option(String name) {
        List<String> values = options.get(name);
        return values == null ? null : values.get(values.size() - 1);
    }

    String option(String name, String fallback) {
        String value = option(name);
        return value != null ? value : fallback;
    }

    /** Every value of an option that may be repeated, in order. */
    List<String> options(String name) {
        return options.getOrDefault(name, List.of());
    }

    String required(String name) {
        String value = option(name);
        if (value == null) {
            throw new UsageException("--" + name + " is required");
        }
        return value;
    }

    boolean flag(String name) {
        return flags.contains(name);
    }

    List<String> positional() {
        return positional;
    }
}
