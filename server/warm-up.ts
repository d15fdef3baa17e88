/**
 * After the server listens: a merchant who screens gets the data sets loaded now, not on their
 * first call. Best effort: the check asks the database, and a server already answering must not
 * go down because that one query failed (a connection killed at that moment, as the fault
 * tests do); the data sets then load on first use.
 */
export async function warmUpAfterListen(
  anyLive: () => Promise<boolean>,
  warm: () => void,
  warn: (error: unknown) => void,
): Promise<void> {
  try {
    if (await anyLive()) setImmediate(warm);
  } catch (error) {
    warn(error);
  }
}
