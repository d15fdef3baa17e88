/**
 * Autonomous systems of hosting and cloud providers: traffic from them comes from a server,
 * a proxy or a VPN exit rather than a person's home or phone. No npm package lists these,
 * so this is a short hand-kept list (names as in @ip-location-db/asn, checked 2026-06);
 * DATA.md repeats it. Left out on purpose: Cloudflare (13335, also WARP's consumer users),
 * CDNs (Akamai 20940, Fastly 54113) and transit carriers, whose addresses are not clients.
 */
export const HOSTING_ASNS: ReadonlyMap<number, string> = new Map([
  [16509, "Amazon Web Services (AMAZON-02)"],
  [14618, "Amazon Web Services (AMAZON-AES)"],
  [8987, "Amazon Data Services Ireland"],
  [396982, "Google Cloud"],
  [15169, "Google (also announces Google Cloud ranges)"],
  [8075, "Microsoft Azure"],
  [14061, "DigitalOcean"],
  [393406, "DigitalOcean"],
  [16276, "OVHcloud"],
  [35540, "OVHcloud"],
  [24940, "Hetzner Online"],
  [213230, "Hetzner Online (cloud)"],
  [63949, "Linode / Akamai Connected Cloud"],
  [20473, "Vultr (The Constant Company)"],
  [31898, "Oracle Cloud"],
  [45102, "Alibaba Cloud (US)"],
  [37963, "Alibaba Cloud (Hangzhou)"],
  [51167, "Contabo"],
  [12876, "Scaleway"],
  [132203, "Tencent Cloud"],
  [45090, "Tencent Cloud (Shenzhen)"],
  [55990, "Huawei Cloud"],
  [136907, "Huawei Cloud (international)"],
  [202053, "UpCloud"],
  [197540, "netcup"],
  [60781, "Leaseweb Netherlands"],
  [16265, "Leaseweb Network"],
  [28753, "Leaseweb Deutschland"],
  [8560, "IONOS"],
  [29802, "Hivelocity"],
  [53667, "FranTech / BuyVM"],
  [49981, "WorldStream"],
  [8100, "QuadraNet"],
  [9009, "M247 (hosts many commercial VPN exits)"],
  [60068, "Datacamp / CDN77 (hosts many commercial VPN exits)"],
  [212238, "Datacamp / CDN77 (hosts many commercial VPN exits)"],
]);

/** Whether the autonomous system belongs to a hosting or cloud provider on the list above. */
export function isHostingAsn(asn: number | null): boolean {
  return asn !== null && HOSTING_ASNS.has(asn);
}
