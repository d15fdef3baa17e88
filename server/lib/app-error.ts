/** The one error type services throw; transport/errors.ts maps its code to HTTP and tRPC. */
export type AppErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL";

export type FieldIssue = { path: string; message: string };

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details: { issues?: FieldIssue[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}
