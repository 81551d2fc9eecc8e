package org.netpubsub.controller.controlplane;

import org.netpubsub.content.index.Dz;

/**
 * Where the partitioned control plane keeps its state in ZooKeeper, under one root:
 *
 * <pre>
 * ROOT/members/M             ephemeral: a live controller process
 * ROOT/requests/ID           a standing addition, as submitted (so any process can withdraw it)
 * ROOT/queue/pP/r-N          sequential: a partial request waiting for partition P's owner
 * ROOT/standing/pP/ID        a partial addition P's CP-config holds (its durable state)
 * ROOT/locks/pP              InterProcessMutex: whoever holds it serves partition P
 * ROOT/refused/ID            why an addition was refused after it was queued (its submitter reads it)
 * ROOT/hosts/ADDRESS         a host registered by hand (POST /v1/hosts), applied by every process
 * ROOT/groups/NAME           a multicast group (PUT /v1/groups/NAME; NAME URL-encoded)
 * ROOT/groups-writer ...     the multicast writer and its placements (app.ClusterRegistry)
 * ROOT/ingress-writer ...    the ingress drops' writer and its ticks (pubsub.ClusterIngress)
 * </pre>
 *
 * A partition's node name is {@code p} and its dz bits ({@code p} alone for the whole space).
 */
record ClusterLayout(String root) {
  String members() {
    return root + "/members";
  }

  String member(String id) {
    return members() + "/" + id;
  }

  String requests() {
    return root + "/requests";
  }

  String request(String id) {
    return requests() + "/" + id;
  }

  String refusals() {
    return root + "/refused";
  }

  String refusal(String id) {
    return refusals() + "/" + id;
  }

  String queue(Dz partition) {
    return root + "/queue/" + name(partition);
  }

  String standing(Dz partition) {
    return root + "/standing/" + name(partition);
  }

  String standing(Dz partition, String id) {
    return standing(partition) + "/" + id;
  }

  String lock(Dz partition) {
    return root + "/locks/" + name(partition);
  }

  static String name(Dz partition) {
    return "p" + partition.bits();
  }
}
