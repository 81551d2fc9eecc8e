// The multicast trees of GET /v1/groups on the dashboard (docs/operations.md, "Dashboard"): each
// source's copies between the switches that replicate them, drawn on the topology graph for the
// selected group and listed under each group. Kept apart from app.js, which calls these two
// functions; they use its helpers (svg, el, switchName, hostName) when called.
'use strict';

/** Draws the group's trees on the graph: a copy between two switches, and to each member. */
function drawTrees(graph, group, position, hostPositions) {
  if (!group) return;
  for (const [src, entry] of Object.entries(group.sources)) {
    for (const copy of entry.tree || []) {
      const what = `${hostName(src)}'s tree: ${switchName(copy.from)} → ` +
        (copy.member ? `${hostName(copy.member)} at ${switchName(copy.to)}` : switchName(copy.to));
      const a = position.get(copy.from);
      const b = position.get(copy.to);
      if (a && b && copy.from !== copy.to) {
        graph.append(svg('line', {class: 'tree-copy', x1: a.x, y1: a.y, x2: b.x, y2: b.y,
          'data-tree-copy': `${copy.from}>${copy.to}`}, svg('title', {}, what)));
      }
      const h = copy.member && hostPositions.get(copy.member);
      if (b && h) {
        graph.append(svg('line', {class: 'tree-copy to-member', x1: b.x, y1: b.y, x2: h.x, y2: h.y,
          'data-tree-copy': `${copy.to}>${copy.member}`}, svg('title', {}, what)));
      }
    }
  }
}

/** One source's tree as text: its copies, upstream first ("s1 → s2 · s2 → h3"). */
function treeCopies(entry) {
  if (!entry.tree || entry.tree.length === 0) return null;
  const copies = entry.tree.map((c) => `${switchName(c.from)} → ` +
    (c.member ? hostName(c.member) : switchName(c.to)));
  return el('div', {class: 'tree-copies meta', title: 'the copies between the switches that ' +
    'replicate them (unicast routes carry each one)'}, `tree: ${copies.join(' · ')}`);
}
