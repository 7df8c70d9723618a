package dev.ruminate.spring;

import dev.ruminate.core.ChatProvider;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link ChatProvider} bean per {@code ruminate.providers.<name>}, named
 * {@code <name>}, unless a bean of that name is already defined: that is how an application replaces
 * one provider. The names must be known when bean definitions are registered, before
 * {@code @ConfigurationProperties} binding, so they are read here with a {@link Binder}; the
 * clients themselves are built later by {@link ProviderFactory}.
 *
 * <p>Called by Spring on the thread that refreshes the context.
 */
final class ProviderBeanRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

    private @Nullable Environment environment;
    private @Nullable BeanFactory beanFactory;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        Environment env = Objects.requireNonNull(environment, "environment");
        BeanFactory beans = Objects.requireNonNull(beanFactory, "beanFactory");
        Map<String, Object> configured = Binder.get(env)
                .bind(RuminateProperties.PREFIX + ".providers", Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of());
        for (String name : configured.keySet()) {
            if (registry.containsBeanDefinition(name)) {
                continue;
            }
            RootBeanDefinition definition = new RootBeanDefinition(ChatProvider.class,
                    () -> beans.getBean(ProviderFactory.class).create(name));
            definition.setDescription("Ruminate provider " + RuminateProperties.PREFIX + ".providers." + name);
            registry.registerBeanDefinition(name, definition);
        }
    }
}
