/** The one error type services throw; transport/errors.ts maps its code to HTTP and tRPC. */
export type AppErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
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
