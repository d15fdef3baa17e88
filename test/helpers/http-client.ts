/**
 * A small HTTP client for tests: real requests over the loopback, a cookie jar like a
 * browser's, and helpers that speak tRPC's wire format.
 */
export type TrpcResult<T = unknown> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      status: number;
      error: {
        message: string;
        data: { code: string; issues?: { path: string; message: string }[] };
      };
    };

export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly defaultHeaders: Record<string, string> = { origin: baseUrl },
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers({ ...this.defaultHeaders });
    for (const [k, v] of new Headers(init.headers)) headers.set(k, v);
    if (this.cookies.size > 0 && !headers.has("cookie")) {
      headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      ...init,
      headers,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const [name = "", value = ""] = pair.split("=");
      const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (!value || expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.trim());
    }
    return response;
  }

  async mutate<T = unknown>(
    path: string,
    input?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TrpcResult<T>> {
    const response = await this.request(`/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: input === undefined ? undefined : JSON.stringify(input),
    });
    return parseTrpc<T>(response);
  }

  async query<T = unknown>(
    path: string,
    input?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TrpcResult<T>> {
    const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const response = await this.request(`/trpc/${path}${query}`, { headers });
    return parseTrpc<T>(response);
  }

  async json<T = unknown>(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const response = await this.request(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : null) as T,
      headers: response.headers,
    };
  }
}

async function parseTrpc<T>(response: Response): Promise<TrpcResult<T>> {
  const body = (await response.json()) as { result?: { data: T }; error?: never };
  if (body.result) return { ok: true, status: response.status, data: body.result.data };
  return { ok: false, status: response.status, error: body.error as never };
}
