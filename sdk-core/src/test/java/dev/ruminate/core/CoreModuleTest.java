package dev.ruminate.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import org.junit.jupiter.api.Test;

/** sdk-core needs no network stack: its module reads Reactor, Jackson and JSpecify, nothing else. */
class CoreModuleTest {

    @Test
    void theCoreModuleRequiresNoNetworkStack() {
        ModuleDescriptor core = ChatProvider.class.getModule().getDescriptor();
        assertThat(core).as("the tests run on the module path").isNotNull();
        assertThat(core.requires()).extracting(ModuleDescriptor.Requires::name)
                .noneMatch(name -> name.startsWith("io.netty") || name.startsWith("reactor.netty")
                        || name.startsWith("io.github.resilience4j"))
                .contains("reactor.core", "tools.jackson.core");
    }
}
