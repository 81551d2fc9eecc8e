package org.netpubsub.network.multicast;

/**
 * How a simulated group's members are drawn from the border nodes (SNAPS §IV-A): RANDOM uniformly;
 * LOCALITY the first uniformly, then each next with weight e^(-2d), d its hop distance to the
 * previous member. The paper prints e^(2d), which would favour far nodes, the opposite of the
 * locality it describes; the sign is flipped here.
 */
public enum MemberModel {
  RANDOM,
  LOCALITY
}
