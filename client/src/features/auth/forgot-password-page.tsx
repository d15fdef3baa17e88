import { Link } from "react-router";
import { AuthLayout } from "./auth-layout.tsx";
import { ForgotPasswordForm } from "./forgot-password-form.tsx";

export default function ForgotPasswordPage() {
  return (
    <AuthLayout title="Reset your password">
      <ForgotPasswordForm />
      <p>
        Remembered it? <Link to="/login">Log In</Link>
      </p>
    </AuthLayout>
  );
}
