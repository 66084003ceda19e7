// pytest node ids written in free text, e.g. `tests/test_x.py::TestY::test_z[param]`.

export interface NodeIdRef {
  id: string;
  start: number;
  end: number;
}

const NODE_ID_RE = /(?<![\w./-])(?:[\w.-]+\/)*[\w.-]+\.py(?:::[A-Za-z_]\w*)+(?:\[[^\]\r\n<]*\])?/g;

export function findNodeIds(text: string): NodeIdRef[] {
  const out: NodeIdRef[] = [];
  for (const m of text.matchAll(NODE_ID_RE)) out.push({ id: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  return out;
}

/** The id without its parametrization: `a.py::t[1-2]` → `a.py::t`. */
export function baseNodeId(id: string): string {
  return id.replace(/\[[^\]]*\]$/, '');
}
