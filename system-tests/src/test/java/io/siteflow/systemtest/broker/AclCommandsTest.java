package io.siteflow.systemtest.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.broker.SiteflowAcls;
import io.siteflow.processor.topology.TopologyConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * docs/OPERATIONS.md ("Security") lists the ACLs of {@link SiteflowAcls} as {@code kafka-acls.sh} commands; this
 * test renders {@link SiteflowAcls} the same way and compares, so the documented set cannot drift from the one
 * the security tests prove. On a difference the message shows the block to paste.
 */
class AclCommandsTest {
    static final String MARKER = "<!-- acl-commands: rendered from SiteflowAcls by AclCommandsTest -->";
    private static final String PREFIX = "kafka-acls.sh --bootstrap-server kafka1:9093 --command-config admin.properties"
            + " --add --allow-principal ";

    @Test
    void operationsDocListsExactlyTheAclsOfSiteflowAcls() throws IOException {
        String app = TopologyConfig.DEFAULT_APPLICATION_ID;
        String expected = "# agent (every agent host may share the principal, or each have its own)\n"
                + render(SiteflowAcls.agent("User:agent"))
                + "# processor, application id " + app + " (--application-id)\n"
                + render(SiteflowAcls.processor("User:processor", app));
        assertThat(documentedBlock()).as("the block after %s in docs/OPERATIONS.md", MARKER).isEqualTo(expected);
    }

    @Test
    void rendersOneCommandPerResourceWithItsOperationsInOrder() {
        List<AclBinding> acls = SiteflowAcls.agent("User:agent");
        assertThat(render(acls)).isEqualTo(""
                + PREFIX + "User:agent \\\n    --topic siteflow.flows --operation Write --operation Describe\n"
                + PREFIX + "User:agent \\\n    --topic siteflow.agents --operation Write --operation Describe\n"
                + PREFIX + "User:agent \\\n    --cluster --operation IdempotentWrite\n");
    }

    /** One command per principal and resource, operations in the order the bindings give them. */
    static String render(List<AclBinding> acls) {
        Map<String, List<String>> byResource = new LinkedHashMap<>();
        for (AclBinding b : acls) {
            assertThat(b.entry().permissionType()).isEqualTo(AclPermissionType.ALLOW);
            assertThat(b.entry().host()).isEqualTo("*");
            String key = b.entry().principal() + " \\\n    " + resource(b.pattern());
            byResource.computeIfAbsent(key, k -> new ArrayList<>()).add("--operation " + operation(b.entry()
                    .operation()));
        }
        StringBuilder out = new StringBuilder();
        byResource.forEach((key, ops) -> out.append(PREFIX).append(key).append(' ').append(String.join(" ", ops))
                .append('\n'));
        return out.toString();
    }

    private static String resource(ResourcePattern p) {
        String option = switch (p.resourceType()) {
            case TOPIC -> "--topic " + p.name();
            case GROUP -> "--group " + p.name();
            case TRANSACTIONAL_ID -> "--transactional-id " + p.name();
            case CLUSTER -> "--cluster";
            default -> throw new AssertionError("no kafka-acls.sh option for " + p.resourceType());
        };
        if (p.patternType() == PatternType.PREFIXED) {
            return option + " --resource-pattern-type prefixed";
        }
        assertThat(p.patternType()).isEqualTo(PatternType.LITERAL);
        assertThat(p.resourceType() != ResourceType.CLUSTER || p.name().equals("kafka-cluster")).isTrue();
        return option;
    }

    /** {@code IDEMPOTENT_WRITE} as kafka-acls.sh spells it: {@code IdempotentWrite}. */
    private static String operation(AclOperation op) {
        StringBuilder sb = new StringBuilder();
        for (String word : op.name().split("_")) {
            sb.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return sb.toString();
    }

    /** The lines of the fenced block after {@link #MARKER}. */
    private static String documentedBlock() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "OPERATIONS.md"), StandardCharsets.UTF_8);
        int marker = doc.indexOf(MARKER);
        assertThat(marker).as("%s in docs/OPERATIONS.md", MARKER).isNotNegative();
        int open = doc.indexOf("```\n", marker) + 4;
        int close = doc.indexOf("```\n", open);
        return doc.substring(open, close);
    }
}
