/**
 * The server's log: JSON lines for machines, or one readable, coloured line per event for a
 * person at a terminal (pino-pretty, in this process: no worker thread). Every line a request
 * causes carries its id (`reqId`), also when a service writes it through the app's logger
 * (request-context.ts), each request ends in one line (method, path, status, time), and
 * fields that could carry a secret or an address are censored before anything is written.
 */
import { randomBytes } from "node:crypto";
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from "fastify";
import { symbols } from "pino";
import { currentRequest } from "./request-context.ts";

export type LogFormat = "pretty" | "json";

/** LOG_FORMAT wins; unset, a terminal gets readable lines and anything else JSON. */
export function chooseLogFormat(setting: LogFormat | undefined, isTerminal: boolean): LogFormat {
  return setting ?? (isTerminal ? "pretty" : "json");
}

/** "alice@example.com" → "a***@example.com": enough to tell whose it was, not to write to it. */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf("@");
  if (at < 0) return "***";
  return `${value.slice(0, Math.min(1, at))}***${value.slice(at)}`;
}

/** Field names whose value is a credential: censored at the top level and one level down. */
const SECRET_FIELDS = [
  "password",
  "newPassword",
  "token",
  "tokenHash",
  "secret",
  "key",
  "apiKey",
  "stripe_secret",
  "stripe_webhook_secret",
  "stripeSecretKey",
  "webhookSecret",
  "authorization",
  "cookie",
];
/** Field names whose value is an email address: masked rather than dropped. */
const EMAIL_FIELDS = ["email", "contact_email", "to"];

const both = (name: string) => [name, `*.${name}`];

/** pino's redact: secrets are censored and emails masked, wherever a log call puts them. */
export const REDACT = {
  paths: [...SECRET_FIELDS, ...EMAIL_FIELDS].flatMap(both),
  censor: (value: unknown, path: string[]) =>
    EMAIL_FIELDS.includes(path.at(-1) ?? "") && typeof value === "string"
      ? maskEmail(value)
      : "[redacted]",
};

// Random bytes for request ids, drawn 4 KiB at a time: one call into the random generator per
// request was 2% of a screening's CPU in the profile (docs/scaling.md).
let idBytes = randomBytes(4096);
let idOffset = 0;

/** A request id that is unique across instances and restarts, short enough to read. */
export function newRequestId(): string {
  if (idOffset + 8 > idBytes.length) {
    idBytes = randomBytes(4096);
    idOffset = 0;
  }
  idOffset += 8;
  return idBytes.toString("hex", idOffset - 8, idOffset);
}

/**
 * Fastify's `childLoggerFactory`: a request's own logger, whose lines carry its id, as
 * Fastify's default makes it but without passing the id through the redaction. pino runs every
 * binding of a new child through the wildcard paths of REDACT (`*.password`, ...), which
 * parses each path again on every call: 3.4 µs a request, and a tenth of the bytes a screening
 * allocates (docs/scaling.md); this way 0.4 µs. The id is ours (newRequestId: hex) and no redacted
 * field, so it is appended to the child's bindings as pino would write it (`pino.symbols` is
 * pino's documented way in). A route's own level or serializers, or any other binding, take
 * pino's way.
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: { level?: string; serializers?: unknown },
): FastifyBaseLogger {
  const keys = Object.keys(bindings);
  const id = bindings.reqId;
  if (options.level || options.serializers || keys.length !== 1 || typeof id !== "string") {
    return logger.child(bindings, options as object);
  }
  const child = logger.child({}) as FastifyBaseLogger & Record<symbol, string>;
  child[symbols.chindingsSym] += `,"reqId":${JSON.stringify(id)}`;
  return child;
}

/** One line per request, written when it is answered: method, path, status and time. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}

type LogLine = Record<string, unknown> & {
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
};

/** A pretty line's message: `[reqId] GET /path 200 3 ms` for a request, else `[reqId] msg`. */
export function prettyMessage(line: LogLine, messageKey: string): string {
  const id = line.reqId ? `[${line.reqId}] ` : "";
  if (line.req && line.res) {
    const ms = typeof line.responseTime === "number" ? ` ${Math.round(line.responseTime)} ms` : "";
    return `${id}${line.req.method} ${line.req.url} ${line.res.statusCode}${ms}`;
  }
  return `${id}${String(line[messageKey] ?? "")}`;
}

/**
 * The request id for a line written while a request is handled, unless the line's logger is
 * that request's own (or a child of it), which carries the id already. A new object each
 * time: pino merges the line's fields into it.
 */
export function requestIdOf(logger: object): { reqId?: string } {
  const request = currentRequest();
  if (
    !request ||
    logger === request.log ||
    Object.prototype.isPrototypeOf.call(request.log, logger)
  ) {
    return {};
  }
  return { reqId: request.id };
}

/** Fastify's `logger` option for this level, format and destination (stdout by default). */
export async function loggerOptions(options: {
  level: string;
  format: LogFormat;
  stream?: NodeJS.WritableStream;
}): Promise<FastifyServerOptions["logger"]> {
  const base = {
    level: options.level,
    redact: REDACT,
    mixin: (_line: object, _level: number, logger: object) => requestIdOf(logger),
    serializers: {
      // The request line carries no headers and no query string (tokens travel in both), nor
      // an invitation's token, which travels in the path of its preview.
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.split("?")[0]?.replace(/^\/api\/invites\/[^/]+/, "/api/invites/:token"),
        ip: req.ip,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
  if (options.format === "json") {
    return { ...base, ...(options.stream ? { stream: options.stream } : {}) };
  }
  // Loaded only here: a server writing JSON never pays for the prettifier.
  const { default: pretty } = await import("pino-pretty");
  return {
    ...base,
    stream: pretty({
      destination: options.stream ?? 1,
      sync: true,
      translateTime: "SYS:HH:MM:ss.l",
      ignore: "pid,hostname,reqId,req,res,responseTime",
      singleLine: true,
      messageFormat: (line, messageKey) => prettyMessage(line as LogLine, messageKey),
    }),
  };
}
