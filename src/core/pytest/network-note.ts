// What pytest's output says about a run that had no network (sweci.pytest.network `none`): the
// two errors a process gets there when it tries to leave the machine, which a test suite that
// needs the internet shows. Only these are read as such: a refused connection to 127.0.0.1 is a
// test's own server that is not up (or one of this machine's services, which a test may not
// reach), and timeouts, proxies or a library's own wording say nothing certain.

/** The errors a process without a network gets: no route to any address, no name server. */
const NO_NETWORK = [
  { pattern: /Network is unreachable/g, what: 'Network is unreachable' },
  { pattern: /Temporary failure in name resolution/g, what: 'Temporary failure in name resolution' },
] as const;

/**
 * A sentence for a run whose code had no network and whose output shows it tried to reach one;
 * undefined otherwise. It names the setting that gives the tests this machine's network.
 */
export function networkNote(output: string, offNetwork: boolean, route: 'local' | 'container'): string | undefined {
  if (!offNetwork) return undefined;
  const seen = NO_NETWORK.map((n) => ({ what: n.what, count: output.match(n.pattern)?.length ?? 0 })).filter((n) => n.count > 0);
  if (seen.length === 0) return undefined;
  const errors = seen.map((n) => `"${n.what}" ×${n.count}`).join(', ');
  if (route === 'container') {
    return (
      `The tests ran in a container with no network (sweci.docker.network is false) and pytest's output shows them trying to reach one (${errors}). ` +
      `If the project's tests need the internet, set sweci.docker.network to true.`
    );
  }
  return (
    `The tests ran with no network (sweci.pytest.network is "none") and pytest's output shows them trying to reach one (${errors}). ` +
    `If the project's tests need the internet, set sweci.pytest.network to "host" (sweci --pytest-network host); such runs are flagged not isolated.`
  );
}
