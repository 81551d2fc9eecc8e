package org.netpubsub.edge.coordinator;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@link EdgeCoordinator}: the service, its API and its store, closed in that order. */
final class RunningCoordinator implements EdgeCoordinator {
  private final CoordinatorService service;
  private final CoordinatorApi api;
  private final CoordinatorStore store;

  RunningCoordinator(CoordinatorService service, CoordinatorApi api, CoordinatorStore store) {
    this.service = service;
    this.api = api;
    this.store = store;
  }

  @Override
  public InetSocketAddress address() {
    return api.address();
  }

  @Override
  public String mode() {
    return service.mode();
  }

  @Override
  public Map<Edge, Set<String>> edges() {
    return service.snapshot();
  }

  @Override
  public Optional<String> groupName(String topic) {
    return service.groupName(topic);
  }

  /** The routes its API serves. */
  List<String> routes() {
    return api.routes();
  }

  @Override
  public void close() {
    api.close();
    store.close();
  }
}
