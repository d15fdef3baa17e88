/**
 * Where to go once signed in: `?next=` when it is a path of this site (an invitation's page
 * sends people here and back), else `fallback`.
 */
export function nextPath(search: URLSearchParams, fallback: string): string {
  const next = search.get("next") ?? "";
  return /^\/(?![/\\])/.test(next) ? next : fallback;
}
