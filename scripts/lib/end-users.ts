/**
 * What simulated end users are made of, for `npm run simulate` (scripts/lib/sim/) and
 * `npm run bench:screen` (scripts/bench/screen/traffic/): the shop they visit, their names and
 * their browsers. One list each, so the two traffic generators cannot drift apart; each adds
 * what is its own (email providers, bots, old browsers) beside them.
 */

export const SHOP = "https://shop.example.com";

/** Current desktop and mobile browsers; [2] and [3] are the mobile ones. */
export const BROWSERS: readonly string[] = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
];

/** First names of several countries, lower case as they go into email addresses. */
export const FIRST_NAMES: readonly string[] = [
  "james",
  "mary",
  "john",
  "patricia",
  "robert",
  "jennifer",
  "michael",
  "linda",
  "david",
  "elizabeth",
  "william",
  "susan",
  "joseph",
  "jessica",
  "thomas",
  "sarah",
  "carlos",
  "maria",
  "lukas",
  "sophie",
  "pierre",
  "camille",
  "arjun",
  "priya",
  "yuki",
  "haruto",
  "oliver",
  "amelia",
  "noah",
  "emma",
  "liam",
  "olivia",
  "ana",
  "joao",
  "fatima",
  "wei",
  "chloe",
  "mateo",
];

export const LAST_NAMES: readonly string[] = [
  "smith",
  "johnson",
  "williams",
  "brown",
  "jones",
  "garcia",
  "miller",
  "davis",
  "martin",
  "bernard",
  "muller",
  "schmidt",
  "sharma",
  "patel",
  "tanaka",
  "sato",
  "silva",
  "santos",
  "taylor",
  "wilson",
  "moore",
  "clark",
  "walker",
  "young",
  "nguyen",
  "kowalski",
  "dubois",
];
