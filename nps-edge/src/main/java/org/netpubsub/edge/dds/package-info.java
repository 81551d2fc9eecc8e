/**
 * DDS sites for the overlay (docs/overlay-dds.md, "DDS sites"): the child process that joins a
 * Cyclone DDS domain ({@link org.netpubsub.edge.dds.DdsBridge}), the frames it speaks ({@link
 * org.netpubsub.edge.dds.DdsFrames}) and how DDS topics become overlay topics ({@link
 * org.netpubsub.edge.dds.DdsTopics}). Depends on nothing of the overlay.
 */
package org.netpubsub.edge.dds;
