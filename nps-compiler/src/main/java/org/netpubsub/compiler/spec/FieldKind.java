package org.netpubsub.compiler.spec;

/** What a query field holds: an unsigned integer, or a fixed-width byte string. */
public enum FieldKind {
  INT,
  STRING
}
