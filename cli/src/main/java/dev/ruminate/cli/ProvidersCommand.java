package dev.ruminate.cli;

import dev.ruminate.providers.ProviderKind;
import dev.ruminate.providers.ProviderKinds;
import dev.ruminate.providers.ProviderSetting;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code ruminate providers}: every {@code --provider} name, what it is, where it connects by
 * default and where {@code chat} reads its key; all of it from {@link ProviderKinds}.
 */
final class ProvidersCommand {

    private ProvidersCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Args parsed = Args.parse(args, Set.of(), Set.of());
        if (!parsed.positional().isEmpty()) {
            throw new UsageException("providers takes no arguments");
        }
        for (ProviderKind kind : ProviderKinds.all()) {
            out.println(kind.name() + (kind.aliases().isEmpty() ? "" : " (also " + String.join(", ", kind.aliases()) + ")")
                    + " — " + kind.description());
            out.println("    " + endpoint(kind) + "; key: $" + kind.keyVariable() + (switch (kind.credential()) {
                case API_KEY -> "";
                case OPTIONAL_API_KEY -> " if the server asks for one";
                case ACCESS_TOKEN -> " (an access token)";
                case AWS_CREDENTIALS -> " with $AWS_ACCESS_KEY_ID (and $AWS_SESSION_TOKEN)";
            }));
        }
        out.flush();
        return Main.OK;
    }

    private static String endpoint(ProviderKind kind) {
        if (kind.defaultBaseUrl() != null) {
            return "at " + kind.defaultBaseUrl();
        }
        List<String> needs = new ArrayList<>();
        for (ProviderSetting setting : kind.requires()) {
            switch (setting) {
                case BASE_URL -> needs.add("--base-url");
                case REGION -> needs.add("--region");
                case PROJECT -> needs.add("--project");
                case LOCATION -> needs.add("--location");
                case API_KEY, ACCESS_TOKEN, AWS_CREDENTIALS -> { }
            }
        }
        return "needs " + String.join(", ", needs);
    }
}
