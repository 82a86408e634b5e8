package io.siteflow.broker;

import static org.apache.kafka.common.acl.AclOperation.ALL;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.IDEMPOTENT_WRITE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.apache.kafka.common.resource.PatternType.LITERAL;
import static org.apache.kafka.common.resource.PatternType.PREFIXED;

import io.siteflow.model.wire.Topics;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The least ACLs each siteflow principal needs on a cluster whose authorizer denies what no ACL allows
 * (docs/OPERATIONS.md, "Security", prints the same set as {@code kafka-acls} commands). Stateless.
 */
public final class SiteflowAcls {
    private SiteflowAcls() {
    }

    /** An agent: write flow records and heartbeats (idempotent producer), nothing else. */
    public static List<AclBinding> agent(String principal) {
        List<AclBinding> out = new ArrayList<>();
        for (String t : List.of(Topics.FLOWS, Topics.AGENTS)) {
            out.add(allow(principal, ResourceType.TOPIC, t, LITERAL, WRITE));
            out.add(allow(principal, ResourceType.TOPIC, t, LITERAL, DESCRIBE));
        }
        out.add(allow(principal, ResourceType.CLUSTER, "kafka-cluster", LITERAL, IDEMPOTENT_WRITE));
        return out;
    }

    /**
     * A processor of Kafka Streams application {@code applicationId}: read the inputs, publish the site model and
     * the outputs, check the topics' settings, and own its application's internal topics, consumer group and
     * transactional ids. It cannot write {@code siteflow.flows} or create the siteflow topics (an administrator
     * creates them, or {@code siteflow broker}).
     */
    public static List<AclBinding> processor(String principal, String applicationId) {
        List<AclBinding> out = new ArrayList<>();
        for (String t : List.of(Topics.FLOWS, Topics.AGENTS, Topics.SITES)) {
            out.add(allow(principal, ResourceType.TOPIC, t, LITERAL, READ));
        }
        for (String t : List.of(Topics.SITES, Topics.VERDICTS, Topics.ALERTS, Topics.ISOLATION, Topics.DLQ)) {
            out.add(allow(principal, ResourceType.TOPIC, t, LITERAL, WRITE));
        }
        for (String t : List.of(Topics.FLOWS, Topics.AGENTS, Topics.SITES, Topics.VERDICTS, Topics.ALERTS,
                Topics.ISOLATION, Topics.DLQ)) {
            out.add(allow(principal, ResourceType.TOPIC, t, LITERAL, DESCRIBE));
            out.add(allow(principal, ResourceType.TOPIC, t, LITERAL, DESCRIBE_CONFIGS));
        }
        out.add(allow(principal, ResourceType.TOPIC, applicationId + "-", PREFIXED, ALL));
        out.add(allow(principal, ResourceType.GROUP, applicationId, LITERAL, READ));
        out.add(allow(principal, ResourceType.TRANSACTIONAL_ID, applicationId + "-", PREFIXED, WRITE));
        out.add(allow(principal, ResourceType.TRANSACTIONAL_ID, applicationId + "-", PREFIXED, DESCRIBE));
        out.add(allow(principal, ResourceType.CLUSTER, "kafka-cluster", LITERAL, IDEMPOTENT_WRITE));
        out.add(allow(principal, ResourceType.CLUSTER, "kafka-cluster", LITERAL, DESCRIBE));
        return out;
    }

    private static AclBinding allow(String principal, ResourceType type, String name, PatternType pattern,
            AclOperation op) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW));
    }
}
