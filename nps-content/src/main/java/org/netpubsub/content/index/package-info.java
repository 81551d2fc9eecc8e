/**
 * PLEROMA's spatial index (§III-A, §III-C): dz-expressions, events and filters mapped onto them,
 * and dz as IPv6 content addresses.
 *
 * <ul>
 *   <li>{@link org.netpubsub.content.index.Dz} — one subspace; {@link
 *       org.netpubsub.content.index.DzSet} — the paper's DZ, in a unique normal form.
 *   <li>{@link org.netpubsub.content.index.SpatialIndex} — event → dz of length L, filter → cover.
 *   <li>{@link org.netpubsub.content.index.ContentAddress} — dz ↔ {@code ff0e::/16} + dz bits.
 *   <li>{@link org.netpubsub.content.index.CoverQuality} — sampled over-cover of a cover.
 *   <li>{@link org.netpubsub.content.index.DimensionSelector} — which attributes to index.
 * </ul>
 *
 * <p>Choices where the paper leaves room:
 *
 * <ul>
 *   <li>Bits: the k-bit code of value v in [min, max] is floor((v − min) · 2^k / (max − min + 1)),
 *       exactly the paper's halving at the real midpoint (P=65, V=55 on [0, 100) → 110010).
 *       Dimensions take turns; a dimension whose cells are single values is skipped (no wasted
 *       bits); when all are resolved, the remaining bits are 0.
 *   <li>Strings: the first min(max_length, 8) UTF-8 bytes as a big-endian number, not a hash (the
 *       paper cites hashing): order is kept, so a prefix constraint is one contiguous range and
 *       equality is one point. Other string relations do not narrow the cover.
 *   <li>Covers never have false negatives. Per conjunction the box is split breadth-first; a cell
 *       whose split would exceed the budget stays whole; a union over the budget is coarsened by
 *       cutting the longest cells. Int exclusions beyond 15 are ignored (the cover only grows).
 *   <li>{@code Dz.difference} returns the minimal disjoint set ({@code 0 − 000 = {001, 01}}; the
 *       paper's {@code 001, 010, 011} names the same points).
 *   <li>The empty dz prints as {@code ε}; {@link org.netpubsub.content.index.Dz#bits()} gives "".
 * </ul>
 */
package org.netpubsub.content.index;
