import { useMutation } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { MESSAGES } from "../../../../shared/messages.ts";
import { errorMessage, useTRPC } from "../../lib/trpc.ts";
import { AuthLayout, FormMessage } from "./auth-layout.tsx";
import { useOnce } from "./use-once.ts";

export default function ConfirmEmailPage() {
  const trpc = useTRPC();
  const [params] = useSearchParams();
  const tokenHash = params.get("tokenHash") ?? "";
  const email = params.get("email") ?? "";
  const confirm = useMutation(trpc.auth.confirmEmail.mutationOptions());

  useOnce(() => {
    if (tokenHash && email) confirm.mutate({ tokenHash, email });
  });

  const missing = !tokenHash || !email;
  return (
    <AuthLayout title="Confirm your email">
      {!missing && (confirm.isIdle || confirm.isPending) && (
        <p role="status">Confirming your email...</p>
      )}
      <FormMessage kind="success" text={confirm.data?.message} />
      <FormMessage
        kind="error"
        text={missing ? MESSAGES.confirmLinkInvalid : confirm.error && errorMessage(confirm.error)}
      />
      <Link to="/login">Go to Log In</Link>
    </AuthLayout>
  );
}
