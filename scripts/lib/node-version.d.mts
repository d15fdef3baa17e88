/** The line to print when Node `current` is older than `range` (">=22.13"), else null. */
export function unsupportedNodeLine(
  current: string,
  range: string,
  recommended: string,
): string | null;
