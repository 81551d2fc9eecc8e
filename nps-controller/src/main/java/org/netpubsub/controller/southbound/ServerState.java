package org.netpubsub.controller.southbound;

/** The lifecycle of an {@link OpenFlowServer}: LATENT → STARTED → CLOSED, never back. */
public enum ServerState {
  LATENT,
  STARTED,
  CLOSED
}
