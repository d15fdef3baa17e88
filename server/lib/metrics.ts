/**
 * Prometheus metrics (prom-client): request durations per route, webhook events by result,
 * Stripe actions by state, screening decisions and latency, the event loop's lag, the
 * database pool and how many events share an ingest statement. Served at GET /metrics behind METRICS_TOKEN (see metrics.plugin.ts).
 */
import client from "prom-client";

export type PoolStats = () => { total: number; idle: number; waiting: number } | null;

export function createMetrics(sources: {
  actionsByStatus: () => Promise<Record<string, number>>;
  poolStats: PoolStats;
}) {
  const registry = new client.Registry();
  // Process metrics, the event loop's lag among them (nodejs_eventloop_lag_seconds).
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });

  const httpDuration = new client.Histogram({
    name: "warden_http_request_duration_seconds",
    help: "HTTP request duration by route",
    labelNames: ["method", "route", "status"],
    buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const webhookEvents = new client.Counter({
    name: "warden_webhook_events_total",
    help: "Stripe webhook deliveries by result (applied, ignored, duplicate, rejected)",
    labelNames: ["result"],
    registers: [registry],
  });
  const screenings = new client.Counter({
    name: "warden_screenings_total",
    help: "Screenings by decision",
    labelNames: ["decision"],
    registers: [registry],
  });
  const screeningDuration = new client.Histogram({
    name: "warden_screening_duration_seconds",
    help: "Time to decide and store one screening",
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers: [registry],
  });
  const ingestBatch = new client.Histogram({
    name: "warden_ingest_batch_size",
    help: "Stripe events sharing one ingest statement (read or write): more under load",
    labelNames: ["statement"],
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers: [registry],
  });
  const screeningBatch = new client.Histogram({
    name: "warden_screening_batch_size",
    help: "Screenings sharing one count and one insert: more under load",
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers: [registry],
  });
  new client.Gauge({
    name: "warden_stripe_actions",
    help: "Stripe actions (refunds, cancellations) by state",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [state, count] of Object.entries(await sources.actionsByStatus())) {
        this.set({ state }, count);
      }
    },
  });
  new client.Gauge({
    name: "warden_db_pool_connections",
    help: "PostgreSQL pool connections by state (absent for the embedded database)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const stats = sources.poolStats();
      if (!stats) return;
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });

  return {
    registry,
    /** Called once per answered request. */
    request(method: string, route: string, status: number, seconds: number): void {
      httpDuration.observe({ method, route, status: String(status) }, seconds);
    },
    webhook(result: string): void {
      webhookEvents.inc({ result });
    },
    ingestBatch(statement: "read" | "write", size: number): void {
      ingestBatch.observe({ statement }, size);
    },
    screening(decision: string, seconds: number): void {
      screenings.inc({ decision });
      screeningDuration.observe(seconds);
    },
    screeningBatch(size: number): void {
      screeningBatch.observe(size);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
