import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("needs nothing: port 3000, embedded database under ./data, links to localhost", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.publicUrl).toBe("http://localhost:3000");
  });

  it("derives PUBLIC_URL from PORT and drops a trailing slash from an explicit one", () => {
    expect(loadConfig({ PORT: "4100" }).publicUrl).toBe("http://localhost:4100");
    expect(loadConfig({ PUBLIC_URL: "https://warden.example.com/" }).publicUrl).toBe(
      "https://warden.example.com",
    );
  });

  it.each([
    [{ PORT: "abc" }, /^PORT: .*\(got "abc"\)$/],
    [{ PORT: "70000" }, /^PORT: must be between 1 and 65535/],
    [{ DATABASE_URL: "mysql://x" }, /^DATABASE_URL: must be a postgres/],
    [{ PUBLIC_URL: "localhost:3000" }, /^PUBLIC_URL: must be an http/],
    [{ SMTP_URL: "http://mail" }, /^SMTP_URL: must be an smtp/],
    [{ LOG_LEVEL: "loud" }, /^LOG_LEVEL: must be one of/],
    [{ LOG_FORMAT: "xml" }, /^LOG_FORMAT: must be pretty or json \(got "xml"\)$/],
    [{ TRUST_PROXY: "maybe" }, /^TRUST_PROXY: must be the number of proxies/],
    [{ TRUST_PROXY: "true" }, /^TRUST_PROXY: .*`true` is no longer accepted/],
    [{ TRUST_PROXY: "10.0.0.0/33" }, /^TRUST_PROXY: must be the number of proxies/],
    [{ TRUST_PROXY: "10.0.0.1, evil" }, /^TRUST_PROXY: must be the number of proxies/],
    // Well-formed, but Fastify refuses them: before, the server started and answered 500.
    [{ TRUST_PROXY: "10.0.0.0/0" }, /^TRUST_PROXY: must be the number of proxies/],
    [{ TRUST_PROXY: "::/0" }, /^TRUST_PROXY: must be the number of proxies/],
  ])("rejects %o with one line naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{}, undefined],
    [{ LOG_FORMAT: "" }, undefined],
    [{ LOG_FORMAT: "pretty" }, "pretty"],
    [{ LOG_FORMAT: "json" }, "json"],
  ])("reads LOG_FORMAT %o as %s (unset: chosen by whether stdout is a terminal)", (env, format) => {
    expect(loadConfig(env).logFormat).toBe(format);
  });

  it("does not echo values that may hold a password", () => {
    const url = "mysql://root:hunter2@db/warden";
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/^DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ DATABASE_URL: url })).not.toThrow(/hunter2/);
    expect(() => loadConfig({ SMTP_URL: "http://u:hunter2@mail" })).not.toThrow(/hunter2/);
  });
});

describe("TRUST_PROXY", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["false", false],
    ["0", false],
    ["1", 1],
    ["2", 2],
    ["127.0.0.1", ["127.0.0.1"]],
    ["10.0.0.0/8, 192.168.1.10", ["10.0.0.0/8", "192.168.1.10"]],
    ["::1,fd00::/8", ["::1", "fd00::/8"]],
  ])("reads %j as %j for Fastify's trustProxy", (value, expected) => {
    const env = value === undefined ? {} : { TRUST_PROXY: value };
    expect(loadConfig(env).trustProxy).toEqual(expected);
  });
});
