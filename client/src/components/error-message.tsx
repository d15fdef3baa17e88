/** A failed request's message, read out when it appears; nothing while there is no error. */
import { errorMessage } from "../lib/trpc.ts";

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="message error" role="alert">
      {errorMessage(error)}
    </p>
  );
}
