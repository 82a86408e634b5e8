package io.siteflow.rules.model;

import java.util.Objects;

/**
 * The role of a host: one of the well-known roles below or any user-defined lower-case word.
 * {@link #NONE} is the role of an address that is not a listed host. Immutable.
 *
 * @param name the role as written in {@code sites.yaml}, e.g. {@code app-server}
 */
public record Role(String name) {
    public static final Role DB = new Role("db");
    public static final Role APP_SERVER = new Role("app-server");
    public static final Role ADMIN = new Role("admin");
    public static final Role JMS_SERVER = new Role("jms-server");
    public static final Role COHERENCE = new Role("coherence");
    public static final Role FRONTEND = new Role("frontend");
    /** Role of an address that is no listed host. */
    public static final Role NONE = new Role("(none)");

    public Role {
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return name;
    }
}
