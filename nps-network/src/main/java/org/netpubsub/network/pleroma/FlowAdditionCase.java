package org.netpubsub.network.pleroma;

/**
 * The cases of PLEROMA's {@code flowAddition} (§III-B b, Figure 4) that adding one (dz, port) to a
 * switch's table ran into; one addition may touch several existing flows, hence several cases.
 */
public enum FlowAdditionCase {
  /** (1) No existing flow overlaps: the new flow is added as it is. */
  NO_OVERLAP,
  /** (2) An existing flow covers the new one and already sends its way: nothing changes. */
  COVERED_BY_EXISTING,
  /** (3) The new flow covers existing ones that send nowhere else: they are replaced. */
  COVERS_EXISTING,
  /** (4) An existing coarser flow sends elsewhere: the new flow is added with its ports too. */
  PARTIALLY_COVERED_BY_EXISTING,
  /** (5) Existing finer flows gain the new port (they keep their higher priority). */
  PARTIALLY_COVERS_EXISTING,
  /** The flow for exactly this dz exists and gains the port. */
  SAME_DZ
}
