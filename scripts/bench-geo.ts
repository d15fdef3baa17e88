/**
 * Measures what lookupIp costs: resident memory added by loading the data and lookups per
 * second. Run: node --expose-gc --import tsx scripts/bench-geo.ts (figures go into
 * server/modules/screening/features/DATA.md by hand). A development tool, so it lives here
 * and not among the production features it measures.
 */
import { lookupIp } from "../server/modules/screening/features/geo.ts";
import { seededRandom } from "./lib/seeded-random.ts";

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

// A fixed pseudo-random spread of public-looking addresses (mulberry32, seed 42).
const random = seededRandom(42);
const random32 = () => Math.floor(random() * 4294967296) >>> 0;
const v4 = Array.from({ length: 50_000 }, () => {
  const n = random32();
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
});
const v6 = Array.from({ length: 50_000 }, () => {
  const words = [
    0x2000 | (random32() & 0x1fff),
    ...Array.from({ length: 7 }, () => random32() & 0xffff),
  ];
  return words.map((w) => w.toString(16)).join(":");
});

gc();
const before = process.memoryUsage();
let start = performance.now();
lookupIp("8.8.8.8");
const loadMs = performance.now() - start;
gc();
const after = process.memoryUsage();
console.log(`load: ${loadMs.toFixed(0)} ms`);
console.log(
  `rss +${mb(after.rss - before.rss)} MB (heapUsed +${mb(after.heapUsed - before.heapUsed)}, external +${mb(after.external - before.external)}, arrayBuffers +${mb(after.arrayBuffers - before.arrayBuffers)})`,
);
for (const [name, list] of [
  ["IPv4", v4],
  ["IPv6", v6],
] as const) {
  let found = 0;
  start = performance.now();
  for (let round = 0; round < 4; round++) {
    for (const ip of list) if (lookupIp(ip).asn !== null) found++;
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${name}: ${Math.round((list.length * 4) / seconds)} lookups/s (${found / 4} of ${list.length} with an ASN)`,
  );
}
gc();
console.log(
  `rss after lookups: ${mb(process.memoryUsage().rss)} MB total, ${mb(process.memoryUsage().rss - before.rss)} MB above the start`,
);
