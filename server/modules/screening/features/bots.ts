import { isbot } from "isbot";
import { memo } from "../../../lib/memo.ts";

// isbot 5.2 already matches curl, wget, python-requests, Go-http-client, HeadlessChrome,
// node-fetch, axios, okhttp, Java, Deno, Bun, Postman and the like (bots.test.ts checks them).
// Of the library defaults tried, it missed only Dart's HttpClient ("Dart/3.2 (dart:io)").
const EXTRA_AUTOMATION = /\bdart:io\b|^Dart\//i;

/**
 * Whether a user agent is a crawler, an HTTP library or a headless browser (isbot plus a few
 * library defaults). An empty agent is not called a bot here: the caller may simply not have
 * forwarded it.
 */
export function isBotUserAgent(userAgent: string): boolean {
  return botByAgent(userAgent);
}

// isbot's pattern costs ~10-20 µs an agent; real traffic repeats a few thousand agents.
const botByAgent = memo((userAgent: string) => {
  const agent = userAgent.trim();
  if (agent === "") return false;
  return isbot(agent) || EXTRA_AUTOMATION.test(agent);
}, 10_000);
