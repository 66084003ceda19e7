// How the iteration view breaks a long test id across lines.

/** A node id's parts, each ending at a '/' or '::': a line may break between them rather than inside a name. */
export function nodeIdParts(nodeid: string): string[] {
  return nodeid.split(/(?<=\/|::)/);
}
