import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../lib/app-error.ts";
import { INTERNAL_MESSAGE, toAppError, toPublicError } from "./errors.ts";

const zodError = (() => {
  const result = z.strictObject({ days: z.number() }).safeParse({ days: "x", extra: 1 });
  if (result.success) throw new Error("expected a validation error");
  return result.error;
})();

describe("toAppError", () => {
  it.each([
    {
      name: "an AppError stays itself",
      error: new AppError("CONFLICT", "taken"),
      code: "CONFLICT",
      message: "taken",
    },
    {
      name: "an AppError wrapped as a cause is found",
      error: new Error("wrapper", { cause: new AppError("NOT_FOUND", "gone") }),
      code: "NOT_FOUND",
      message: "gone",
    },
    {
      name: "a validation error names the field",
      error: zodError,
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^days: /),
    },
    {
      name: "Fastify's 4xx keeps its status family",
      error: Object.assign(new Error("Body is not valid JSON"), { statusCode: 400 }),
      code: "BAD_REQUEST",
      message: "Body is not valid JSON",
    },
    {
      name: "a 429 from below stays a 429",
      error: Object.assign(new Error("slow down"), { statusCode: 429 }),
      code: "TOO_MANY_REQUESTS",
      message: "slow down",
    },
    {
      name: "a tRPC code without a cause maps back",
      error: new TRPCError({ code: "UNAUTHORIZED", message: "Please log in." }),
      code: "UNAUTHORIZED",
      message: "Please log in.",
    },
    {
      name: "anything else is internal, its message hidden",
      error: new Error("connection refused at 10.0.0.5"),
      code: "INTERNAL",
      message: INTERNAL_MESSAGE,
    },
    {
      name: "a thrown string is internal",
      error: "boom",
      code: "INTERNAL",
      message: INTERNAL_MESSAGE,
    },
  ])("$name", ({ error, code, message }) => {
    const appError = toAppError(error);
    expect(appError.code).toBe(code);
    expect(appError.message).toEqual(message);
  });

  it("validation issues carry every field path", () => {
    const issues = toPublicError(zodError).body.error.issues ?? [];
    expect(issues.map((issue) => issue.path).sort()).toEqual(["(root)", "days"]);
  });

  it("never shows a 5xx's own message", () => {
    const pub = toPublicError(new AppError("INTERNAL", "secret detail"));
    expect(pub).toMatchObject({ status: 500, body: { error: { message: INTERNAL_MESSAGE } } });
  });
});
