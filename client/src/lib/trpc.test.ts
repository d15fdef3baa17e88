import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { errorMessage, NETWORK_ERROR } from "./trpc.ts";

describe("the message a person reads for a failed call", () => {
  const unreached = (message: string) => TRPCClientError.from(new TypeError(message));
  it.each([
    ["Chromium's fetch that got no answer", unreached("Failed to fetch"), NETWORK_ERROR],
    ["Firefox's", unreached("NetworkError when attempting to fetch resource."), NETWORK_ERROR],
    ["Safari's", unreached("Load failed"), NETWORK_ERROR],
    ["a bare TypeError from fetch", new TypeError("Failed to fetch"), NETWORK_ERROR],
    [
      "the server's own message",
      new TRPCClientError("Your current password is not correct."),
      "Your current password is not correct.",
    ],
    // A bug in the page is not the network: its words stay (they help a report).
    ["another TypeError", new TypeError("x is undefined"), "x is undefined"],
    ["something that is no error", "boom", "Something went wrong. Please try again."],
  ])("%s", (_what, error, shown) => {
    expect(errorMessage(error)).toBe(shown);
  });
});
