package org.netpubsub.controller.controlplane;

import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.network.controlplane.Partitions;

/**
 * How a controller process joins a partitioned control plane spread over processes ({@link
 * ClusterControlPlane}): a started ZooKeeper client (its session timeout bounds how long a dead
 * process's partitions wait for a new owner), the root of the cluster's znodes, this process's
 * member id (unique among live processes), the partitions (the same in every process) and how long
 * a switch may take to acknowledge a batch.
 */
public record ClusterSettings(
    CuratorFramework zk, String root, String member, Partitions partitions, Duration ackTimeout) {
  public static final String DEFAULT_ROOT = "/nps/cp";

  public ClusterSettings {
    if (zk == null || partitions == null || ackTimeout == null) {
      throw new IllegalArgumentException("a ZooKeeper client, partitions and a timeout are needed");
    }
    if (root == null || !root.startsWith("/") || root.endsWith("/") || root.contains("//")) {
      throw new IllegalArgumentException("the cluster root must be a znode path like /nps/cp");
    }
  }
}
