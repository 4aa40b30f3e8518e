package io.sluice.cluster.zk;

/**
 * A parsed {@code zookeeper.connect} value: {@code host:port[,host:port...][/chroot]}, as Kafka operators write it.
 * Immutable; safe to share.
 *
 * @param hosts  the host list as ZooKeeper takes it
 * @param chroot the chroot without leading or trailing slash, empty when absent
 */
public record ConnectString(String hosts, String chroot) {

    public static ConnectString parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("zookeeper.connect is empty");
        }
        String v = value.trim();
        int slash = v.indexOf('/');
        String hosts = slash < 0 ? v : v.substring(0, slash);
        String chroot = slash < 0 ? "" : v.substring(slash);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("zookeeper.connect '" + value + "' has no host:port before the chroot");
        }
        for (String hp : hosts.split(",")) {
            int colon = hp.lastIndexOf(':');
            if (colon <= 0 || colon == hp.length() - 1) {
                throw new IllegalArgumentException("zookeeper.connect '" + value + "': '" + hp + "' is not host:port");
            }
            try {
                int port = Integer.parseInt(hp.substring(colon + 1));
                if (port < 1 || port > 65535) {
                    throw new IllegalArgumentException(
                            "zookeeper.connect '" + value + "': port " + port + " outside 1..65535");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "zookeeper.connect '" + value + "': '" + hp + "' has a non-numeric port", e);
            }
        }
        if (chroot.contains("//")) {
            throw new IllegalArgumentException("zookeeper.connect '" + value + "': chroot has an empty segment");
        }
        while (chroot.endsWith("/")) {
            chroot = chroot.substring(0, chroot.length() - 1);
        }
        if (chroot.startsWith("/")) {
            chroot = chroot.substring(1);
        }
        return new ConnectString(hosts, chroot);
    }

    public boolean hasChroot() {
        return !chroot.isEmpty();
    }
}
