package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** install.sh: what --dry-run says it would do, and what it refuses. Nothing is installed. */
class InstallScriptTest {
    @TempDir
    Path tmp;

    private Processes.Result install(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", DeployFiles.path("install.sh").toString()));
        cmd.addAll(args);
        return Processes.run(tmp, Map.of(), cmd, 30);
    }

    private Path archive(String name) throws Exception {
        return Files.writeString(tmp.resolve(name), "");
    }

    private static boolean userExists(String name) throws Exception {
        return Processes.run(Path.of("/"), Map.of(), List.of("getent", "passwd", name), 10).exitCode() == 0;
    }

    @Test
    void dryRunPrintsEveryStepInOrderAndChangesNothing() throws Exception {
        Path a = archive("siteflow-1.2.3.tar.gz");

        Processes.Result r = install(List.of("--dry-run", a.toString()));

        List<String> expected = new ArrayList<>();
        if (!userExists("siteflow")) {
            expected.add("+ useradd --system --user-group --home-dir /var/lib/siteflow --no-create-home"
                    + " --shell /usr/sbin/nologin --comment siteflow\\ services siteflow");
        }
        expected.add("+ install -d -m 0755 /opt");
        expected.add("+ tar -xzf " + a + " -C /opt --no-same-owner");
        expected.add("+ ln -sfn siteflow-1.2.3 /opt/siteflow");
        expected.add("+ install -d -m 0755 /etc/siteflow /etc/default /etc/systemd/system");
        if (!Files.exists(Path.of("/etc/siteflow/sites.yaml"))) {
            expected.add("+ install -m 0644 /opt/siteflow-1.2.3/conf/sites.yaml /etc/siteflow/sites.yaml");
        }
        for (String svc : List.of("agent", "processor", "broker")) {
            if (!Files.exists(Path.of("/etc/default/siteflow-" + svc))) {
                expected.add("+ install -m 0644 /opt/siteflow-1.2.3/conf/" + svc + ".env /etc/default/siteflow-" + svc);
            }
        }
        for (String svc : List.of("agent", "agent-ebpf", "processor", "broker")) {
            expected.add("+ install -m 0644 /opt/siteflow-1.2.3/systemd/siteflow-" + svc
                    + ".service /etc/systemd/system/siteflow-" + svc + ".service");
        }
        expected.add("+ systemctl daemon-reload");
        assertThat(r.exitCode()).isZero();
        assertThat(r.output().lines().filter(l -> l.startsWith("+ "))).containsExactlyElementsOf(expected);
        assertThat(r.output()).contains("install.sh: siteflow 1.2.3 would be installed (dry run: nothing changed)"
                + " in /opt/siteflow-1.2.3 (/opt/siteflow)");
        assertThat(Path.of("/opt/siteflow-1.2.3")).doesNotExist();
    }

    @Test
    void installsASampleForEveryUnitsEnvironmentFileAndEveryUnit() {
        // the dry run above lists conf/X.env -> /etc/default/siteflow-X for agent, processor and broker:
        // those must be exactly the units' EnvironmentFile= paths and conf/'s samples
        for (String svc : List.of("agent", "processor", "broker")) {
            SystemdUnit u = SystemdUnitsTest.unit("siteflow-" + svc + ".service");
            assertThat(u.value("Service", "EnvironmentFile")).isEqualTo("/etc/default/siteflow-" + svc);
            assertThat(DeployFiles.path("conf/" + svc + ".env")).isRegularFile();
        }
        assertThat(DeployFiles.list("conf", ".env")).hasSize(3);
    }

    @Test
    void refusesToInstallWithoutRoot() throws Exception {
        String script = DeployFiles.path("install.sh").toString();
        Path a = archive("siteflow-1.2.3.tar.gz");
        List<String> cmd = new ArrayList<>();
        boolean root = Processes.run(tmp, Map.of(), List.of("id", "-u"), 10).output().strip().equals("0");
        if (root) {
            Assumptions.assumeTrue(Processes.onPath("setpriv"), "setpriv not on PATH (Debian package util-linux)");
            // nobody must be able to read the script and enter the working directory
            Path copy = Files.copy(Path.of(script), tmp.resolve("install.sh"));
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(a, PosixFilePermissions.fromString("rw-r--r--"));
            script = copy.toString();
            cmd.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        cmd.addAll(List.of("bash", script, a.toString()));

        Processes.Result r = Processes.run(tmp, Map.of(), cmd, 30);

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).isEqualTo("install.sh: must run as root (sudo " + script
                + " ...), or with --dry-run to see what it would do\n");
    }

    @Test
    void dryRunBelowARootCreatesNoUserAndReloadsNothing() throws Exception {
        Path a = archive("siteflow-1.2.3.tar.gz");

        Processes.Result r = install(List.of("--dry-run", "--root", tmp + "/image/", a.toString()));

        assertThat(r.exitCode()).isZero();
        assertThat(r.output()).contains("+ tar -xzf " + a + " -C " + tmp + "/image/opt --no-same-owner\n",
                "+ ln -sfn siteflow-1.2.3 " + tmp + "/image/opt/siteflow\n",
                "install.sh: --root: create the user siteflow in the target (useradd --system siteflow)\n",
                "install.sh: --root: no systemctl daemon-reload\n");
        assertThat(r.output()).doesNotContain("useradd --system --user-group", "+ systemctl");
    }

    @Test
    void rejectsRootWithoutADirectory() throws Exception {
        Processes.Result r = install(List.of("--root"));

        assertThat(r.exitCode()).isEqualTo(64);
        assertThat(r.output()).endsWith("install.sh: --root needs a directory\n");
    }

    @Test
    void rejectsAnUnknownOptionAsWrongUsage() throws Exception {
        Processes.Result r = install(List.of("--force"));

        assertThat(r.exitCode()).isEqualTo(64);
        assertThat(r.output()).endsWith("install.sh: unknown option: --force\n");
    }

    @Test
    void rejectsAnArchiveNotNamedLikeADistribution() throws Exception {
        Path a = archive("siteflow.tgz");

        Processes.Result r = install(List.of("--dry-run", a.toString()));

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).isEqualTo("install.sh: " + a + ": not a siteflow-VERSION.tar.gz\n");
    }

    @Test
    void withoutAnArchiveNeedsToSitInAnUnpackedDistribution() throws Exception {
        Processes.Result r = install(List.of("--dry-run"));

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).isEqualTo("install.sh: no ARCHIVE given and " + DeployFiles.dir()
                + " is not an unpacked distribution (no bin/siteflow and lib/)\n");
    }

    @Test
    void rejectsAMissingArchive() throws Exception {
        Processes.Result r = install(List.of("--dry-run", tmp.resolve("siteflow-1.0.tar.gz").toString()));

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).isEqualTo("install.sh: " + tmp.resolve("siteflow-1.0.tar.gz") + ": no such file\n");
    }
}
