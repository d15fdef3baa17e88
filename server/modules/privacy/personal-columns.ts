/**
 * Every text, JSON and text-array column of every table that has an "accountId", classified:
 * does it hold an end user's values, and what an erasure does with it (end-users.repository.ts)
 * — or why it holds none. A test (test/privacy/end-users.int.test.ts) reads the columns from
 * information_schema and fails on a column missing here: a new column must be classified
 * before it lands, instead of a runtime sweep rewriting whatever matches.
 */

/** `personal`: how the erasure finds and clears it. `not`: why no end user's value is there. */
export type Classification = { personal: string } | { not: string };

const p = (how: string): Classification => ({ personal: how });
const not = (why: string): Classification => ({ not: why });

const TEAM = not("the merchant's team, not its end users");
const CONFIG = not("the merchant's configuration: never touched by an erasure");
const ENUM = not("a status, kind or code from a fixed set");
const KEY = not("an id Warden or Stripe made");
const SEALED = not("a sealed secret or its hint");

export const PERSONAL_COLUMNS: Record<string, Record<string, Classification>> = {
  User: {
    accountId: KEY,
    id: KEY,
    email: TEAM,
    passwordHash: TEAM,
    totpSecret: SEALED,
    totpPendingSecret: SEALED,
  },
  Membership: { accountId: KEY, id: KEY, userId: KEY },
  Invite: { accountId: KEY, id: KEY, email: TEAM, tokenHash: SEALED, invitedBy: TEAM },
  Session: { accountId: KEY, id: KEY, userId: KEY },
  AuditEvent: {
    accountId: KEY,
    id: KEY,
    actorKind: ENUM,
    actorId: TEAM,
    actor: TEAM,
    ip: TEAM,
    action: ENUM,
    target: not("an id or a key's name; a person's screening id is no value of theirs"),
    targetLabel: not(
      "a member's email, a key's name, an endpoint's URL, a screening's kind, decision and score (audit-labels.ts): never an end user's value",
    ),
    before: not("configuration and team snapshots: never rewritten"),
    after: p(
      "allowList.add (value, note) naming the person as asked; a note on their screening or charge (NOTE_ACTIONS)",
    ),
  },
  RuleSettings: { accountId: KEY, values: CONFIG },
  TemplateSettings: { accountId: KEY, values: CONFIG },
  Blocklist: { accountId: KEY, countries: CONFIG, emailProviders: CONFIG },
  MerchantSettings: {
    accountId: KEY,
    appName: CONFIG,
    contactEmail: CONFIG,
    stripePublishable: CONFIG,
    stripeSecretCipher: SEALED,
    stripeSecretHint: SEALED,
    stripeWebhookSecretCipher: SEALED,
    stripeWebhookSecretHint: SEALED,
  },
  Transaction: {
    accountId: KEY,
    chargeId: KEY,
    paymentIntentId: KEY,
    currency: ENUM,
    email: p("matched in any case; cleared, and kept clear against later Stripe events"),
    status: ENUM,
    outcomeType: ENUM,
    outcomeReason: ENUM,
    riskLevel: ENUM,
    cardCountry: ENUM,
    billingCountry: ENUM,
    cardFingerprint: p("matched exactly (card_fingerprint); cleared"),
    efwId: KEY,
    efwFraudType: ENUM,
    outcome: ENUM,
    ruleReason: p("the person's charges: their values taken out of the text"),
    ruleKeys: ENUM,
    actionKind: ENUM,
    actionStatus: ENUM,
    actionError: p("the person's charges: their values taken out of the text"),
    reviewStatus: ENUM,
    reviewReasons: p("the person's charges: their values taken out of the JSON"),
    reviewedBy: TEAM,
    reviewNote: p("the person's charges: cleared"),
  },
  TransactionDay: { accountId: KEY, currency: ENUM },
  StripeEvent: { accountId: KEY, eventId: KEY, type: ENUM, status: ENUM, chargeId: KEY },
  StripeAction: {
    accountId: KEY,
    id: KEY,
    chargeId: KEY,
    targetId: KEY,
    idempotencyKey: KEY,
    reason: p("actions on the person's charges: their values taken out of the text"),
    lastError: p("actions on the person's charges: their values taken out of the text"),
    stripeObjectId: KEY,
  },
  ImportJob: {
    accountId: KEY,
    id: KEY,
    status: ENUM,
    error: not("Stripe's or the network's error for a whole import"),
  },
  RuleParameterSettings: { accountId: KEY, values: CONFIG },
  ScoreSettings: { accountId: KEY, thresholds: CONFIG },
  ScoreModel: {
    accountId: KEY,
    id: KEY,
    weights: CONFIG,
    status: ENUM,
    metrics: CONFIG,
    createdBy: TEAM,
    adoptedBy: TEAM,
    confirmedWarnings: ENUM,
  },
  ApiKey: { accountId: KEY, id: KEY, name: CONFIG, start: SEALED, keyHash: SEALED },
  Screening: {
    accountId: KEY,
    id: KEY,
    type: ENUM,
    userId: p("matched exactly; cleared"),
    email: p("matched in any case (and the spellings of one inbox); cleared"),
    ip: p("matched as one canonical address; cleared"),
    country: ENUM,
    decision: ENUM,
    rules: ENUM,
    reasons: p(
      "the person's screenings, and screenings naming them as referrer: values taken out of the JSON",
    ),
    monitored: p("as reasons"),
    input: p(
      "the person's: only type, amount and currency kept; naming them as referrer: that value erased",
    ),
    collectIp: p("matched as one canonical address; cleared"),
    signals: p("matched by device_id; cleared"),
    unavailable: p("the person's screenings: values taken out of the JSON"),
    allowed: p("the person's screenings: the entry's value taken out"),
    reviewStatus: ENUM,
    reviewedBy: TEAM,
    reviewNote: p("the person's screenings: cleared"),
    linked: p("counts only; the person's screenings: values taken out of the JSON all the same"),
    contributions: p("as reasons"),
  },
  ScreeningIdentity: {
    accountId: KEY,
    screeningId: KEY,
    kind: ENUM,
    value: not("a keyed digest, kept so the rules still count (decision 029)"),
    type: ENUM,
    subject: not("a keyed digest"),
    userId: not("a keyed digest"),
    card: not("a keyed digest"),
    promo: not("a keyed digest"),
  },
  SignalToken: {
    accountId: KEY,
    id: KEY,
    tokenHash: SEALED,
    apiKeyId: KEY,
    origin: CONFIG,
    collectIp: p("matched as one canonical address; the token deleted"),
    signals: p("matched by device_id; the token deleted"),
  },
  AllowedOrigins: { accountId: KEY, origins: CONFIG },
  CollectRefusal: { accountId: KEY, origin: CONFIG, reason: CONFIG },
  Label: {
    accountId: KEY,
    id: KEY,
    subjectId: KEY,
    who: TEAM,
    whoId: KEY,
    note: p("labels on the person's screenings and charges: cleared"),
    sourceRef: KEY,
  },
  AllowEntry: {
    accountId: KEY,
    id: KEY,
    value: p("matched as asked, per kind (never by widening); the entry deleted"),
    note: p("the entry deleted"),
    addedBy: TEAM,
  },
  WebhookEndpoint: {
    accountId: KEY,
    id: KEY,
    url: CONFIG,
    events: CONFIG,
    secretCipher: SEALED,
    disabledReason: ENUM,
  },
  WebhookDelivery: {
    accountId: KEY,
    id: KEY,
    endpointId: KEY,
    eventId: KEY,
    eventType: ENUM,
    body: p(
      "events about the person's screenings, charges and labels, or naming their user id or email: values taken out of the JSON",
    ),
    status: ENUM,
    lastError: not("the receiver's HTTP status or network error"),
    attemptLog: not("times, HTTP statuses and network errors"),
  },
  DemoLoad: {
    accountId: KEY,
    rulesTurnedOn: CONFIG,
    rulesAfter: CONFIG,
    countriesAdded: CONFIG,
    countriesAfter: CONFIG,
  },
};
