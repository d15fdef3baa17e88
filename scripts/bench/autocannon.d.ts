/** The part of autocannon's API the benchmarks use (the package ships no types). */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  };
  type RequestData = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    overallRate?: number;
    connectionRate?: number;
    ignoreCoordinatedOmission?: boolean;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    pipelining?: number;
    requests?: (RequestData & {
      setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData;
      /** Called with each answer; autocannon then keeps the answer's body for it. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    })[];
    setupClient?: (client: EventEmitter) => void;
  };
  export type Result = {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
  };
  type Instance = EventEmitter & PromiseLike<Result> & { stop(): void };
  function autocannon(options: Options): Instance;
  export default autocannon;
}
