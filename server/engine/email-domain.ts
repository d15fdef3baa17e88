/** The part of an email address after the last @, lowercased; null when there is none. */
export function emailDomain(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at < 0 || at === email.length - 1) return null;
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase();
}

/**
 * Whether an address reads as a person's at an organisation: a name in the shapes companies
 * give them (first, first.last, flast, f.last, first_last, first-last), letters only, its
 * +tag left out, and not judged random (`random`: the local part's randomness, entropy.ts).
 * A farm's own fresh domain gets made-up ones (anna4821, k7q9z2x, user0193); a company's
 * people arrive with their names, from their own devices and networks (decision 030).
 */
export function looksLikeAPerson(email: string | null, random: boolean): boolean {
  if (!email || random) return false;
  const at = email.lastIndexOf("@");
  const local = (at < 0 ? email : email.slice(0, at)).trim().toLowerCase().split("+")[0] ?? "";
  return /^[a-z]{1,24}(?:[._-][a-z]{1,24}){0,2}$/.test(local) && local.length >= 2;
}
