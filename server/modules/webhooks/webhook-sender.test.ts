/**
 * The sender over real HTTP against misbehaving local receivers: an attempt has one deadline
 * for all of it (an idle timeout let a receiver trickling a byte every 2 s hold it forever),
 * and reads at most a few KB of the answer.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  startFloodReceiver,
  startSilentReceiver,
  startTrickleReceiver,
} from "../../../test/helpers/slow-receivers.ts";
import { startWebhookReceiver } from "../../../test/helpers/webhook-receiver.ts";
import { createWebhookSender } from "./webhook-sender.ts";

const send = createWebhookSender({ allowPrivate: true, deadlineMs: 600 });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function timed(url: string, signal?: AbortSignal) {
  const started = performance.now();
  const result = await send(url, "{}", {}, signal);
  return { ...result, ms: performance.now() - started };
}

describe("webhook sender", () => {
  it("cuts a receiver that sent its headers and trickles its body at the deadline", async () => {
    const trickle = await startTrickleReceiver(100);
    closers.push(trickle.close);
    const result = await timed(trickle.url);
    expect(result).toMatchObject({
      status: 200,
      error: "HTTP 200 but the body unfinished after 0.6 s: cut at the deadline",
    });
    expect(result.ms).toBeGreaterThanOrEqual(550);
    expect(result.ms).toBeLessThan(1500);
    await expect.poll(() => trickle.open()).toBe(0);
  });

  it("cuts a receiver that never answers at the deadline", async () => {
    const silent = await startSilentReceiver();
    closers.push(silent.close);
    const result = await timed(silent.url);
    expect(result).toMatchObject({
      status: null,
      error: "no answer after 0.6 s: cut at the deadline",
    });
    expect(result.ms).toBeLessThan(1500);
  });

  it("reads a few KB of an endless body, then drops the connection with the status", async () => {
    const flood = await startFloodReceiver();
    closers.push(flood.close);
    const result = await timed(flood.url);
    expect(result).toMatchObject({ status: 200, error: null });
    expect(result.ms).toBeLessThan(550);
    await expect.poll(() => flood.open()).toBe(0);
  });

  it("takes a prompt answer as it is, and a non-2xx as a failure", async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    expect(await send(receiver.url, '{"a":1}', { "warden-event-id": "evt_1" })).toEqual({
      status: 200,
      error: null,
    });
    expect(receiver.received[0]).toMatchObject({ body: '{"a":1}' });
    receiver.answer(503);
    expect(await send(receiver.url, "{}", {})).toEqual({ status: 503, error: "HTTP 503" });
  });

  it("stops an attempt when aborted (the worker stopping)", async () => {
    const trickle = await startTrickleReceiver(100);
    closers.push(trickle.close);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const result = await timed(trickle.url, stop.signal);
    expect(result).toMatchObject({ status: 200, error: "stopped" });
    expect(result.ms).toBeLessThan(500);
  });
});
