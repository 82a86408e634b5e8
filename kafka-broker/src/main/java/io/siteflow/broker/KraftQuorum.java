package io.siteflow.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The KRaft controller quorum a node belongs to: its own node id and the voters (every node in the quorum, with the
 * address its controller listens on), as {@code --voters 1@kafka1:9093,2@kafka2:9093,3@kafka3:9093} spells it.
 * Every node of a siteflow cluster has both roles (broker and controller), so the voters are also the brokers.
 * Immutable.
 *
 * @param nodeId this node's id; one of the voters
 * @param voters the voters, in the order given, ids distinct
 */
public record KraftQuorum(int nodeId, List<Voter> voters) {
    /** One voter: {@code id@host:port}. */
    public record Voter(int id, String host, int port) {
        @Override
        public String toString() {
            return id + "@" + new HostPort(host, port);
        }
    }

    public KraftQuorum {
        voters = List.copyOf(voters);
        if (voters.isEmpty()) {
            throw new IllegalArgumentException("--voters: no voter given");
        }
        if (voters.stream().map(Voter::id).distinct().count() != voters.size()) {
            throw new IllegalArgumentException("--voters: node ids repeat in " + spelled(voters));
        }
        int id = nodeId;
        if (voters.stream().noneMatch(v -> v.id() == id)) {
            throw new IllegalArgumentException("--node-id " + nodeId + " is not among the voters " + spelled(voters)
                    + ": a node's controller listens on its own voter address");
        }
    }

    /** The one-node quorum of a single-node broker: node 1, its controller on {@code host:controllerPort}. */
    public static KraftQuorum single(String host, int controllerPort) {
        return new KraftQuorum(1, List.of(new Voter(1, host, controllerPort)));
    }

    /**
     * Parses {@code --voters}: comma-separated {@code id@host:port}; IPv6 hosts in brackets ({@code 1@[::1]:9093}).
     *
     * @throws IllegalArgumentException naming the entry that is not {@code id@host:port}
     */
    public static KraftQuorum parse(int nodeId, String voters) {
        List<Voter> out = new ArrayList<>();
        for (String entry : voters.split(",", -1)) {
            String e = entry.strip();
            int at = e.indexOf('@');
            if (at <= 0) {
                throw new IllegalArgumentException("--voters: '" + e + "' is not id@host:port");
            }
            int id;
            try {
                id = Integer.parseInt(e.substring(0, at));
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("--voters: '" + e + "' is not id@host:port (the id is not a number)");
            }
            if (id < 0) {
                throw new IllegalArgumentException("--voters: '" + e + "' has a negative node id");
            }
            HostPort hp;
            try {
                hp = HostPort.parse("--voters", e.substring(at + 1));
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException("--voters: '" + e + "' is not id@host:port (port 1-65535)");
            }
            out.add(new Voter(id, hp.host(), hp.port()));
        }
        return new KraftQuorum(nodeId, out);
    }

    /** This node's own voter entry: where its controller listens. */
    public Voter self() {
        return voters.stream().filter(v -> v.id() == nodeId).findFirst().orElseThrow();
    }

    /** How many nodes the cluster has (every voter is also a broker). */
    public int size() {
        return voters.size();
    }

    /** The {@code controller.quorum.voters} value. */
    public String spelled() {
        return spelled(voters);
    }

    private static String spelled(List<Voter> voters) {
        return voters.stream().map(Voter::toString).collect(Collectors.joining(","));
    }

    /** {@code host:port}, as {@code --listen} and {@code --advertised} spell it. */
    public record HostPort(String host, int port) {
        public HostPort {
            Objects.requireNonNull(host, "host");
        }

        /**
         * Parses {@code host:port} ({@code [v6]:port} for IPv6).
         *
         * @param option the option named in the message when the value is not {@code host:port}
         */
        public static HostPort parse(String option, String text) {
            String s = text.strip();
            int colon = s.lastIndexOf(':');
            String host = colon > 0 ? s.substring(0, colon) : "";
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port = -1;
            if (colon > 0) {
                try {
                    port = Integer.parseInt(s.substring(colon + 1));
                } catch (NumberFormatException e) {
                    port = -1;
                }
            }
            if (host.isEmpty() || port < 1 || port > 65535) {
                throw new IllegalArgumentException(option + ": '" + s + "' is not host:port (port 1-65535)");
            }
            return new HostPort(host, port);
        }

        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }
}
