/**
 * A prefix for Prisma's `startsWith`, which becomes SQL LIKE with the text as typed: `%` and
 * `_` would be wildcards there (a search for "%" matched every row). Escaped, they mean
 * themselves.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
