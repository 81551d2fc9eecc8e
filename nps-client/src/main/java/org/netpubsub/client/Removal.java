package org.netpubsub.client;

/** The controller's answer to an unadvertisement or unsubscription. */
public record Removal(String id, int flowChanges, int switches, double responseMs) {}
