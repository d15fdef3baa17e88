/** Exact user-facing strings from the product spec, in one place for client, server and tests. */
export const MESSAGES = {
  signupSuccess: "Signup successful! Check your email to confirm.",
  resetEmailSent: "Password reset email sent! (Check your spam folder.)",
  passwordUpdated: "Password updated!",
  passwordsDoNotMatch: "Passwords do not match.",
  resetFieldsRequired: "Please enter and confirm your new password.",
  noResetSession: "You do not have a valid reset session.",
  resetTokenFailed: "Invalid or expired reset link. Please request a new one.",
  invalidLinkTitle: "Invalid or Expired Link",
  invalidLinkBody: "This password reset link is invalid or expired.",
  invalidLink: "Invalid Link",
  verifyingLink: "Verifying link...",
  resetDone: "Your password has been updated! Redirecting to login...",
  invalidCredentials: "Invalid email or password.",
  currentPasswordWrong: "Your current password is not correct.",
  emailNotConfirmed:
    "Please confirm your email before logging in. We sent you a link when you signed up.",
  emailConfirmed: "Your email is confirmed. You can now log in.",
  confirmLinkInvalid: "This confirmation link is invalid or expired.",
  tooManyLoginFailures:
    "Too many failed login attempts for this email. Please wait 15 minutes and try again.",
  tooManyRequests: "Too many requests. Please wait a moment and try again.",
  signInRequired: "Please log in.",
  waitlistInvalidEmail: "Please enter a valid email.",
  waitlistJoined: "Thanks! You are on the list.",
  waitlistAlreadyListed: "You are already on the list.",
  waitlistFailed: "Something went wrong. Please try again.",
  waitlistSubmitting: "Submitting...",
  waitlistPlaceholder: "Enter your E-mail",
  waitlistNote: "No spam, just project news.",
  waitlistTooManyRequests:
    "Too many attempts from your network. Please wait a minute and try again.",
  settingsSaved: "Settings saved!",
  loadingBlocklist: "Loading block lists…",
  blocklistNote:
    "Users with emails from blocked providers are blocked at checkout, and blocked countries are blocked for payments.",
} as const;

/** How long after a successful reset the page moves to /login. */
export const RESET_REDIRECT_MS = 2000;
