/**
 * The README example as a named module: what a Java application on the module path writes, with
 * no {@code --add-modules}, {@code --add-opens} or {@code --add-reads} when it runs.
 */
module dev.ruminate.examples.modulepath {
    requires dev.ruminate.providers;
    requires dev.ruminate.testkit;
}
