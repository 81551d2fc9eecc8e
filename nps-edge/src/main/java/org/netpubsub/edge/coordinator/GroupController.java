package org.netpubsub.edge.coordinator;

import java.util.List;
import java.util.Map;

/**
 * The network controller's group API (SNAPS §II-E): a group per topic, replicated by the network
 * from each source to every member. Addresses are the edges' IPv6 addresses.
 */
public interface GroupController {
  /** Creates or replaces group {@code name}; returns, per source, the address to send to. */
  Map<String, String> put(String name, List<String> members, List<String> sources);

  /** Removes group {@code name} (no error if it is already gone). */
  void delete(String name);
}
