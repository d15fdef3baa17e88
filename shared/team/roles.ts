/**
 * Who may do what in an account: four roles, each a set of permissions, in one table. Every
 * tRPC procedure and console REST route names the one permission it needs
 * (server/transport/access.ts); the console hides what a role cannot do, the server refuses
 * it (403). docs/team.md shows the same matrix.
 */
export const ROLES = ["owner", "admin", "analyst", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  /** See everything in the account: charges, screenings, rules, lists, settings, the audit log. */
  read: "Read everything",
  /** Settle reviews, label, keep the allow list, bulk actions. */
  review: "Review, label and allow",
  /** Rules, templates, thresholds and weights, block lists, settings, Stripe, API keys, webhooks. */
  configure: "Configure detection, keys and webhooks",
  /** Invite and remove members, change roles below owner. */
  team: "Manage the team",
  /** Ownership, two-factor requirement, audit retention: what only an owner may change. */
  own: "Ownership and account security",
} as const;
export type Permission = keyof typeof PERMISSIONS;

/** The matrix: what each role may do. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: ["read", "review", "configure", "team", "own"],
  admin: ["read", "review", "configure", "team"],
  analyst: ["read", "review"],
  viewer: ["read"],
};

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  admin: "Admin",
  analyst: "Analyst",
  viewer: "Viewer",
};

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role ? ROLE_PERMISSIONS[role].includes(permission) : false;
}
