/**
 * Typos of the big mailbox providers' domains (gmial.com, yaho.com, hotmial.com): the person
 * meant gmail.com, and the address cannot reach them. Disposable-domain lists carry many of
 * them (typo-squatting catch-alls), so the person who mistyped was blocked before retyping.
 * Pure.
 */

/** The big providers whose domains people mistype (long enough that one edit is a typo). */
const TYPO_TARGETS = [
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "hotmail.com",
  "outlook.com",
  "icloud.com",
  "protonmail.com",
];

/**
 * Mailbox providers and internet providers' mailboxes: every site sees them daily, so a
 * signup with one is never "a domain new to this site".
 */
export const MAILBOX_PROVIDERS: ReadonlySet<string> = new Set([
  ...TYPO_TARGETS,
  ...["live.com", "msn.com", "me.com", "mac.com", "aol.com", "proton.me", "pm.me", "ymail.com"],
  ...["yahoo.co.uk", "yahoo.fr", "yahoo.de", "yahoo.co.jp", "yahoo.com.au", "hotmail.co.uk"],
  ...["hotmail.fr", "hotmail.de", "live.co.uk", "outlook.de", "outlook.fr", "gmx.com", "gmx.de"],
  ...["gmx.net", "web.de", "t-online.de", "freenet.de", "orange.fr", "wanadoo.fr", "free.fr"],
  ...["sfr.fr", "laposte.net", "btinternet.com", "sky.com", "virginmedia.com", "libero.it"],
  ...["virgilio.it", "comcast.net", "verizon.net", "att.net", "sbcglobal.net", "cox.net"],
  ...["charter.net", "shaw.ca", "rogers.com", "bigpond.com", "optusnet.com.au", "yandex.ru"],
  ...["mail.ru", "qq.com", "163.com", "naver.com", "rediffmail.com", "zoho.com", "fastmail.com"],
  ...["tutanota.com", "hey.com", "seznam.cz", "wp.pl", "o2.pl", "docomo.ne.jp", "ezweb.ne.jp"],
]);

/** The provider `domain` is one edit (or one swap of neighbours) away from; null: none. */
export function typoOf(domain: string): string | null {
  if (MAILBOX_PROVIDERS.has(domain)) return null;
  for (const provider of TYPO_TARGETS) {
    if (oneEditApart(domain, provider)) return provider;
  }
  return null;
}

/** Damerau-Levenshtein distance exactly 1 (insert, delete, substitute or swap two neighbours). */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
